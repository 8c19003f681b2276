package ui

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/heappeak"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// padFrame is notification i of a flood: a frame of size bytes that names itself
// (mark-000001-) at its start, padded with x. It is a progress notification for no
// request: the Logs pane keeps the text of the notifications it lists (up to 12,500 of
// them, whatever their size), which is not what this measures.
func padFrame(i, size int) mcpclient.Event {
	head := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"mark-%06d-","progress":1,"message":"`, i)
	raw := make([]byte, 0, size)
	raw = append(raw, head...)
	for len(raw) < size-4 {
		raw = append(raw, 'x')
	}
	raw = append(raw, "\"}}\n"...)
	kind, msg, probs := mcpclient.Classify(raw)
	return mcpclient.Event{Seq: uint64(i), Time: t0.Add(time.Duration(i) * time.Millisecond), Dir: mcpclient.ServerToClient, Kind: kind, Msg: msg, Problems: probs, Raw: raw, Size: int64(len(raw))}
}

// TestNoSaveFloodBounded: a live session with no file (--no-save) keeps the bytes of its
// newest frames only, up to its bound, while a flood of 25 times that goes by: the bytes
// held never pass the bound, the heap stays far under the flood's size, every frame keeps
// its row, the wire pane says plainly how many earlier frames were dropped and why, a
// dropped frame's detail says its bytes are gone, and search finds kept frames only.
func TestNoSaveFloodBounded(t *testing.T) {
	const (
		bound  = 8 << 20
		size   = 64 << 10
		frames = 25 * bound / size // 200 MiB in all
		batch  = 64
	)
	m := connected(t, moreSession(), 160, 40, func(o *Options) { o.NoFile, o.NoFileBytes = "--no-save keeps no file", bound })
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	stop := heappeak.Start(time.Millisecond)
	var held uint64 // the most heap live after a GC, over the start, during the flood
	for b, i := 0, 1; i <= frames; b, i = b+1, i+batch {
		evs := make([]mcpclient.Event, 0, batch)
		for k := i; k < i+batch && k <= frames; k++ {
			evs = append(evs, padFrame(k, size))
		}
		m.Update(eventsMsg{events: evs})
		if m.tl.rawBytes > bound {
			t.Fatalf("after %d frames the timeline holds %d bytes of frames, over the %d bound", i+len(evs)-1, m.tl.rawBytes, bound)
		}
		if b%8 == 7 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			held = max(held, ms.HeapAlloc-min(ms.HeapAlloc, base))
		}
	}
	peak := stop()
	// The peak counts garbage the GC had not taken yet (how much depends on the heap
	// the other tests left): it is reported, the memory held is checked.
	t.Logf("%d frames of %d KiB: at most %d MiB held after a GC, heap peak %d MiB over the start; %d frames kept (%d MiB)",
		frames, size>>10, held>>20, (peak-min(peak, base))>>20, len(m.tl.raws), m.tl.rawBytes>>20)
	if held > 2*bound+8<<20 {
		t.Errorf("the heap held %d MiB during a flood of %d MiB; want it bounded by the %d MiB kept", held>>20, frames*size>>20, bound>>20)
	}
	if m.tl.len() != frames {
		t.Fatalf("%d rows for %d frames", m.tl.len(), frames)
	}
	dropped := frames - len(m.tl.raws)
	if m.tl.droppedFrames != dropped || m.tl.droppedBytes != int64(dropped*size) {
		t.Errorf("dropped %d frames (%d bytes); the timeline counts %d (%d bytes)", dropped, dropped*size, m.tl.droppedFrames, m.tl.droppedBytes)
	}
	keys(t, m, "3", "g")
	v := view(m)
	notice := fmt.Sprintf("--no-save keeps no file: %d earlier frames (%s) dropped, the newest 8.0M kept", dropped, humanSize(int64(dropped*size)))
	for _, want := range []string{notice, "this frame's bytes are gone"} {
		if !strings.Contains(v, want) {
			t.Errorf("the wire pane does not say %q:\n%s", want, v)
		}
	}
	keys(t, m, "G")
	if _, ok := m.tl.rawAt(m.tl.len() - 1); !ok || !strings.Contains(view(m), "raw bytes  (exact") {
		t.Errorf("the newest frame's bytes are not shown:\n%s", v)
	}
	m.wire.setQuery(fmt.Sprintf("mark-%06d-", frames))
	if len(m.wire.find.hits) != 1 {
		t.Errorf("search for the newest frame: %d hits", len(m.wire.find.hits))
	}
	m.wire.setQuery("mark-000001-")
	if len(m.wire.find.hits) != 0 {
		t.Errorf("search found a dropped frame: %v", m.wire.find.hits)
	}
}

// TestNoFileOffKeepsAll: without NoFile (and no read-back) every frame's bytes stay, and
// nothing is said about dropped frames.
func TestNoFileOffKeepsAll(t *testing.T) {
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Title: "fake"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	var evs []mcpclient.Event
	for i := 1; i <= 40; i++ {
		evs = append(evs, padFrame(i, 4<<10))
	}
	m.Update(eventsMsg{events: evs})
	if len(m.tl.raws) != 40 || m.tl.droppedFrames != 0 || m.tl.droppedNotice() != "" {
		t.Fatalf("kept %d of 40, dropped %d", len(m.tl.raws), m.tl.droppedFrames)
	}
}
