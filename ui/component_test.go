package ui

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// hostFor is the common host a pane or a dialog is given, over sess, with no root model:
// the default theme and keys, a fixed clock, no history directory.
func hostFor(t *testing.T, sess session.Session) *common {
	t.Helper()
	pal, err := themes.Lookup(themes.DefaultName, false)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	return &common{st: themes.Build(pal), keys: defaultKeyMap(), log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		hist: newHistory(""), tick: tea.Tick, session: sess, now: func() time.Time { return at }}
}

func keyOf(s string) tea.KeyPressMsg {
	k, ok := keyPress(s)
	if !ok {
		panic("no key " + s)
	}
	return k
}

// The Tools pane is built and driven alone: it lists, moves, asks the root to open the
// selected tool or to list again (only on a session that can send, after the handshake),
// and draws the banner its host gives.
func TestToolsPaneAlone(t *testing.T) {
	live := session.NewLive(context.Background(), nil, session.ClientFeatures{}, nil, nil)
	c := hostFor(t, live)
	banner := func(w int) []string { return []string{"banner " + strings.Repeat("=", min(w, 3))} }
	var p pane = newToolsPane(c, banner)
	tp := p.(*toolsPane)
	tp.setTools([]mcpclient.Tool{{Name: "echo"}, {Name: "add"}}, nil)
	p.setSize(rect{w: 80, h: 20})

	if v := p.view(c.now()); !strings.Contains(v, "echo") || !strings.Contains(v, "add") || !strings.Contains(v, "banner ===") {
		t.Fatalf("view:\n%s", v)
	}
	if handled, act, _ := p.handleKey(keyOf("down")); !handled || act != nil || tp.selected().Name != "add" {
		t.Fatalf("down: handled %v act %v selected %v", handled, act, tp.selected())
	}
	if handled, act, _ := p.handleKey(keyOf("enter")); !handled || act != (toolAction{open: true}) {
		t.Fatalf("enter: handled %v act %#v", handled, act)
	}
	// Before the handshake r is not a refresh; after it, the root is asked to list again.
	if _, act, _ := p.handleKey(keyOf("r")); act != nil {
		t.Fatalf("r before the handshake: %#v", act)
	}
	live.State().Init = &mcpclient.InitializeResult{}
	if handled, act, _ := p.handleKey(keyOf("r")); !handled || act != (refreshAct{session.Tools}) {
		t.Fatalf("r: handled %v act %#v", handled, act)
	}
	// A recorded session cannot send: r is not a refresh there.
	c.session = session.NewRecorded()
	if _, act, _ := p.handleKey(keyOf("r")); act != nil {
		t.Fatalf("r on a recording: %#v", act)
	}
	if b := p.bindings(); len(b) == 0 {
		t.Fatal("no bindings offered")
	}
}

// A server request's dialog is built and driven alone: it shows the session's roots and
// how many requests wait behind it, and enter answers roots/list with them.
func TestRootsDialogAlone(t *testing.T) {
	live := session.NewLive(context.Background(), nil, session.ClientFeatures{}, nil, nil)
	live.Roots().Add([]mcpclient.Root{{URI: "file:///work", Name: "work"}}, nil)
	c := hostFor(t, live)
	req := session.NewInbound("roots/list", nil, "1", 7, c.now(), func(json.RawMessage, *mcpclient.RPCError) error { return nil })
	var d dialog = newDialog(c, req, "")
	d.setSize(80, 20)
	d.(requestDialog).base().waiting = 2
	v := d.view()
	if !strings.Contains(v, "file:///work") || !strings.Contains(v, "+2 more waiting") {
		t.Fatalf("view:\n%s", v)
	}
	act, _ := d.handleKey(keyOf("x"))
	if act != nil {
		t.Fatalf("x: %#v", act)
	}
	act, _ = d.handleKey(keyOf("enter"))
	a, ok := act.(answerAct)
	if !ok || a.out == nil || a.out.err != nil || !strings.Contains(string(a.out.result), "file:///work") {
		t.Fatalf("enter: %#v", act)
	}
}

// The restart prompt, alone: esc asks to close it, enter asks to restart with the command
// line read in its quoting, a bad one is refused in place.
func TestRestartPromptAlone(t *testing.T) {
	c := hostFor(t, session.NewRecorded())
	ti, _ := newLinePrompt(c.st, "command: ", "srv --flag 'a b'", 40)
	var d dialog = &restartPrompt{c: c, input: ti}
	if act, _ := d.handleKey(keyOf("enter")); act == nil || strings.Join(act.(restartAct).argv, "|") != "srv|--flag|a b" {
		t.Fatalf("enter: %#v", act)
	}
	ti.SetValue("srv 'unclosed")
	if act, _ := d.handleKey(keyOf("enter")); act != nil || !strings.Contains(d.view(), "cannot read the command line") {
		t.Fatalf("bad quoting: %#v\n%s", act, d.view())
	}
	if act, _ := d.handleKey(keyOf("esc")); act != (closeAct{}) {
		t.Fatalf("esc: %#v", act)
	}
}

// A prompt's argument form is the schema form over a string-only schema, built and driven
// alone: fields in the prompt's order, completion answers shown under the focused field
// and stale ones dropped, enter takes a suggestion, the send gives the strings.
func TestArgsFormAlone(t *testing.T) {
	live := session.NewLive(context.Background(), nil, session.ClientFeatures{}, nil, nil)
	live.State().Init = &mcpclient.InitializeResult{}
	c := hostFor(t, live)
	f := newArgsForm(c, 7, "get prompt trip", "get prompt", mcpclient.CompletionRef{Type: "ref/prompt", Name: "trip"},
		[]argSpec{{name: "to", desc: "where", required: true}, {name: "from"}})
	f.setSize(80, 20)
	if len(f.fields) != 2 || f.fields[0].Key != "to" || f.fields[1].Key != "from" || !f.fields[0].Required {
		t.Fatalf("fields: %+v", f.fields)
	}
	f.focus(0)
	for _, r := range "Pa" {
		f.handleKey(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	tag := f.compl.tag
	f.completed(completedMsg{form: 7, tag: tag - 1, field: "to", res: &mcpclient.Completion{Values: []string{"STALE"}}})
	f.completed(completedMsg{form: 7, tag: tag, field: "to", res: &mcpclient.Completion{Values: []string{"Paris", "Padua"}}})
	f.sync()
	if v := f.view(); strings.Contains(v, "STALE") || !strings.Contains(v, "Padua") || !strings.Contains(v, "get prompt trip") {
		t.Fatalf("view:\n%s", v)
	}
	for _, k := range []string{"ctrl+n", "ctrl+n", "enter"} {
		f.handleKey(keyOf(k))
	}
	if got := f.fields[0].Text(); got != "Padua" {
		t.Fatalf("took %q", got)
	}
	sub, closed, _ := f.handleKey(keyOf("ctrl+s"))
	if sub == nil || closed {
		t.Fatalf("ctrl+s: %v %v (%v)", sub, closed, f.errs)
	}
	if got := stringArgs(sub.args); len(got) != 1 || got["to"] != "Padua" {
		t.Fatalf("sent %v", got)
	}
}
