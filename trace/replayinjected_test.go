package trace_test

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestReplayTapAnswered: a request a tap answered itself in the recording (its answer
// marked injected) is replayed but not compared: the recorded server never had it, so the
// new server's answer has nothing to differ from. Unmarked, the same answer differs.
func TestReplayTapAnswered(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		written mcpclient.NoteCond
		skipped bool
	}{{mcpclient.NoteInjected, true}, {"", false}} {
		path := filepath.Join(t.TempDir(), "tap.jsonl")
		c2s, s2c := mcpclient.ClientToServer, mcpclient.ServerToClient
		answer := msg(s2c, `{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"no"}}`+"\n")
		answer.Written = c.written
		writeTrace(t, path, trace.Header{}, []mcpclient.Event{
			msg(c2s, initReq), msg(s2c, initResp), msg(c2s, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"),
			msg(c2s, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`+"\n"),
			answer,
		})
		rep := replay(t, openTrace(t, path), fakeConfig(t, "minimal"))
		text := reportText(rep)
		if got := rep.Skipped == 1 && strings.Contains(text, "answered by the tap in the recording"); got != c.skipped {
			t.Errorf("written %q: skipped as the tap's answer %v, want %v:\n%s", c.written, got, c.skipped, text)
		}
		if !c.skipped && !strings.Contains(text, "DIFFERS  tools/call echo") {
			t.Errorf("unmarked: want the recorded error to differ from the echo:\n%s", text)
		}
	}
}

// writeTrace writes a trace of the given frames (one event each, 1 ms apart) at path.
func writeTrace(t *testing.T, path string, h trace.Header, evs []mcpclient.Event) {
	t.Helper()
	w, err := trace.Create(path, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now()
	for i, ev := range evs {
		ev.Seq, ev.Time = uint64(i+1), at.Add(time.Duration(i)*time.Millisecond)
		if ev.Size == 0 {
			ev.Size = int64(len(ev.Raw))
		}
		if err := w.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

const (
	initReq  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"host","version":"0"}}}` + "\n"
	initResp = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"0"}}}` + "\n"
)

func msg(dir mcpclient.Direction, raw string) mcpclient.Event {
	return mcpclient.Event{Dir: dir, Raw: []byte(raw)}
}

// TestReplayReusedID: a request whose id the recorded client used again after its answer
// is replayed too (only a copy written while the first was unanswered replaces it), and
// both are compared.
func TestReplayReusedID(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "reuse.jsonl")
	c2s, s2c := mcpclient.ClientToServer, mcpclient.ServerToClient
	writeTrace(t, path, trace.Header{}, []mcpclient.Event{
		msg(c2s, initReq), msg(s2c, initResp), msg(c2s, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"),
		msg(c2s, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"first"}}}`+"\n"),
		msg(s2c, `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"first"}]}}`+"\n"),
		msg(c2s, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"second"}}}`+"\n"),
		msg(s2c, `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"second"}]}}`+"\n"),
	})
	rep := replay(t, openTrace(t, path), fakeConfig(t, "minimal"), "initialize:$.result.serverInfo")
	calls := 0
	for _, it := range rep.Items {
		if it.Method == "tools/call" && it.Status == trace.StatusSame {
			calls++
		}
	}
	if calls != 2 {
		t.Errorf("%d tools/call compared the same, want both:\n%s", calls, reportText(rep))
	}
}

// TestReplayHTTPTraceToStdio: a trace of an HTTP session replayed to a stdio server sends
// its messages, not the HTTP requests that carried them, and has no server exit to
// compare (the recorded end is the session's).
func TestReplayHTTPTraceToStdio(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "http.jsonl")
	c2s, s2c := mcpclient.ClientToServer, mcpclient.ServerToClient
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
	writeTrace(t, path, trace.Header{Transport: "http", URL: "http://127.0.0.1:1/mcp"}, []mcpclient.Event{
		msg(c2s, strings.TrimSpace(initReq)), msg(s2c, strings.TrimSpace(initResp)),
		msg(c2s, call),
		{Dir: mcpclient.HTTPOut, Kind: mcpclient.KindHTTPRequest, Raw: []byte("POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\n\r\n" + call)},
		{Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPResponse, Raw: []byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n")},
		msg(s2c, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}]}}`),
		{Dir: mcpclient.Lifecycle, Kind: mcpclient.KindLifecycle, Life: &mcpclient.LifeInfo{Kind: mcpclient.LifeExited, Text: "HTTP tap ended"}},
	})
	cfg := fakeConfig(t, "minimal")
	var mu sync.Mutex
	var sent []string
	cfg.OnEvent = func(ev mcpclient.Event) {
		if ev.Dir == mcpclient.ClientToServer {
			mu.Lock()
			sent = append(sent, string(ev.Raw))
			mu.Unlock()
		}
	}
	rep := replay(t, openTrace(t, path), cfg, "initialize:$.result.serverInfo")
	text := reportText(rep)
	if !rep.OK() || strings.Contains(text, "server exit") || rep.Same != 2 {
		t.Errorf("want initialize and tools/call the same, nothing else:\n%s", text)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range sent {
		if strings.Contains(s, "HTTP/1.1") {
			t.Errorf("the stdio server was sent HTTP: %q", s)
		}
	}
}
