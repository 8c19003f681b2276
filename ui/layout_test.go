package ui

import (
	"fmt"
	"strings"
	"testing"
)

// Issue 27: however the split is set, at 80×24 (stacked) and 200×60 (side by side) the
// list and the detail keep their minimum, and together with the border they fill the body.
func TestSplitBounds(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {200, 60}} {
		r := computeLayout(sz[0], sz[1]).body
		for _, share := range []int{0, 1, splitMin, 33, 50, splitMax, 99, 100} {
			for _, n := range []int{0, 3, 200} {
				list, det, stacked := splitView(r, n, share, zoomNone)
				name := fmt.Sprintf("%dx%d share %d, %d items", sz[0], sz[1], share, n)
				if stacked != (sz[0] < wideTools) {
					t.Errorf("%s: stacked %v", name, stacked)
				}
				if stacked {
					if list.h < sideMinRows || det.h < sideMinRows || list.h+1+det.h != r.h || det.y != list.y+list.h+1 {
						t.Errorf("%s: list %+v detail %+v in %+v", name, list, det, r)
					}
				} else if list.w < sideMinCols || det.w < sideMinCols || list.w+1+det.w != r.w || det.x != list.w+1 {
					t.Errorf("%s: list %+v detail %+v in %+v", name, list, det, r)
				}
				if share >= splitMin && share <= splitMax {
					total, got, least := r.w-1, list.w, sideMinCols
					if stacked {
						total, got, least = r.h-1, list.h, sideMinRows
					}
					if want := max(total*share/100, least); got != want {
						t.Errorf("%s: the list takes %d cells, want %d", name, got, want)
					}
				}
			}
		}
	}
	// The wire list at 80×24 shows ten frames (seven before issue 27), and as many detail lines.
	m := wireWith(t, ev(1, 0, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"))
	m.resize(80, 24)
	if m.wire.list.h != 11 || m.wire.det.h != 10 {
		t.Errorf("wire at 80×24: list %+v detail %+v", m.wire.list, m.wire.det)
	}
}

// Issue 27: = gives the detail the whole pane, then the list, then both share it again;
// < and > move the split one step, within [splitMin, splitMax], for every pane.
func TestZoomAndSplitKeys(t *testing.T) {
	m := goldenModel(t, 80, 24)
	keys(t, m, "1")
	body := m.lay.body
	list0, det0 := m.tools.lr, m.tools.det
	keys(t, m, "=")
	if m.tools.det != body || m.tools.lr.h != 0 {
		t.Fatalf("zoom on the detail: list %+v detail %+v", m.tools.lr, m.tools.det)
	}
	v := view(m)
	if strings.Contains(v, " tools (") || !strings.Contains(v, "input schema") {
		t.Errorf("zoomed on the detail, the list still shows or the detail does not:\n%s", v)
	}
	if m.wire.det != body {
		t.Errorf("the wire pane is not zoomed with the rest: %+v", m.wire.det)
	}
	keys(t, m, "=")
	if m.tools.lr != body || m.tools.det.h != 0 {
		t.Fatalf("zoom on the list: list %+v detail %+v", m.tools.lr, m.tools.det)
	}
	if v := view(m); strings.Contains(v, "input schema") || strings.Count(v, "\n") != 23 {
		t.Errorf("zoomed on the list, the detail still shows:\n%s", v)
	}
	keys(t, m, "=")
	if m.tools.lr != list0 || m.tools.det != det0 {
		t.Fatalf("zoom off: list %+v detail %+v, want %+v %+v", m.tools.lr, m.tools.det, list0, det0)
	}

	keys(t, m, "3")
	before := m.wire.list.h
	keys(t, m, ">")
	if m.c.split != 60 || m.wire.list.h <= before || m.tools.lr.w != (body.w-1)*60/100 {
		t.Errorf("> from %d rows: split %d, wire list %d rows, tools list %d", before, m.c.split, m.wire.list.h, m.tools.lr.w)
	}
	keys(t, m, ">", ">", ">", ">")
	if m.c.split != splitMax {
		t.Errorf("the split went past %d: %d", splitMax, m.c.split)
	}
	for range 8 {
		keys(t, m, "<")
	}
	if m.c.split != splitMin || m.wire.list.h < sideMinRows {
		t.Errorf("the split went below %d: %d (wire list %+v)", splitMin, m.c.split, m.wire.list)
	}
	if !strings.Contains(m.flash.text, "split = 20") {
		t.Errorf("the status line does not say how to keep the split: %q", m.flash.text)
	}
}

// The settings file's split is the share at start (clamped to the bounds).
func TestSplitOption(t *testing.T) {
	m := connected(t, moreSession(), 200, 60, func(o *Options) { o.Split = 70 })
	r := m.lay.body
	if got, want := m.tools.lr.w, (r.w-1)*70/100; got != want {
		t.Errorf("split 70 at 200 columns: the tools list is %d wide, want %d", got, want)
	}
	m = connected(t, moreSession(), 200, 60, func(o *Options) { o.Split = 95 })
	if m.c.split != splitMax {
		t.Errorf("split 95 is kept as %d, want %d", m.c.split, splitMax)
	}
}

// Issue 27: zoomed on the detail, enter explores the selected tool's input schema (the
// JSON explorer of 3 Wire: the cursor's path under it, c copies the path, y the value);
// esc leaves it, and unzoomed enter calls the tool as before.
func TestToolsSchemaExplore(t *testing.T) {
	m := connected(t, moreSession(), 80, 24)
	m.c.hist.dir = t.TempDir()
	keys(t, m, "1", "=", "enter")
	if !m.tools.js.exploring() || m.call.form != nil {
		t.Fatalf("enter in the zoomed detail did not explore the schema (form %v):\n%s", m.call.form != nil, view(m))
	}
	mustContain(t, "exploring", view(m), "input schema", ".inputSchema")
	keys(t, m, "j", "j")
	clip, _ := copyKey(t, m, "Y")
	if clip != ".inputSchema.properties" {
		t.Errorf("Y copied %q", clip)
	}
	keys(t, m, "j")
	clip, _ = copyKey(t, m, "y")
	if clip != `{
  "type": "string"
}` {
		t.Errorf("y copied %q", clip)
	}
	keys(t, m, "esc")
	if m.tools.js.exploring() {
		t.Fatal("esc did not leave the schema")
	}
	keys(t, m, "=", "=", "enter")
	if m.tools.js.exploring() || m.focus != paneCall {
		t.Errorf("unzoomed, enter did not open the tool's form (focus %d)", m.focus)
	}
}
