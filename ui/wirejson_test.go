package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// jsonB64 is base64 data long enough to be cut (a PNG's first bytes, repeated).
var jsonB64 = strings.Repeat("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ", 8)

// jsonSession is a tools/call and its result: text, an image's base64, structuredContent.
func jsonSession() []mcpclient.Event {
	req := ev(1, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`+"\n")
	resp := ev(2, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Echo: hi"},{"type":"image","mimeType":"image/png","data":"`+jsonB64+`"}],"structuredContent":{"n":3,"ok":true,"none":null}}}`+"\n")
	resp.Pair, resp.Method = 1, "tools/call"
	return []mcpclient.Event{req, resp}
}

// themedModel is newTestModel with a theme of its own.
func themedModel(t testing.TB, theme string, w, h int) *model {
	t.Helper()
	m := newModel(Options{Tick: fakeTick, Theme: theme, Title: "fake-server --flag", Argv: []string{"fake-server", "--flag"}})
	m.now = func() time.Time { return t0.Add(1500 * time.Millisecond) }
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// pathShown is the jq path on the line under the focused JSON.
func pathShown(t *testing.T, m *model) string {
	t.Helper()
	if !m.wire.js.explore {
		t.Fatalf("the JSON has no focus:\n%s", view(m))
	}
	return m.wire.js.view.doc.path(m.wire.js.view.node())
}

// enter focuses the parsed JSON; the list keys move among its nodes, whose jq path is
// shown; space folds, z folds all, Z unfolds all, x shows base64 whole; esc gives the
// keys back to the list.
func TestWireJSONExplore(t *testing.T) {
	m := newTestModel(t, nil, 140, 40)
	drive(t, m, eventsMsg{events: jsonSession()})
	keys(t, m, "3", "enter")
	if p := pathShown(t, m); p != "." {
		t.Fatalf("the focus starts on %s, want the root", p)
	}
	mustContain(t, "path line", view(m), ".  enter/space folds · y/Y copy value/path")
	keys(t, m, "j", "j", "j", "j", "j", "j", "j")
	if p := pathShown(t, m); p != ".result.content[0].text" {
		t.Fatalf("7 rows down: %s", p)
	}
	mustContain(t, "path line", view(m), `.result.content[0].text  y/Y copy value/path`)
	if m.wire.sel != 1 {
		t.Fatalf("j moved the frame selection to %d while the JSON has the focus", m.wire.sel)
	}
	keys(t, m, "h", "space")
	if p := pathShown(t, m); p != ".result.content[0]" {
		t.Fatalf("h went to %s, want the parent", p)
	}
	mustContain(t, "folded block", view(m), `{…}, 2 keys`)
	if strings.Contains(view(m), `"text": "Echo: hi"`) {
		t.Fatal("a folded object still shows its members")
	}
	keys(t, m, "z")
	out := view(m)
	mustContain(t, "fold all", out, `"result": {…} 2 keys`, `  "jsonrpc": "2.0",`)
	if p := pathShown(t, m); p != ".result" {
		t.Fatalf("after z the cursor is on %s, want the top-level member it was in", p)
	}
	keys(t, m, "Z")
	out = view(m)
	mustContain(t, "unfold all", out, `"text": "Echo: hi"`, `"none": null`)
	// The base64 is cut to its line with its size; x shows it whole.
	keys(t, m, "j", "j", "j", "j", "j", "j", "j", "j", "j")
	if p := pathShown(t, m); p != ".result.content[1].data" {
		t.Fatalf("on %s, want the image data", p)
	}
	mustContain(t, "cut base64", view(m), "(base64, 352B)", "x shows it whole")
	rows := m.wire.js.view.len()
	keys(t, m, "x")
	if m.wire.js.view.len() < rows+3 {
		t.Fatalf("x: %d rows, before %d", m.wire.js.view.len(), rows)
	}
	mustContain(t, "expanded", view(m), jsonB64[300:330], "x cuts it")
	var help []string
	for _, b := range m.panes[paneWire].bindings() {
		help = append(help, b.Help().Desc)
	}
	mustContain(t, "help while the JSON has the focus", strings.Join(help, "\n"), m.c.keys.JSON.FoldAll.Help().Desc, m.c.keys.JSON.CopyPath.Help().Desc, m.c.keys.List.Down.Help().Desc)
	keys(t, m, "esc")
	if m.wire.js.explore {
		t.Fatal("esc left the focus in the JSON")
	}
	keys(t, m, "k")
	if m.wire.sel != 0 {
		t.Fatalf("after esc k selects row %d, want the request", m.wire.sel)
	}
	if strings.Contains(view(m), "y/Y copy value/path") {
		t.Fatal("the path line stays after esc")
	}
}

// Y copies the selected node's jq path, y its value (a string decoded, an object
// indented), through OSC 52 and the clipboard file; a value the preview cut is refused.
func TestWireJSONCopy(t *testing.T) {
	m := newTestModel(t, nil, 140, 40)
	m.c.hist.dir = t.TempDir()
	drive(t, m, eventsMsg{events: jsonSession()})
	keys(t, m, "3", "enter", "j", "j", "j", "j", "j", "j", "j")
	clip, copied := copyKey(t, m, "Y")
	if clip != ".result.content[0].text" {
		t.Fatalf("Y copied %q", clip)
	}
	if copied.what != "the path .result.content[0].text (23B" || copied.path != filepath.Join(m.c.hist.dir, clipboardFile) {
		t.Fatalf("Y: %q to %q", copied.what, copied.path)
	}
	mustContain(t, "status", view(m), "copied the path .result.content[0].text (23B) to the clipboard (OSC 52) and")
	clip, copied = copyKey(t, m, "y")
	if clip != "Echo: hi" || !strings.Contains(copied.what, "the value at .result.content[0].text") {
		t.Fatalf("y copied %q (%s)", clip, copied.what)
	}
	if data, err := os.ReadFile(copied.path); err != nil || string(data) != "Echo: hi" {
		t.Fatalf("the clipboard file holds %q (%v)", data, err)
	}
	keys(t, m, "h")
	clip, _ = copyKey(t, m, "y")
	if want := "{\n  \"type\": \"text\",\n  \"text\": \"Echo: hi\"\n}"; clip != want {
		t.Fatalf("y on an object copied %q, want %q", clip, want)
	}
	// In the JSON Y is the node's path (issue 27: y what is shown, Y its other form);
	// after esc Y copies the whole message again, and y the frame.
	if clip, _ = copyKey(t, m, "Y"); clip != ".result.content[0]" {
		t.Fatalf("Y in the JSON copied %q", clip)
	}
	keys(t, m, "esc")
	clip, _ = copyKey(t, m, "Y")
	if !strings.HasPrefix(clip, "{\n  \"jsonrpc\": \"2.0\",") {
		t.Fatalf("Y after esc copied %q", clip)
	}
	clip, _ = copyKey(t, m, "y")
	if !strings.HasPrefix(clip, `{"jsonrpc":"2.0","id":2,"result"`) {
		t.Fatalf("y after esc copied %q, want the frame", clip)
	}

	// The preview cuts a 200 KB string: its value is not copied, its path is.
	big := bigFrame(2, 200<<10)
	m = wireWith(t, big)
	keys(t, m, "j", "enter", "j", "j", "j", "j", "j", "j", "j")
	if p := pathShown(t, m); p != ".result.content[0].text" {
		t.Fatalf("on %s", p)
	}
	mustContain(t, "cut", view(m), "K, cut)")
	keys(t, m, "G")
	mustContain(t, "the end of the parsed view", view(m), fmt.Sprintf("… parsed view stops at byte %d of %d", previewBytes, big.Size))
	_, copied = copyKey(t, m, "y")
	if copied.err == nil || !strings.Contains(copied.err.Error(), "cut off here (a shows all of a large frame, w saves it)") {
		t.Fatalf("y on a cut value: %v", copied.err)
	}
	if clip, _ = copyKey(t, m, "Y"); clip != ".result.content[0].text" {
		t.Fatalf("Y on a cut value copied %q", clip)
	}
}

// The folds and the focus stay through a resize; another frame starts unfolded.
func TestWireJSONKeepsFolds(t *testing.T) {
	m := newTestModel(t, nil, 140, 40)
	drive(t, m, eventsMsg{events: jsonSession()})
	keys(t, m, "3", "enter", "j", "j", "j", "space")
	drive(t, m, tea.WindowSizeMsg{Width: 120, Height: 30})
	if p := pathShown(t, m); p != ".result" {
		t.Fatalf("after a resize the cursor is on %s", p)
	}
	mustContain(t, "fold kept", view(m), `"result": {…} 2 keys`)
	keys(t, m, "esc", "k", "j")
	if strings.Contains(view(m), "{…}") {
		t.Fatalf("the folds outlived the frame:\n%s", view(m))
	}
}

// A 5 MiB string in a frame shown in full is drawn cut to its line: the screen never
// holds it whole, and a key draws only the rows on screen.
func TestWireJSONBigFrameShownCut(t *testing.T) {
	m := wireWith(t, bigFrame(2, 5<<20))
	keys(t, m, "j", "a", "enter")
	out := view(m)
	mustContain(t, "cut 5 MiB string", out, "(5.0M)")
	if len(out) > 100<<10 {
		t.Fatalf("the screen is %d bytes", len(out))
	}
	if n := m.wire.js.view.len(); n != 12 {
		t.Fatalf("%d rows for a message of 12 lines", n)
	}
}

// colorSGR matches an SGR sequence that sets a foreground or background color.
var colorSGR = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]`)

// TestWireJSONGolden draws the wire pane's parsed JSON, highlighted, with a folded
// object and the focus on a node, in the ansi (ANSI16) and the NO_COLOR themes.
func TestWireJSONGolden(t *testing.T) {
	for _, theme := range []string{"ansi", "nocolor"} {
		t.Run(theme, func(t *testing.T) {
			m := themedModel(t, theme, 140, 36)
			drive(t, m, eventsMsg{events: jsonSession()})
			keys(t, m, "3", "enter", "j", "j", "j", "j", "j", "j", "j", "j", "j", "space", "j", "j", "j")
			if p := pathShown(t, m); p != ".result.structuredContent.n" {
				t.Fatalf("on %s", p)
			}
			out := view(m)
			if theme == "nocolor" && colorSGR.MatchString(out) {
				t.Fatalf("a color in the NO_COLOR theme:\n%q", out)
			}
			if theme == "ansi" && !colorSGR.MatchString(out) {
				t.Fatal("no color in the ansi theme")
			}
			if !strings.Contains(ansi.Strip(out), "{…} 3 keys") {
				t.Fatalf("nothing folded:\n%s", out)
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}

// Benchmark: a 5 MiB result of many small values, shown in full: the parse and layout
// (once per selection) and a keypress in the focused JSON (rows on screen only).
func BenchmarkWireJSONBigDocument(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"jsonrpc":"2.0","id":2,"result":{"structuredContent":{"rows":[`)
	for i := 0; sb.Len() < 5<<20; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"id":%d,"name":"row %d","ok":true,"tags":["a","b"],"score":%d.5}`, i, i, i)
	}
	sb.WriteString("]}}}\n")
	big := ev(2, mcpclient.ServerToClient, sb.String())
	b.Run("select", func(b *testing.B) {
		m := wireWith(b, big)
		keys(b, m, "j", "a")
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			m.wire.js = wireJSON{}
			m.wire.detail.lines = nil
			m.sync()
			_ = view(m)
		}
	})
	b.Run("key", func(b *testing.B) {
		m := wireWith(b, big)
		keys(b, m, "j", "a", "enter")
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			keys(b, m, "j")
			_ = view(m)
		}
	})
}

// In 2 Call, enter focuses the result's structuredContent: paths start at
// .structuredContent, space folds, y copies a value, esc gives the keys back.
func TestCallJSONExplore(t *testing.T) {
	tool := mcpclient.Tool{Name: "weather", InputSchema: json.RawMessage(`{"type":"object"}`)}
	m, s := formModel(t, 120, 40, "", tool)
	s.result = &mcpclient.CallToolResult{Content: []mcpclient.ContentBlock{{Type: "text", Text: "sunny"}},
		StructuredContent: json.RawMessage(`{"temperature":22.5,"where":{"city":"Chicago","tags":["lake","wind"]}}`)}
	do(t, m, "1", "enter", "ctrl+s")
	if m.call.run == nil || !m.call.run.done {
		t.Fatalf("no result:\n%s", view(m))
	}
	mustContain(t, "highlighted result", view(m), `"city": "Chicago",`)
	if !m.c.keys.JSON.Explore.Enabled() {
		t.Fatal("enter is not offered on a result with structuredContent")
	}
	keys(t, m, "enter")
	if !m.call.run.js.explore {
		t.Fatal("enter did not focus the structuredContent")
	}
	keys(t, m, "j", "j")
	out := view(m)
	mustContain(t, "path line", out, ".structuredContent.where  enter/space folds", `▸ "where": {`)
	if strings.Contains(out, `▸ "temperature"`) || strings.Count(out, "▸") != 1 {
		t.Fatalf("the cursor is drawn on other rows than .where:\n%s", out)
	}
	keys(t, m, "space")
	mustContain(t, "folded", view(m), `"where": {…} 2 keys`)
	if strings.Contains(view(m), `"city"`) {
		t.Fatal("a folded object still shows its members")
	}
	keys(t, m, "l", "j")
	clip, copied := copyKey(t, m, "y")
	if clip != "Chicago" || copied.what != "the value at .structuredContent.where.city (7B" {
		t.Fatalf("y copied %q (%s)", clip, copied.what)
	}
	if clip, _ = copyKey(t, m, "Y"); clip != ".structuredContent.where.city" {
		t.Fatalf("Y copied %q", clip)
	}
	keys(t, m, "esc")
	if m.call.run.js.explore || strings.Contains(view(m), "y/Y copy value/path") {
		t.Fatal("esc left the focus in the JSON")
	}
	// y is the result's copy again (this fake session has no wire to copy it from).
	if _, copied = copyKey(t, m, "y"); copied.err == nil || strings.Contains(copied.what, "the value at") {
		t.Fatalf("y after esc: %q %v, want the result's copy", copied.what, copied.err)
	}
}

// After a resize the node the path line names is still on screen: narrower, the raw
// bytes above it wrap to more lines and push it down; shorter, fewer rows show.
func TestWireJSONCursorStaysOnScreen(t *testing.T) {
	m := newTestModel(t, nil, 140, 40)
	drive(t, m, eventsMsg{events: jsonSession()})
	keys(t, m, "3", "enter", "G")
	for _, size := range []tea.WindowSizeMsg{{Width: 90, Height: 40}, {Width: 90, Height: 16}, {Width: 70, Height: 14}} {
		drive(t, m, size)
		p := m.wire
		line, rows := len(p.detail.lines)+p.js.view.cur, p.js.rows(p.det.h)
		if line < p.detailOff || line >= p.detailOff+rows {
			t.Errorf("%dx%d: the cursor's line %d is outside the shown lines %d..%d", size.Width, size.Height, line, p.detailOff, p.detailOff+rows-1)
		}
	}
}

// While exploring, the help lists the JSON keys and the pane keys that still act there
// (f filters, p jumps); a pane key the JSON takes (y copies the value) is not listed twice.
func TestWireJSONHelpListsPaneKeys(t *testing.T) {
	m := newTestModel(t, nil, 140, 40)
	drive(t, m, eventsMsg{events: jsonSession()})
	keys(t, m, "3", "enter")
	bs := m.wire.bindings()
	has := func(b key.Binding) bool {
		return slices.ContainsFunc(bs, func(x key.Binding) bool { return x.Help() == b.Help() })
	}
	k := m.c.keys
	if !has(k.JSON.CopyValue) || !has(k.Wire.WireFilter) || !has(k.Wire.Jump) {
		t.Errorf("the help while exploring lacks a key that acts: %v", helpKeys(bs))
	}
	for _, b := range bs {
		if b.Help() == k.Detail.Copy.Help() && slices.Contains(k.JSON.CopyValue.Keys(), b.Keys()[0]) {
			t.Errorf("%v is listed for the frame though the JSON takes it", b.Keys())
		}
	}
}

func helpKeys(bs []key.Binding) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Help().Key)
	}
	return out
}
