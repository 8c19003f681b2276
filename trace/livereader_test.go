package trace_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestWriterEventBySeq reads events back from a recording still being written, as a live
// session's UI does once they left its memory: each one as Trace.EventBySeq would read it
// from the finished file (classified, redacted as recorded), Seqs with a gap included; an
// event written before IndexEvents, an unknown Seq and a closed recording are errors.
func TestWriterEventBySeq(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	red := mustRedactor(t, trace.RedactConfig{Env: []string{"API_KEY=sekrit-value-123"}})
	w, err := trace.Create(dir+"/live.jsonl", trace.Header{Tool: "t"}, red)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	msg := func(seq uint64, text string) mcpclient.Event {
		raw := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":%q}}`+"\n", text))
		return mcpclient.Event{Seq: seq, Time: now, Dir: mcpclient.ServerToClient, Raw: raw, Size: int64(len(raw))}
	}
	w.Write(msg(1, "before the index"))
	w.IndexEvents()
	for _, seq := range []uint64{2, 3, 5, 6} {
		w.Write(msg(seq, fmt.Sprintf("event %d", seq)))
	}
	w.Write(msg(7, "key sekrit-value-123"))
	for _, seq := range []uint64{6, 2, 5, 3} {
		ev, err := w.EventBySeq(seq)
		if err != nil {
			t.Fatalf("#%d: %v", seq, err)
		}
		want := fmt.Sprintf(`"data":"event %d"`, seq)
		if ev.Seq != seq || !strings.Contains(string(ev.Raw), want) || ev.Kind != mcpclient.KindNotification || ev.Msg == nil || ev.Msg.Method != "notifications/message" {
			t.Errorf("#%d read back as #%d %v %q (msg %v), want the notification holding %s", seq, ev.Seq, ev.Kind, ev.Raw, ev.Msg != nil, want)
		}
	}
	ev, err := w.EventBySeq(7)
	if err != nil || strings.Contains(string(ev.Raw), "sekrit") || !strings.Contains(string(ev.Raw), "***") {
		t.Errorf("#7 read back as %q, %v: want it redacted as recorded", ev.Raw, err)
	}
	// An event the recording has not reached yet is waited for.
	got := make(chan mcpclient.Event, 1)
	go func() {
		ev, err := w.EventBySeq(9)
		if err != nil {
			t.Errorf("#9 written after it was asked for: %v", err)
		}
		got <- ev
	}()
	time.Sleep(20 * time.Millisecond)
	w.Write(msg(9, "event 9"))
	if ev := <-got; !strings.Contains(string(ev.Raw), `"data":"event 9"`) {
		t.Errorf("#9 read back as %q", ev.Raw)
	}
	for _, seq := range []uint64{1, 4, 8} {
		if _, err := w.EventBySeq(seq); err == nil {
			t.Errorf("#%d read back, want an error", seq)
		}
	}
	// What is read back is what the finished file holds.
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.EventBySeq(2); err == nil {
		t.Error("read back after Close")
	}
	tr := openTrace(t, dir+"/live.jsonl")
	if got, err := tr.EventBySeq(7); err != nil || string(got.Raw) != string(ev.Raw) {
		t.Errorf("the finished trace holds %q, %v; read back live %q", got.Raw, err, ev.Raw)
	}
	var nw countingWriter
	w2, _ := trace.NewWriter(&nw, trace.Header{}, nil)
	w2.IndexEvents()
	w2.Write(msg(1, "x"))
	if _, err := w2.EventBySeq(1); err == nil {
		t.Error("EventBySeq without a file succeeded")
	}
}
