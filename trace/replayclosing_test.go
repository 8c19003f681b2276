package trace_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestReplayResponseAfterHostClosed: a host that closes stdin right after its last request
// (a one-shot client) is recorded by the tap as request, "host closed stdin", then the
// response. Replay counts that response: it sends nothing after the shutdown began, but
// reads on (it used to stop reading there and report the response as absent).
func TestReplayResponseAfterHostClosed(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "oneshot.jsonl")
	w, err := trace.Create(path, trace.Header{Tool: "mcp-inspect", Argv: []string{"fakeserver"}, Framing: "newline"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	seq := uint64(0)
	frame := func(dir mcpclient.Direction, raw string) {
		seq++
		kind, msg, probs := mcpclient.Classify([]byte(raw))
		w.Observe(mcpclient.Event{Seq: seq, Time: t0.Add(time.Duration(seq) * time.Millisecond), Dir: dir, Kind: kind, Msg: msg, Problems: probs, Raw: []byte(raw + "\n")})
	}
	life := func(l mcpclient.LifeInfo) {
		seq++
		w.Observe(mcpclient.Event{Seq: seq, Time: t0.Add(time.Duration(seq) * time.Millisecond), Dir: mcpclient.Lifecycle, Kind: mcpclient.KindLifecycle, Life: &l})
	}
	life(mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, PID: 7, Text: "started pid 7"})
	frame(mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"oneshot","version":"1"}}}`)
	life(mcpclient.LifeInfo{Kind: mcpclient.LifeShutdown, PID: 7, Text: "host closed stdin: closing the server's stdin"})
	frame(mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"demo-server","version":"0.0.1"}}}`)
	life(mcpclient.LifeInfo{Kind: mcpclient.LifeExited, PID: 7, Text: "server exited with code 0"})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rep := replay(t, openTrace(t, path), fakeConfig(t, "minimal"))
	if !rep.OK() || len(rep.Items) != 1 {
		t.Fatalf("the response recorded after the host closed stdin did not count:\n%s", reportText(rep))
	}
}
