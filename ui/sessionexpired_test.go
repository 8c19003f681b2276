package ui

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// expiringSession is a fake HTTP session: its id changes with each Connect, and tools/list
// answers 404 (SessionExpiredError) to session s-1.
type expiringSession struct {
	*fakeSession
	emu      sync.Mutex
	sessions int
}

func (f *expiringSession) Connect(ctx context.Context) (*mcpclient.InitializeResult, error) {
	f.emu.Lock()
	f.sessions++
	f.emu.Unlock()
	return f.fakeSession.Connect(ctx)
}

func (f *expiringSession) SessionID() string {
	f.emu.Lock()
	defer f.emu.Unlock()
	return "s-" + string(rune('0'+f.sessions))
}

func (f *expiringSession) ListTools(ctx context.Context) ([]mcpclient.Tool, []string, error) {
	if f.SessionID() == "s-1" {
		return nil, nil, &mcpclient.SessionExpiredError{SessionID: "s-1", Request: "tools/list"}
	}
	return f.fakeSession.ListTools(ctx)
}

// A 404 on the session id opens the session-expired prompt; enter initializes a new
// session on the same client and lists again, and the status bar and Server pane show the
// new id. esc keeps the expired session closed.
func TestSessionExpiredOffersANewSession(t *testing.T) {
	s := &expiringSession{fakeSession: greetSession()}
	m := newTestModel(t, s, 140, 30)
	exec(t, m, handshake(m.ctx, m.sender()), 0)
	out := view(m)
	mustContain(t, "expired prompt", out, "session expired (HTTP 404 on session s-1)", "enter: initialize a new session", "esc: keep this one closed")
	if !strings.Contains(m.statusBar(), "session s-1 expired") {
		t.Errorf("status bar: %q", m.statusBar())
	}
	keys(t, m, "enter")
	if m.overlay.front() != nil {
		t.Fatal("the prompt stayed open")
	}
	if m.state().SessionID != "s-2" || !strings.Contains(m.statusBar(), "session s-2") {
		t.Errorf("new session: %q, status %q", m.state().SessionID, m.statusBar())
	}
	if len(m.tools.tools) != 2 {
		t.Errorf("the tools were not listed in the new session: %d", len(m.tools.tools))
	}
	keys(t, m, "4")
	mustContain(t, "server pane", view(m), "session: s-2 (Mcp-Session-Id)")

	// esc leaves it closed, and says so.
	m = newTestModel(t, &expiringSession{fakeSession: greetSession()}, 140, 30)
	exec(t, m, handshake(m.ctx, m.sender()), 0)
	keys(t, m, "esc")
	if m.overlay.front() != nil || m.state().Expired != "s-1" {
		t.Fatalf("esc: front %v, expired %q", m.overlay.front(), m.state().Expired)
	}
	mustContain(t, "after esc", view(m), "expired and stays closed")
}

// expiringServer is a Streamable HTTP server whose sessions answer 404 after n requests
// (initialize and notifications not counted), as a server that forgot the session would.
func expiringServer(t *testing.T, n int) *httptest.Server {
	var mu sync.Mutex
	sessions := 0
	used := map[string]int{}
	srv := testservers.FakeHTTP(t, func(w http.ResponseWriter, r *http.Request, msg testservers.RPC) {
		mu.Lock()
		defer mu.Unlock()
		sid := r.Header.Get("Mcp-Session-Id")
		w.Header().Set("Content-Type", "application/json")
		switch {
		case msg.Method == "initialize":
			sessions++
			w.Header().Set("Mcp-Session-Id", fmt.Sprintf("s-%d", sessions))
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"expiring","version":"1"}}}`))
		case msg.ID == nil:
			w.WriteHeader(http.StatusAccepted)
		case used[sid] >= n:
			http.Error(w, "no such session", http.StatusNotFound)
		default:
			used[sid]++
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}`))
		}
	})
	return srv
}

// End to end on a real client: the session answers 404 after one tools/list; r lists again,
// the prompt opens, enter starts session s-2 on the same client and the tools come back.
func TestSessionExpiredOverHTTP(t *testing.T) {
	srv := expiringServer(t, 1)
	l := startLive(t, nil, mcpclient.Config{URL: srv.URL, Timeout: 5 * time.Second}, Options{})
	l.until("the tools", func() bool { return len(l.m.tools.tools) == 1 }, 10*time.Second)
	if l.m.state().SessionID != "s-1" {
		t.Fatalf("session id %q", l.m.state().SessionID)
	}
	l.key("r")
	l.until("the prompt", func() bool { _, ok := l.m.overlay.front().(*expiredPrompt); return ok }, 10*time.Second)
	mustContain(t, "prompt", view(l.m), "session expired (HTTP 404 on session s-1)")
	l.key("enter")
	l.until("the new session", func() bool { return l.m.state().SessionID == "s-2" && len(l.m.tools.tools) == 1 }, 10*time.Second)
	if !strings.Contains(l.m.statusBar(), "session s-2") {
		t.Errorf("status bar: %q", l.m.statusBar())
	}
}

// An HTTP session has no process: the Server pane shows no "pid: 0".
func TestServerPaneNoPidOverHTTP(t *testing.T) {
	srv := expiringServer(t, 5)
	l := startLive(t, nil, mcpclient.Config{URL: srv.URL, Timeout: 5 * time.Second}, Options{})
	l.key("4")
	if out := view(l.m); strings.Contains(out, "pid:") || !strings.Contains(out, "session: s-1") {
		t.Errorf("server pane:\n%s", out)
	}
}

// R08 in the TUI: a server that says it forgot the session with a 400 and a JSON-RPC error
// (the TypeScript SDK's way) opens the prompt naming it; enter starts a new session and sends
// the tool call that failed again, once, and the result comes.
func TestDroppedSessionResendsTheCall(t *testing.T) {
	_, url := fake.HTTPServer(t, "http-session-400", fake.HTTPOptions{})
	l := startLive(t, nil, mcpclient.Config{URL: url, Timeout: 5 * time.Second}, Options{})
	l.until("the tools", func() bool { return len(l.m.tools.tools) == 1 }, 10*time.Second)
	l.key("enter") // echo's form
	l.typeText("hi")
	l.key("ctrl+s")
	l.until("the prompt", func() bool { _, ok := l.m.overlay.front().(*expiredPrompt); return ok }, 10*time.Second)
	mustContain(t, "prompt", view(l.m), "seems to have dropped session s1", "400 Bad Request", "MCP says 404", "send tools/call echo again (once)")
	l.key("enter")
	l.until("the call's second try", func() bool {
		r := l.m.call.run
		return l.m.state().SessionID == "s2" && r != nil && r.resent && r.done
	}, 10*time.Second)
	if r := l.m.call.run; r.err != nil || r.res == nil || len(r.res.Content) != 1 || r.res.Content[0].Text != "hi" {
		t.Fatalf("the call sent again: %+v, %v", r.res, r.err)
	}
	if n := len(l.m.call.calls); n != 2 {
		t.Errorf("%d calls, want the failed one and its one second try", n)
	}
}
