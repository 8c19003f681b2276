package mcpclient_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	mcpsession "github.com/mcp-inspect/mcp-inspect/session"
)

// listenNotes are the texts of the GET stream's lifecycle notes, in order.
func listenNotes(evs []mcpclient.Event) []string {
	var out []string
	for _, ev := range evs {
		if ev.Life != nil && ev.Life.Kind == mcpclient.LifeNote && strings.HasPrefix(ev.Life.Text, mcpclient.ListenNote) {
			out = append(out, ev.Life.Text)
		}
	}
	return out
}

// answerRPC answers initialize and tools/list with JSON and notifications with 202.
func answerRPC(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	json.Unmarshal(body, &m)
	if m.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	result := `{"tools":[]}`
	if m.Method == "initialize" {
		w.Header().Set("Mcp-Session-Id", "s-1")
		result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"gone","version":"1"}}`
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + result + `}`))
}

// A server that ends its GET stream and then goes away (its port refuses): the wire tells
// that the stream ended and that the reconnection, with Last-Event-ID, was refused.
func TestHTTPListenStreamEndsThenRefused(t *testing.T) {
	var srv *httptest.Server
	gets := make(chan string, 4)
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			answerRPC(w, r)
			return
		}
		gets <- r.Header.Get("Last-Event-ID")
		// The server goes away: no new connection is accepted, and this one closes once
		// the stream ends.
		srv.Listener.Close()
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Connection", "close")
		w.Write([]byte("id: e1\nretry: 0\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"hi\"}}\n\n"))
	}))
	t.Cleanup(srv.Close)
	refused := make(chan struct{})
	s := startHTTP(t, mcpclient.Config{URL: srv.URL, Timeout: 5 * time.Second, OnEvent: func(ev mcpclient.Event) {
		if ev.Life != nil && strings.Contains(ev.Life.Text, "reconnect failed") {
			close(refused)
		}
	}})
	if _, err := s.c.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-refused:
	case <-time.After(20 * time.Second): // a guard against a hang, not a speed check
		t.Fatal("no reconnect-failed note")
	}
	evs := s.close()
	if got := <-gets; got != "" {
		t.Errorf("first GET sent Last-Event-ID %q", got)
	}
	notes := listenNotes(evs)
	want := []string{
		"GET stream: ended: EOF (the server closed the stream); reconnecting in 0s with Last-Event-ID e1",
		"GET stream: reconnect failed: connection refused; the server may be gone; requests will tell",
	}
	if strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
	// The lost stream is a typed condition on the note (what the session and the UI act
	// on), and only on the note that says the stream is gone; a session's state fed the real
	// events marks it lost.
	var st mcpsession.State
	for _, ev := range evs {
		if ev.Life == nil {
			continue
		}
		lost := strings.Contains(ev.Life.Text, "reconnect failed")
		if (ev.Life.Cond == mcpclient.NoteStreamLost) != lost {
			t.Errorf("note %q: cond %q", ev.Life.Text, ev.Life.Cond)
		}
		st.ObserveLife(ev.Life)
	}
	if !st.StreamLost {
		t.Error("the session state does not say the GET stream is lost")
	}
}

// 405 to the GET means the server offers no stream (MCP 2025-11-25 basic/transports): normal,
// so no note and no warning.
func TestHTTPListen405IsSilent(t *testing.T) {
	srv := testservers.FakeHTTP(t, func(w http.ResponseWriter, r *http.Request, m testservers.RPC) {
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		answerRPC(w, &http.Request{Body: io.NopCloser(strings.NewReader(string(m.Body)))})
	})
	s := startHTTP(t, mcpclient.Config{URL: srv.URL, Timeout: 5 * time.Second})
	ctx := context.Background()
	if _, err := s.c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.c.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	evs := s.close()
	if count(evs, mcpclient.HTTPOut, mcpclient.KindHTTPRequest, "GET ") == 0 {
		t.Fatal("no GET was sent")
	}
	if n := listenNotes(evs); len(n) != 0 {
		t.Errorf("notes after a 405 GET: %q", n)
	}
	if w := warnings(evs); len(w) != 0 {
		t.Errorf("warnings after a 405 GET: %q", w)
	}
}
