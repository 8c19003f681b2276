package mcpclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// cutProxy forwards to upstream and cuts the SSE answer to a POST whose body contains cut
// right after the first frame that contains after: the server closes the stream, as
// 2025-11-25 allows, and the client must resume it with GET and Last-Event-ID.
func cutProxy(t *testing.T, upstream, cut, after string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, upstream, bytes.NewReader(body))
		req.Header = r.Header.Clone()
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		sr := mcpclient.NewSSEReader(resp.Body)
		cutting := r.Method == http.MethodPost && bytes.Contains(body, []byte(cut))
		for {
			f, err := sr.Next()
			w.Write(f.Raw)
			w.(http.Flusher).Flush()
			if err != nil || (cutting && strings.Contains(f.Data, after)) {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestHTTPResumeWithLastEventID(t *testing.T) {
	up := testservers.ServerEverythingHTTP(t)
	proxy := cutProxy(t, up.URL, "trigger-long-running-operation", `"progress":1`)
	s := startHTTP(t, mcpclient.Config{URL: proxy.URL + "/mcp"})
	ctx := context.Background()
	if _, err := s.c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	out, _, err := s.c.CallTool(ctx, "trigger-long-running-operation", json.RawMessage(`{"duration":2,"steps":4}`))
	if err != nil || out.IsError {
		t.Fatalf("long-running: %+v %v", out, err)
	}
	evs := s.close()
	if count(evs, mcpclient.HTTPOut, mcpclient.KindHTTPRequest, "Last-Event-ID: ") == 0 {
		t.Errorf("no GET with Last-Event-ID")
	}
	if n := count(evs, mcpclient.ServerToClient, mcpclient.KindNotification, "notifications/progress"); n != 4 {
		t.Errorf("%d progress notifications, want 4", n)
	}
	// The wait before the reconnect and the response on the resumed stream are said.
	notes := strings.Join(lifeNotes(evs), "\n")
	if !strings.Contains(notes, "its stream ended before the response; resuming in") || !strings.Contains(notes, "with GET and Last-Event-ID") || !strings.Contains(notes, "answered on the stream resumed from event id") {
		t.Errorf("resumption not said:\n%s", notes)
	}
}

// expiring is a legacy server whose first session ends after initialize: every later
// request with id s-1 gets 404; the next session, s-2, lives.
func expiring(t *testing.T) *httptest.Server {
	var mu sync.Mutex
	sessions := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodDelete {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(body, &m)
		switch {
		case m.Method == "initialize":
			mu.Lock()
			sessions++
			sid := fmt.Sprintf("s-%d", sessions)
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Mcp-Session-Id", sid)
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"expiring","version":"1"}}}`))
		case m.ID == nil:
			w.WriteHeader(http.StatusAccepted)
		case r.Header.Get("Mcp-Session-Id") == "s-2":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"tools":[]}}`))
		default:
			http.Error(w, "no such session", http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestHTTPSessionExpired(t *testing.T) {
	srv := expiring(t)
	s := startHTTP(t, mcpclient.Config{URL: srv.URL})
	ctx := context.Background()
	if _, err := s.c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	_, _, err := s.c.ListTools(ctx)
	var se *mcpclient.SessionExpiredError
	if !errors.As(err, &se) || se.SessionID != "s-1" {
		t.Fatalf("tools/list: %v, want a SessionExpiredError", err)
	}
	if !strings.Contains(err.Error(), "session expired") {
		t.Errorf("message: %v", err)
	}
	// Initialize again: a new session, and requests work again.
	if _, err := s.c.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.c.ListTools(ctx); err != nil {
		t.Fatalf("tools/list in the new session: %v", err)
	}
	evs := s.close()
	if count(evs, mcpclient.HTTPOut, mcpclient.KindHTTPRequest, "Mcp-Session-Id: s-2") < 2 {
		t.Error("the new session's id was not sent")
	}
}

func TestHTTPUnauthorizedIsTyped(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	s := startHTTP(t, mcpclient.Config{URL: srv.URL, Timeout: 5 * time.Second})
	_, err := s.c.Connect(context.Background())
	var he *mcpclient.HTTPStatusError
	if !errors.As(err, &he) || !he.Unauthorized() || he.Header.Get("WWW-Authenticate") == "" {
		t.Fatalf("connect: %v, want an HTTPStatusError 401", err)
	}
}

func TestHTTPConnectRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	s := startHTTP(t, mcpclient.Config{URL: url, Timeout: 5 * time.Second})
	_, err := s.c.Connect(context.Background())
	var ce *mcpclient.ConnectError
	if !errors.As(err, &ce) {
		t.Fatalf("connect: %v, want a ConnectError", err)
	}
}

func TestHTTPProblemsCountAndStrict(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusNotFound) // the spec says 405 for no GET stream
			return
		}
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(body, &m)
		w.Header().Set("Content-Type", "application/json")
		if m.ID == nil {
			w.Write([]byte(`{}`)) // 200 with a body to a notification: should be 202
			return
		}
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"sloppy","version":"1"},"tools":[]}}`))
	}))
	t.Cleanup(srv.Close)
	s := startHTTP(t, mcpclient.Config{URL: srv.URL, Strict: true})
	ctx := context.Background()
	s.c.Connect(ctx)
	time.Sleep(100 * time.Millisecond)
	_, _, err := s.c.ListTools(ctx)
	var v *mcpclient.ViolationError
	if !errors.As(err, &v) || v.Problem.Code != mcpclient.CodeHTTPStatus {
		t.Fatalf("tools/list under --strict: %v, want a ViolationError http-status", err)
	}
	evs := s.close()
	if w := warnings(evs); len(w) == 0 {
		t.Fatal("no warning counted")
	}
}

// sloppy is a server that answers initialize properly and then breaks one transport rule,
// chosen by how.
func sloppy(t *testing.T, how string) *httptest.Server {
	srv := testservers.FakeHTTP(t, func(w http.ResponseWriter, r *http.Request, m testservers.RPC) {
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		result := `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"sloppy","version":"1"}}`
		if m.Method != "initialize" {
			result = `{"tools":[]}`
			if how == "huge" {
				result = `{"tools":[],"pad":"` + strings.Repeat("x", 500) + `"}`
			}
		}
		resp := `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + result + `}`
		switch {
		case m.Method == "initialize":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(resp))
		case how == "huge":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(resp))
		case how == "json-as-sse":
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write([]byte(resp))
		case how == "sse-as-json":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("event: message\ndata: " + resp + "\n\n"))
		case how == "wrong-stream":
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write([]byte("data: {\"jsonrpc\":\"2.0\",\"id\":999,\"result\":{}}\n\ndata: " + resp + "\n\n"))
		}
	})
	return srv
}

func TestHTTPBodyAndStreamChecks(t *testing.T) {
	for how, code := range map[string]mcpclient.ProblemCode{
		"json-as-sse":  mcpclient.CodeHTTPContentType,
		"sse-as-json":  mcpclient.CodeHTTPContentType,
		"wrong-stream": mcpclient.CodeHTTPWrongStream,
	} {
		t.Run(how, func(t *testing.T) {
			s := startHTTP(t, mcpclient.Config{URL: sloppy(t, how).URL, Timeout: 2 * time.Second})
			ctx := context.Background()
			if _, err := s.c.Connect(ctx); err != nil {
				t.Fatal(err)
			}
			s.c.ListTools(ctx)
			found := false
			for _, ev := range s.close() {
				for _, p := range ev.Problems {
					found = found || p.Code == code
				}
			}
			if !found {
				t.Errorf("no %s problem", code)
			}
		})
	}
}

func TestHTTPOversizeJSONBody(t *testing.T) {
	s := startHTTP(t, mcpclient.Config{URL: sloppy(t, "huge").URL, MaxMessage: 300})
	ctx := context.Background()
	if _, err := s.c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	_, _, err := s.c.ListTools(ctx)
	var oe *mcpclient.OversizeError
	if !errors.As(err, &oe) || oe.Limit != 300 {
		t.Fatalf("tools/list: %v, want an OversizeError", err)
	}
	if n := count(s.close(), mcpclient.ServerToClient, mcpclient.KindOversize, ""); n != 1 {
		t.Errorf("%d oversize events", n)
	}
}
