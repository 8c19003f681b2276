package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readHistoryFile reads DIR/history.json, which must be plain JSON, as the UI reads it
// (arguments compact).
func readHistoryFile(t *testing.T, dir string) historyData {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, historyFile))
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(b) {
		t.Fatalf("history.json is not JSON:\n%s", b)
	}
	d, err := readHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestHistoryPrefillsAndRecalls(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "mcp-inspect") // created on the first save
	tool := realTool(t, serverEverything, "get-sum")
	m, s := formModel(t, 100, 30, dir, tool)
	if strings.Contains(view(m), "history") {
		t.Fatalf("a fresh form mentions history:\n%s", view(m))
	}
	do(t, m, "'1", "tab", "'2")
	wantSent(t, m, s, `{"a":1,"b":2}`)
	reopen(t, m)
	focusOn(t, m, "a")
	do(t, m, "ctrl+a", "ctrl+k", "'3", "tab", "ctrl+a", "ctrl+k", "'4")
	wantSent(t, m, s, `{"a":3,"b":4}`)

	// The file holds both, newest first, under the server's name and the tool's.
	d := readHistoryFile(t, dir)
	got := d.Servers["fake"]["get-sum"]
	if len(got) != 2 || string(got[0].Args) != `{"a":3,"b":4}` || string(got[1].Args) != `{"a":1,"b":2}` {
		t.Fatalf("history file: %+v", d)
	}
	if !got[0].Time.Equal(t0.Add(1500 * time.Millisecond).Truncate(time.Second)) {
		t.Errorf("entry time %v", got[0].Time)
	}
	if fi, err := os.Stat(filepath.Join(dir, historyFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("history file mode: %v %v", fi.Mode(), err)
	}

	// A new session on the same server: the form opens with the last arguments, and
	// ctrl+r goes back through the earlier ones (then wraps).
	m2, s2 := formModel(t, 100, 30, dir, tool)
	p := m2.call.form
	if p.form.Field("a").Text() != "3" || p.form.Field("b").Text() != "4" {
		t.Fatalf("not prefilled: a=%q b=%q", p.form.Field("a").Text(), p.form.Field("b").Text())
	}
	// The cursor is at the start of the first field, where a person reads from.
	if p.cur != 0 || p.input.pos != 0 || p.input.Value() != "3" {
		t.Errorf("prefilled form: cursor on field %d at %d of %q, want field 0 at 0", p.cur, p.input.pos, p.input.Value())
	}
	if !strings.Contains(view(m2), "(history 1/2, ctrl+r for earlier ones)") {
		t.Fatalf("the header does not say where the values came from:\n%s", view(m2))
	}
	do(t, m2, "ctrl+r")
	if p.form.Field("a").Text() != "1" || !strings.Contains(view(m2), "history 2/2") {
		t.Fatalf("ctrl+r: a=%q\n%s", p.form.Field("a").Text(), view(m2))
	}
	// In the raw editor ctrl+r recalls too.
	do(t, m2, "ctrl+e", "ctrl+r")
	if !strings.Contains(p.raw.Value(), `"a": 3`) {
		t.Fatalf("raw recall: %q", p.raw.Value())
	}
	do(t, m2, "ctrl+e")
	wantSent(t, m2, s2, `{"a":3,"b":4}`)
	// Sending the same arguments again moves them to the front, once.
	if got := readHistoryFile(t, dir).Servers["fake"]["get-sum"]; len(got) != 2 {
		t.Fatalf("duplicate entry: %+v", got)
	}
}

func TestHistoryKeyedByServerAndTool(t *testing.T) {
	dir := t.TempDir()
	m, s := formModel(t, 100, 30, dir, realTool(t, serverEverything, "echo"), realTool(t, serverEverything, "get-sum"))
	do(t, m, "'hi")
	wantSent(t, m, s, `{"message":"hi"}`)
	// Another tool of the same server starts empty.
	openForm(t, m, "get-sum")
	if m.call.form.origin != "" || m.call.form.form.Field("a").Text() != "" {
		t.Fatal("get-sum was prefilled from echo's history")
	}
	// Another server with a tool of the same name starts empty.
	other := historyData{}
	other.add("other-server", "echo", historyEntry{Args: json.RawMessage(`{"message":"x"}`)}, false)
	h := newHistory("")
	h.apply(historyLoadedMsg{data: other})
	h.setServer("fake", "")
	if len(h.entries("echo")) != 0 {
		t.Fatal("entries of another server leaked")
	}
	h.setServer("", "fallback title")
	if h.server != "fallback title" {
		t.Fatalf("server key without a name: %q", h.server)
	}
}

func TestHistoryOff(t *testing.T) {
	m, s := formModel(t, 100, 30, "", realTool(t, serverEverything, "echo"))
	if cmd := m.c.hist.load(); cmd != nil {
		t.Fatal("history without a directory loads a file")
	}
	do(t, m, "'hi")
	wantSent(t, m, s, `{"message":"hi"}`)
	// Kept for the session only: ctrl+r still recalls it.
	reopen(t, m)
	do(t, m, "ctrl+a", "ctrl+k", "ctrl+r")
	if got := m.call.form.form.Field("message").Text(); got != "hi" {
		t.Fatalf("session history: %q", got)
	}
}

func TestHistoryCorruptFileIsReplaced(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, historyFile), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	m, s := formModel(t, 100, 30, dir, realTool(t, serverEverything, "echo"))
	if !strings.Contains(view(m), "history.json does not parse") {
		t.Fatalf("the form does not say the history file is broken:\n%s", view(m))
	}
	do(t, m, "'hi")
	wantSent(t, m, s, `{"message":"hi"}`)
	if got := readHistoryFile(t, dir).Servers["fake"]["echo"]; len(got) != 1 {
		t.Fatalf("after save: %+v", got)
	}
}

func TestHistoryMergesOtherWritersAndCaps(t *testing.T) {
	dir := t.TempDir()
	h := newHistory(dir)
	h.setServer("srv", "")
	// Another process wrote an entry meanwhile: a save keeps it.
	var other historyData
	other.add("srv", "other_tool", historyEntry{Args: json.RawMessage(`{}`)}, false)
	if err := writeHistory(dir, other); err != nil {
		t.Fatal(err)
	}
	for i := range historyMax + 5 {
		msg := h.record("t", json.RawMessage(`{"i":`+strings.Repeat("1", i+1)+`}`), t0)()
		if e := msg.(historySavedMsg).err; e != nil {
			t.Fatal(e)
		}
	}
	d := readHistoryFile(t, dir)
	if len(d.Servers["srv"]["other_tool"]) != 1 {
		t.Fatal("the other writer's entry was lost")
	}
	if n := len(d.Servers["srv"]["t"]); n != historyMax {
		t.Fatalf("%d entries kept, want %d", n, historyMax)
	}
	if len(h.entries("t")) != historyMax {
		t.Fatalf("in memory: %d", len(h.entries("t")))
	}
}
