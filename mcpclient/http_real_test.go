package mcpclient_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// httpSession starts a client on url and collects its events; Close waits for all of them.
type httpSession struct {
	c    *mcpclient.Client
	mu   sync.Mutex
	evs  []mcpclient.Event
	done chan struct{}
}

func startHTTP(t *testing.T, cfg mcpclient.Config) *httpSession {
	t.Helper()
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Second
	}
	c, err := mcpclient.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := &httpSession{c: c, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for ev := range c.Events() {
			s.mu.Lock()
			s.evs = append(s.evs, ev)
			s.mu.Unlock()
		}
	}()
	t.Cleanup(func() { c.Close() })
	return s
}

// close ends the session and returns every event.
func (s *httpSession) close() []mcpclient.Event {
	s.c.Close()
	<-s.done
	return s.evs
}

func warnings(evs []mcpclient.Event) []string {
	var out []string
	for _, ev := range evs {
		for _, p := range ev.Problems {
			if p.Severity == mcpclient.Warning {
				out = append(out, string(p.Code)+": "+p.Text)
			}
		}
	}
	return out
}

func count(evs []mcpclient.Event, dir mcpclient.Direction, kind mcpclient.Kind, contains string) int {
	n := 0
	for _, ev := range evs {
		if ev.Dir == dir && ev.Kind == kind && strings.Contains(strings.ToLower(string(ev.Raw)), strings.ToLower(contains)) {
			n++
		}
	}
	return n
}

func TestHTTPServerEverythingStreamable(t *testing.T) {
	srv := testservers.ServerEverythingHTTP(t)
	s := startHTTP(t, mcpclient.Config{URL: srv.URL})
	ctx := context.Background()
	res, err := s.c.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo.Name != "mcp-servers/everything" {
		t.Fatalf("initialize: %+v", res)
	}
	if s.c.SessionID() == "" || s.c.TransportKind() != mcpclient.TransportHTTP || s.c.URL() != srv.URL {
		t.Errorf("session %q, transport %q, url %q", s.c.SessionID(), s.c.TransportKind(), s.c.URL())
	}
	tools, _, err := s.c.ListTools(ctx)
	if err != nil || len(tools) == 0 {
		t.Fatalf("tools/list: %v %d", err, len(tools))
	}
	out, _, err := s.c.CallTool(ctx, "get-sum", json.RawMessage(`{"a":2,"b":40}`))
	if err != nil || !strings.Contains(textOf(out), "42") {
		t.Fatalf("get-sum: %+v %v", out, err)
	}
	out, _, err = s.c.CallTool(ctx, "trigger-long-running-operation", json.RawMessage(`{"duration":1,"steps":3}`))
	if err != nil || out.IsError {
		t.Fatalf("long-running: %+v %v", out, err)
	}
	evs := s.close()
	if w := warnings(evs); len(w) > 0 {
		t.Errorf("warnings: %q", w)
	}
	if n := count(evs, mcpclient.ServerToClient, mcpclient.KindNotification, "notifications/progress"); n < 3 {
		t.Errorf("%d progress notifications, want 3", n)
	}
	if count(evs, mcpclient.HTTPOut, mcpclient.KindHTTPRequest, "Mcp-Session-Id: ") == 0 {
		t.Errorf("no request carried Mcp-Session-Id")
	}
	if count(evs, mcpclient.HTTPOut, mcpclient.KindHTTPRequest, "DELETE ") != 1 {
		t.Errorf("no DELETE on close")
	}
	if count(evs, mcpclient.HTTPIn, mcpclient.KindSSEFrame, "data: ") == 0 {
		t.Errorf("no SSE frames")
	}
	if count(evs, mcpclient.HTTPOut, mcpclient.KindHTTPRequest, "MCP-Protocol-Version: 2025-11-25") == 0 {
		t.Errorf("no MCP-Protocol-Version header")
	}
}

func TestHTTPGoEverythingStateful(t *testing.T) {
	srv := testservers.GoEverythingHTTP(t, false)
	s := startHTTP(t, mcpclient.Config{URL: srv.URL})
	ctx := context.Background()
	if _, err := s.c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	out, _, err := s.c.CallTool(ctx, "test_simple_text", json.RawMessage(`{}`))
	if err != nil || out.IsError || textOf(out) == "" {
		t.Fatalf("test_simple_text: %+v %v", out, err)
	}
	evs := s.close()
	if w := warnings(evs); len(w) > 0 {
		t.Errorf("warnings: %q", w)
	}
	if count(evs, mcpclient.HTTPOut, mcpclient.KindHTTPRequest, "Mcp-Session-Id: ") == 0 {
		t.Errorf("no request carried Mcp-Session-Id")
	}
}

func TestHTTPGoEverythingModern(t *testing.T) {
	srv := testservers.GoEverythingHTTP(t, true)
	s := startHTTP(t, mcpclient.Config{URL: srv.URL, Era: mcpclient.EraModern})
	ctx := context.Background()
	res, err := s.c.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Era != mcpclient.EraModern {
		t.Fatalf("era %s", res.Era)
	}
	if _, _, err := s.c.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	out, _, err := s.c.CallTool(ctx, "test_simple_text", json.RawMessage(`{}`))
	if err != nil || out.IsError || textOf(out) == "" {
		t.Fatalf("test_simple_text: %+v %v", out, err)
	}
	evs := s.close()
	if w := warnings(evs); len(w) > 0 {
		t.Errorf("warnings: %q", w)
	}
	for _, want := range []string{"Mcp-Method: server/discover", "Mcp-Method: tools/call", "Mcp-Name: test_simple_text", "Mcp-Protocol-Version: 2026-07-28"} {
		if count(evs, mcpclient.HTTPOut, mcpclient.KindHTTPRequest, want) == 0 {
			t.Errorf("no request carried %q", want)
		}
	}
	if count(evs, mcpclient.HTTPOut, mcpclient.KindHTTPRequest, "GET ") != 0 || count(evs, mcpclient.HTTPOut, mcpclient.KindHTTPRequest, "DELETE ") != 0 {
		t.Errorf("a modern session sent GET or DELETE")
	}
}

func TestHTTPServerEverythingSSE(t *testing.T) {
	srv := testservers.ServerEverythingSSE(t)
	s := startHTTP(t, mcpclient.Config{URL: srv.URL, Transport: mcpclient.TransportSSE})
	ctx := context.Background()
	if _, err := s.c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	out, _, err := s.c.CallTool(ctx, "get-sum", json.RawMessage(`{"a":2,"b":40}`))
	if err != nil || !strings.Contains(textOf(out), "42") {
		t.Fatalf("get-sum: %+v %v", out, err)
	}
	evs := s.close()
	if w := warnings(evs); len(w) > 0 {
		t.Errorf("warnings: %q", w)
	}
	if count(evs, mcpclient.HTTPIn, mcpclient.KindSSEFrame, "event: endpoint") != 1 {
		t.Errorf("no endpoint frame")
	}
}

func TestHTTPModernListenStream(t *testing.T) {
	srv := testservers.GoEverythingHTTP(t, true)
	s := startHTTP(t, mcpclient.Config{URL: srv.URL, Era: mcpclient.EraModern})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := s.c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.c.Listen(ctx, mcpclient.ListenFilter{ToolsListChanged: true})
		done <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.mu.Lock()
		n := count(s.evs, mcpclient.ServerToClient, mcpclient.KindNotification, "notifications/subscriptions/acknowledged")
		s.mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no notifications/subscriptions/acknowledged on the listen stream")
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case err := <-done:
		t.Fatalf("the listen stream ended at once: %v", err)
	default:
	}
	cancel()
	<-done
	evs := s.close()
	if count(evs, mcpclient.HTTPOut, mcpclient.KindHTTPRequest, "Mcp-Method: subscriptions/listen") != 1 {
		t.Error("no Mcp-Method: subscriptions/listen POST")
	}
}

// connectHTTP is startHTTP with the handshake done (the test fails if it fails).
func connectHTTP(t *testing.T, cfg mcpclient.Config) *httpSession {
	t.Helper()
	s := startHTTP(t, cfg)
	if _, err := s.c.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// handshake answers what a fake server's test does not look at: a notification with 202,
// initialize with a server of tools. It reports whether it answered m.
func handshake(w http.ResponseWriter, m testservers.RPC) bool {
	switch {
	case m.ID == nil:
		w.WriteHeader(http.StatusAccepted)
	case m.Method == "initialize":
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"x","version":"1"}}}`))
	default:
		return false
	}
	return true
}
