package trace_test

import (
	"path/filepath"
	"strings"
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
		w, err := trace.Create(path, trace.Header{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		at := time.Now()
		for i, f := range []struct {
			dir mcpclient.Direction
			raw string
		}{
			{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"host","version":"0"}}}`},
			{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"0"}}}`},
			{mcpclient.ClientToServer, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
			{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`},
			{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"no"}}`},
		} {
			ev := mcpclient.Event{Seq: uint64(i + 1), Time: at.Add(time.Duration(i) * time.Millisecond), Dir: f.dir, Raw: []byte(f.raw + "\n")}
			if i == 4 {
				ev.Written = c.written
			}
			if err := w.Write(ev); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
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
