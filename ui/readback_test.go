package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestReadBackSaveExact: W on a frame a live session read back from its redacted recording
// saves the bytes as recorded and says so (its exact bytes left memory); on a frame still in
// memory W saves the exact bytes.
func TestReadBackSaveExact(t *testing.T) {
	dir := t.TempDir()
	red, err := trace.NewRedactor(trace.RedactConfig{Env: []string{"API_KEY=sekrit-value-123"}})
	if err != nil {
		t.Fatal(err)
	}
	w, err := trace.Create(filepath.Join(dir, "live.jsonl"), trace.Header{Tool: "test"}, red)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	w.IndexEvents()
	mask := func(b []byte) []byte { out, _ := red.Bytes(b); return out }
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Title: "fake", HistoryDir: dir, ReadBack: w.EventBySeq, Redact: mask})
	m.now = func() time.Time { return t0 }
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	n := recentEvents + 10
	evs := make([]mcpclient.Event, n)
	for i := range evs {
		evs[i] = ev(uint64(i+1), mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"key sekrit-value-123"}}`+"\n")
		if err := w.Write(evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	m.Update(eventsMsg{events: evs})
	save := func(seq uint64) (note string, saved []byte) {
		t.Helper()
		if !m.wire.jump(seq) {
			t.Fatalf("#%d not on the wire", seq)
		}
		if cmd := m.loadShown(); cmd != nil {
			m.Update(cmd())
		}
		_, cmd := m.Update(keyMsg("W"))
		if cmd == nil {
			t.Fatalf("W on #%d saved nothing", seq)
		}
		msg, ok := cmd().(frameSavedMsg)
		if !ok || msg.err != nil {
			t.Fatalf("W on #%d: %#v", seq, msg)
		}
		b, err := os.ReadFile(msg.path)
		if err != nil {
			t.Fatal(err)
		}
		return msg.note, b
	}
	keys(t, m, "3")
	if !m.tl.readBack(0) || m.tl.readBack(n-1) {
		t.Fatalf("read back: first %v, last %v; want the first only", m.tl.readBack(0), m.tl.readBack(n-1))
	}
	note, b := save(1)
	if !strings.Contains(note, "as recorded, secrets masked") || bytes.Contains(b, []byte("sekrit")) {
		t.Errorf("W on a frame read back: note %q, saved %q", note, b)
	}
	note, b = save(uint64(n))
	if !strings.Contains(note, "exact, secrets included") || !bytes.Contains(b, []byte("sekrit-value-123")) {
		t.Errorf("W on a frame in memory: note %q, saved %q", note, b)
	}
}
