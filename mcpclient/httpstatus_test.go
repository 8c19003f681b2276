package mcpclient_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Statuses a user meets against servers in the wild are explained with the body: 421 as a
// Host check, 403 without credentials as a refusal that is not about credentials, 5xx as
// the server's own failure.
func TestHTTPStatusExplained(t *testing.T) {
	for _, c := range []struct {
		code   int
		bearer bool
		body   string
		want   []string
	}{
		{http.StatusMisdirectedRequest, false, "Invalid Host header", []string{"Invalid Host header", "DNS-rebinding", "127.0.0.1"}},
		{http.StatusForbidden, false, "Forbidden origin", []string{"Forbidden origin", "Origin or Host check", "not missing credentials"}},
		{http.StatusForbidden, true, "nope", []string{"with the credentials given"}},
		{http.StatusBadGateway, false, "upstream down", []string{"upstream down", "a server error"}},
	} {
		srv := testservers.FakeHTTP(t, func(w http.ResponseWriter, r *http.Request, m testservers.RPC) {
			w.WriteHeader(c.code)
			w.Write([]byte(c.body))
		})
		h := http.Header{}
		if c.bearer {
			h.Set("Authorization", "Bearer t")
		}
		s := startHTTP(t, mcpclient.Config{URL: srv.URL, Header: h, Timeout: 5 * time.Second})
		_, err := s.c.Connect(context.Background())
		s.close()
		var he *mcpclient.HTTPStatusError
		if !errors.As(err, &he) || he.StatusCode != c.code {
			t.Fatalf("%d: %v", c.code, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%d (bearer %v): %q lacks %q", c.code, c.bearer, err, w)
			}
		}
	}
}

// With --transport auto, a POST initialize answered 404 falls back to HTTP+SSE; when that
// fails too, both errors are reported, the first one first.
func TestHTTPFallbackKeepsFirstError(t *testing.T) {
	srv := testservers.FakeHTTP(t, func(w http.ResponseWriter, r *http.Request, m testservers.RPC) {
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte("no MCP here: try /api/mcp"))
	})
	s := startHTTP(t, mcpclient.Config{URL: srv.URL, SSEFallback: true, Timeout: 5 * time.Second})
	_, err := s.c.Connect(context.Background())
	s.close()
	var fe *mcpclient.FallbackError
	var he *mcpclient.HTTPStatusError
	if !errors.As(err, &fe) || !errors.As(fe.Streamable, &he) || he.StatusCode != http.StatusNotFound {
		t.Fatalf("Connect: %v, want a FallbackError keeping the POST's 404", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "try /api/mcp") || !strings.Contains(msg, "HTTP+SSE fallback") {
		t.Errorf("message: %s", msg)
	}
}

// A notification acknowledged with 200 and an echoed body, or with 204, is noted once per
// status and the echo is not taken for a server message.
func TestHTTPNotificationAcksNotedOnce(t *testing.T) {
	for _, code := range []int{http.StatusOK, http.StatusNoContent} {
		srv := testservers.FakeHTTP(t, func(w http.ResponseWriter, r *http.Request, m testservers.RPC) {
			if m.ID == nil {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(code)
				if code == http.StatusOK {
					w.Write(m.Body) // echoed
				}
				return
			}
			result := `{"tools":[]}`
			if m.Method == "initialize" {
				result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"x","version":"1"}}`
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + result + `}`))
		})
		s := connectHTTP(t, mcpclient.Config{URL: srv.URL, Timeout: 5 * time.Second})
		ctx := context.Background()
		s.c.Notify("notifications/roots/list_changed", nil)
		s.c.ListTools(ctx)
		notes, echoes := 0, 0
		for _, ev := range s.close() {
			if ev.Life != nil && strings.Contains(ev.Life.Text, "MCP says 202 Accepted (noted once)") {
				notes++
			}
			if ev.Dir == mcpclient.ServerToClient && ev.Kind == mcpclient.KindNotification {
				echoes++
			}
		}
		if notes != 1 || echoes != 0 {
			t.Errorf("%d: %d notes (want 1), %d echoed notifications taken as the server's", code, notes, echoes)
		}
	}
}

// A request's SSE stream that ends inside the event holding its response (no blank line
// after it; the last line with or without its line ending) gives the response at once with a
// violation that says what the SSE rules do; --strict refuses it.
func TestHTTPUnterminatedEventTaken(t *testing.T) {
	for _, tail := range []string{"\n", ""} {
		for _, strict := range []bool{false, true} {
			srv := testservers.FakeHTTP(t, func(w http.ResponseWriter, r *http.Request, m testservers.RPC) {
				if handshake(w, m) {
					return
				}
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write([]byte(`event: message` + "\n" + `data: {"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}` + tail))
			})
			s := connectHTTP(t, mcpclient.Config{URL: srv.URL, Timeout: 10 * time.Second, Strict: strict})
			ctx := context.Background()
			start := time.Now()
			tools, _, err := s.c.ListTools(ctx)
			took := time.Since(start)
			found := false
			for _, ev := range s.close() {
				found = found || ev.Life != nil && strings.Contains(ev.Life.Text, "the SSE rules discard such an event")
			}
			switch {
			case took > 5*time.Second:
				t.Errorf("tail %q strict %v: waited %v", tail, strict, took)
			case !found:
				t.Errorf("tail %q strict %v: no violation said", tail, strict)
			case !strict && (err != nil || len(tools) != 1):
				t.Errorf("tail %q: tools/list %v, %v", tail, tools, err)
			case strict && err == nil:
				t.Errorf("tail %q: --strict took the response", tail)
			}
		}
	}
}

// A request's stream that holds the event with its response without the blank line, and
// stays open, gives the response after a short quiet time instead of the request's timeout;
// an event whose blank line comes a little late (a slow server) is not flagged, and one
// whose blank line comes after the response was taken is not handled twice.
func TestHTTPStalledEventTaken(t *testing.T) {
	for _, tc := range []struct {
		name  string
		blank time.Duration // when the blank line comes; 0: never
		flag  bool
	}{{"never", 0, true}, {"slow", 5 * time.Millisecond, false}, {"late", time.Second, true}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := testservers.FakeHTTP(t, func(w http.ResponseWriter, r *http.Request, m testservers.RPC) {
				if handshake(w, m) {
					return
				}
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write([]byte(`event: message` + "\n" + `data: {"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"tools":[]}}` + "\n"))
				w.(http.Flusher).Flush()
				if tc.blank > 0 {
					select {
					case <-time.After(tc.blank):
						w.Write([]byte("\n"))
						w.(http.Flusher).Flush()
					case <-r.Context().Done():
						return
					}
				}
				<-r.Context().Done() // the stream stays open
			})
			s := connectHTTP(t, mcpclient.Config{URL: srv.URL, Timeout: 10 * time.Second})
			ctx := context.Background()
			start := time.Now()
			_, _, err := s.c.ListTools(ctx)
			took := time.Since(start)
			if err != nil || took > 3*time.Second {
				t.Fatalf("tools/list: %v after %v", err, took)
			}
			flagged, responses := false, 0
			for _, ev := range s.close() {
				flagged = flagged || ev.Life != nil && strings.Contains(ev.Life.Text, "no blank line ends it")
				if ev.Dir == mcpclient.ServerToClient && ev.Kind == mcpclient.KindResponse && ev.Method == "tools/list" {
					responses++
				}
			}
			if flagged != tc.flag || responses != 1 {
				t.Errorf("flagged %v (want %v), %d responses", flagged, tc.flag, responses)
			}
		})
	}
}
