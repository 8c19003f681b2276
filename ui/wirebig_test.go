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
)

// bigFrame is a tools/call response whose text is n bytes of x (case B03).
func bigFrame(seq uint64, n int) mcpclient.Event {
	raw := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", n) + `"}]}}` + "\n"
	return ev(seq, mcpclient.ServerToClient, raw)
}

// bigToolsFrame is a tools/list response of 400 tools with 300-character descriptions
// (about 150 KB on one line, case B03).
func bigToolsFrame(seq uint64) mcpclient.Event {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":2,"result":{"tools":[`)
	for i := 0; i < 400; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":"filler","description":"` + strings.Repeat("d", 300) + `","inputSchema":{"type":"object","properties":{}}}`)
	}
	b.WriteString("]}}\n")
	return ev(seq, mcpclient.ServerToClient, b.String())
}

// wireWith opens the wire pane on a small session followed by big, with the first event
// selected (so selecting big is a keypress away).
func wireWith(tb testing.TB, big mcpclient.Event) *model {
	m := newTestModel(tb, nil, 140, 40)
	drive(tb, m, eventsMsg{events: []mcpclient.Event{ev(1, mcpclient.Stderr, "starting\n"), big}})
	keys(tb, m, "3", "g")
	_ = view(m)
	return m
}

// BenchmarkWireSelectBigFrame selects a 5 MiB frame and draws the screen (case B03).
func BenchmarkWireSelectBigFrame(b *testing.B) {
	big := bigFrame(2, 5<<20)
	m := wireWith(b, big)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		keys(b, m, "j")
		_ = view(m)
		b.StopTimer()
		keys(b, m, "k")
		_ = view(m)
		b.StartTimer()
	}
}

// BenchmarkWireKeyOnBigFrame is a keypress (scroll the detail) with a 5 MiB frame selected.
func BenchmarkWireKeyOnBigFrame(b *testing.B) {
	m := wireWith(b, bigFrame(2, 5<<20))
	keys(b, m, "j")
	_ = view(m)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		keys(b, m, "]")
		_ = view(m)
	}
}

// TestWireBigFrameIsFast: selecting a 5 MiB frame and a 150 KB tools/list draws a bounded
// preview, and keys that keep the selection do not draw the frame again. The clock bounds
// are generous (a loaded CI machine): they catch drawing the whole frame (tens of seconds),
// not milliseconds; BenchmarkWireSelectBigFrame and BenchmarkWireKeyOnBigFrame measure it.
func TestWireBigFrameIsFast(t *testing.T) {
	for _, big := range []mcpclient.Event{bigFrame(2, 5<<20), bigToolsFrame(2)} {
		m := wireWith(t, big)
		start := time.Now()
		keys(t, m, "j")
		out := view(m)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("selecting a %d-byte frame took %v", big.Size, d)
		}
		if m.wire.selected().seq != 2 {
			t.Fatalf("selected #%d", m.wire.selected().seq)
		}
		mustContain(t, "big frame", out, "showing the first 64.0K of", "a shows all (up to 16.0M) · w saves the frame to .")
		renders := m.wire.renders
		start = time.Now()
		keys(t, m, "]", "]", "[", "G", "p", "?", "?")
		_ = view(m)
		if m.wire.renders != renders {
			t.Errorf("keys that keep the selection drew the frame again (%d → %d renders)", renders, m.wire.renders)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("7 keys on a big frame took %v", d)
		}
	}
}

// findMsg runs cmd (and the commands of a batch) and returns the first message of type T.
func findMsg[T any](cmd tea.Cmd) (T, bool) {
	var zero T
	if cmd == nil {
		return zero, false
	}
	switch msg := cmd().(type) {
	case T:
		return msg, true
	case tea.BatchMsg:
		for _, c := range msg {
			if m, ok := findMsg[T](c); ok {
				return m, true
			}
		}
	}
	return zero, false
}

// "a" draws the whole frame (once) and back; "w" writes the exact bytes to frames/ in the
// state directory and says where.
func TestWireShowAllAndSave(t *testing.T) {
	big := bigFrame(2, 200<<10)
	m := wireWith(t, big)
	m.c.hist.dir = t.TempDir()
	keys(t, m, "j")
	_ = view(m)
	preview := len(m.wire.detail.lines)
	keys(t, m, "a")
	out := view(m)
	mustContain(t, "shown in full", out, "showing all 200.1K (204874 bytes)", "a shows the preview again")
	if full := len(m.wire.detail.lines); full < 3*preview {
		t.Fatalf("show all drew %d lines, the preview %d", full, preview)
	}
	keys(t, m, "a")
	_ = view(m)
	if len(m.wire.detail.lines) != preview {
		t.Fatalf("a again: %d lines, want the preview's %d", len(m.wire.detail.lines), preview)
	}
	_, cmd := m.Update(keyMsg("w"))
	saved, ok := findMsg[frameSavedMsg](cmd)
	if !ok || saved.err != nil {
		t.Fatalf("w: %+v %v", saved, ok)
	}
	m.Update(saved)
	data, err := os.ReadFile(saved.path)
	if err != nil || !bytes.Equal(data, big.Raw) || filepath.Dir(saved.path) != filepath.Join(m.c.hist.dir, "frames") {
		t.Fatalf("saved %s: %d bytes, %v", saved.path, len(data), err)
	}
	mustContain(t, "saved note", view(m), "frame #2 saved to "+saved.path[:20])
}
