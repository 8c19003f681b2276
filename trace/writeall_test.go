package trace_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// writeCounter keeps what is written and counts the writes.
type writeCounter struct {
	bytes.Buffer
	writes int
}

func (c *writeCounter) Write(b []byte) (int, error) {
	c.writes++
	return c.Buffer.Write(b)
}

// TestWriteAllMatchesWrite holds a run written at once (WriteAll, as a recorder fed by
// Config.OnEvents writes) to the same events written one by one: the same file byte for
// byte (big frames, invalid UTF-8, secrets, lifecycle events among them), one write for a
// run of small frames, and a big frame's pieces after what came before it.
func TestWriteAllMatchesWrite(t *testing.T) {
	start := time.Now()
	big := []byte(`{"jsonrpc":"2.0","id":9,"result":{"text":"` + strings.Repeat("é", 700_000) + `"}}` + "\n")
	evs := []mcpclient.Event{
		benchEvent(1, start.Add(time.Millisecond)),
		{Seq: 2, Time: start.Add(2 * time.Millisecond), Dir: mcpclient.ClientToServer, Kind: mcpclient.KindRequest, Raw: []byte(`{"jsonrpc":"2.0","id":2,"method":"x","params":{"token":"` + b25Token + `"}}` + "\n")},
		{Seq: 3, Time: start.Add(3 * time.Millisecond), Dir: mcpclient.ServerToClient, Kind: mcpclient.KindNotJSON, Raw: []byte("\xff\xfe bad\n")},
		{Seq: 4, Time: start.Add(4 * time.Millisecond), Dir: mcpclient.Lifecycle, Kind: mcpclient.KindLifecycle, Life: &mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: "password " + b25Password}},
		{Seq: 5, Time: start.Add(5 * time.Millisecond), Dir: mcpclient.ServerToClient, Kind: mcpclient.KindResponse, Raw: big, Size: int64(len(big))},
		benchEvent(6, start.Add(6*time.Millisecond)),
		benchEvent(7, start.Add(7*time.Millisecond)),
	}
	red := mustRedactor(t, trace.RedactConfig{Env: []string{"GITHUB_PERSONAL_ACCESS_TOKEN=" + b25Token, "DEMO_PASSWORD=" + b25Password}})
	h := trace.Header{Tool: "test", Start: start}
	var one, all writeCounter
	w1, err := trace.NewWriter(&one, h, red)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if err := w1.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	w2, err := trace.NewWriter(&all, h, red)
	if err != nil {
		t.Fatal(err)
	}
	headerWrites := all.writes
	if err := w2.WriteAll(evs[:3]); err != nil {
		t.Fatal(err)
	}
	if got := all.writes - headerWrites; got != 1 {
		t.Errorf("a run of 3 small events took %d writes, want 1", got)
	}
	if err := w2.WriteAll(evs[3:]); err != nil { // a small one, the big one, two small ones
		t.Fatal(err)
	}
	if !bytes.Equal(one.Bytes(), all.Bytes()) {
		t.Fatalf("WriteAll wrote %d bytes that differ from Write's %d", all.Len(), one.Len())
	}
	e1, b1 := w1.Count()
	e2, b2 := w2.Count()
	if e1 != e2 || b1 != b2 {
		t.Errorf("counts: WriteAll %d events %d bytes, Write %d events %d bytes", e2, b2, e1, b1)
	}
}
