package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The save prompt of the Resources pane is an editable field: ctrl+u clears the proposed
// name, typed keys and backspace edit it, and enter writes to the typed path.
func TestResourceSavePathIsEditable(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "5", "j", "enter", "w")
	if m.resources.save == nil || m.resources.save.input.Value() != "logo.png" {
		t.Fatalf("save prompt: %+v", m.resources.save)
	}
	keys(t, m, "ctrl+u")
	if v := m.resources.save.input.Value(); v != "" {
		t.Fatalf("ctrl+u left %q", v)
	}
	path := filepath.Join(t.TempDir(), "pic.pngx")
	typeIn(t, m, path)
	keys(t, m, "backspace")
	if v := m.resources.save.input.Value(); v != path[:len(path)-1] {
		t.Fatalf("typed %q, field holds %q", path, v)
	}
	keys(t, m, "enter")
	b, err := os.ReadFile(path[:len(path)-1])
	if err != nil || string(b) != "\x89PNG\r\n\x1a\n" {
		t.Fatalf("saved %q %v (%s)", b, err, m.resources.saved)
	}
}

// Resources: every resource and template listed; enter reads (text in full, blob as MIME
// type and size); w saves the decoded blob to a new file.
func TestResourcesReadAndSave(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "5")
	out := view(m)
	mustContain(t, "resources pane", out, "resources (2) · templates (1)", "notes.txt", "logo", "   profile template", "uri:  file:///notes.txt", "Some notes")
	keys(t, m, "enter")
	if len(s.reads) != 1 || s.reads[0] != "file:///notes.txt" {
		t.Fatalf("reads %q", s.reads)
	}
	mustContain(t, "text read", view(m), "1 content item(s)", "line one", "line two", "the end", "took 3ms · request #20 → response #21")

	keys(t, m, "j", "enter")
	mustContain(t, "blob read", view(m), "mime: image/png", "blob: 8B decoded (8 bytes) · w saves it")
	dir := t.TempDir()
	keys(t, m, "w")
	if m.resources.save == nil || m.resources.save.input.Value() != "logo.png" {
		t.Fatalf("save prompt: %+v", m.resources.save)
	}
	path := filepath.Join(dir, "logo.png")
	m.resources.save.input.SetValue(path)
	keys(t, m, "enter")
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "\x89PNG\r\n\x1a\n" {
		t.Fatalf("saved %q %v", b, err)
	}
	mustContain(t, "saved note", view(m), "saved 8 bytes to")
	// w again offers the file it wrote (O opens that one too); saving there is no second copy.
	keys(t, m, "w")
	if got := m.resources.save.input.Value(); got != path {
		t.Fatalf("second save prompt: %q, want %q", got, path)
	}
	keys(t, m, "enter")
	if !strings.Contains(m.resources.saved, "already saved: "+path) {
		t.Fatalf("the same bytes at the same place: %q", m.resources.saved)
	}
	// Never over an existing file.
	other := filepath.Join(dir, "other.png")
	if err := os.WriteFile(other, []byte("other"), 0o600); err != nil {
		t.Fatal(err)
	}
	keys(t, m, "w")
	m.resources.save.input.SetValue(other)
	keys(t, m, "enter")
	if !strings.Contains(m.resources.saved, "file exists") {
		t.Fatalf("overwrote: %q", m.resources.saved)
	}
	if b, _ := os.ReadFile(other); string(b) != "other" {
		t.Fatalf("overwrote: %q", b)
	}
}

// Templates: a form of the RFC 6570 variables with completions (debounced, tagged, with
// the other variables as context); the expanded URI is read.
func TestTemplateFormCompletionAndRead(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "5", "G", "enter")
	f := m.resources.form
	if f == nil || len(f.fields) != 2 || f.fields[0].Key != "team" || f.fields[1].Key != "user" {
		t.Fatalf("template form: %+v", f)
	}
	typeIn(t, m, "c")
	// The debounce tick of an older edit is stale: nothing is sent for it.
	stale := completeTickMsg{form: f.id, tag: f.compl.tag - 1}
	drive(t, m, stale)
	if len(s.completes) != 0 {
		t.Fatalf("a stale tick sent completion/complete: %q", s.completes)
	}
	drive(t, m, completeTickMsg{form: f.id, tag: f.compl.tag})
	if len(s.completes) != 1 || s.completes[0] != "ref/resource:users://{team}/{user}/profile team=c ctx[]" {
		t.Fatalf("completes %q", s.completes)
	}
	out := view(m)
	mustContain(t, "suggestions", out, "core", "cloud")
	// An answer for an old tag is dropped.
	f.completed(completedMsg{form: f.id, tag: f.compl.tag - 5, field: "team", res: &mcpclient.Completion{Values: []string{"STALE"}}})
	if strings.Contains(view(m), "STALE") {
		t.Fatal("stale completion shown")
	}
	keys(t, m, "ctrl+n", "ctrl+n", "enter") // the second suggestion: cloud
	if v := f.fields[0].Text(); v != "cloud" {
		t.Fatalf("accepted %q", v)
	}
	setArg(f, 0, "core")
	keys(t, m, "tab")
	typeIn(t, m, "a")
	drive(t, m, completeTickMsg{form: f.id, tag: f.compl.tag})
	if got := s.completes[len(s.completes)-1]; got != "ref/resource:users://{team}/{user}/profile user=a ctx[team=core]" {
		t.Fatalf("completion context: %q", got)
	}
	mustContain(t, "user suggestions", view(m), "ann", "uri: users://core/a/profile")
	keys(t, m, "ctrl+n", "enter", "ctrl+s")
	if last := s.reads[len(s.reads)-1]; last != "users://core/ann/profile" {
		t.Fatalf("read %q", s.reads)
	}
	// application/json contents are drawn as JSON (indented, highlighted).
	mustContain(t, "template read", view(m), `"name": "Ann"`, "resources/read users://core/ann/profile")
}

// Subscribe sends resources/subscribe; notifications/resources/updated marks the resource;
// s again unsubscribes.
func TestSubscribeAndUpdates(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "5", "s")
	if len(s.subs) != 1 || s.subs[0] != "+file:///notes.txt" || !m.resources.subs["file:///notes.txt"] {
		t.Fatalf("subs %q", s.subs)
	}
	mustContain(t, "subscribed", view(m), "● subscribed", "▸● notes.txt")
	upd := ev(7, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///notes.txt"}}`+"\n")
	drive(t, m, eventsMsg{events: []mcpclient.Event{upd}})
	mustContain(t, "updated", view(m), "▸↻ notes.txt", "↻ updated 1 time(s)", "resource updated: file:///notes.txt")
	keys(t, m, "s")
	if s.subs[1] != "-file:///notes.txt" || m.resources.subs["file:///notes.txt"] {
		t.Fatalf("unsubscribe: %q", s.subs)
	}
}

// ctrl+x cancels a read in flight; the late response that comes anyway is shown, not used.
func TestReadCancelAndLateResponse(t *testing.T) {
	s := moreSession()
	s.readBlock = true
	m := connected(t, s, 120, 30)
	keys(t, m, "5")
	_, cmd := m.Update(keyMsg("enter"))
	done := make(chan tea.Msg, 8)
	go func() {
		for _, c := range cmd().(tea.BatchMsg) {
			if c != nil {
				c := c
				go func() { done <- c() }()
			}
		}
	}()
	req := ev(10, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"file:///notes.txt","_meta":{"progressToken":4}}}`+"\n")
	prog := ev(11, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":4,"progress":1,"total":4,"message":"reading"}}`+"\n")
	prog.Pair = 10
	drive(t, m, eventsMsg{events: []mcpclient.Event{req, prog}})
	mustContain(t, "in flight", view(m), "⟳ resources/read file:///notes.txt: waiting for the answer…", "1/4", "reading", "1 in flight")
	keys(t, m, "ctrl+x")
	for msg := range done {
		if rm, ok := msg.(resourceReadMsg); ok {
			drive(t, m, rm)
			break
		}
	}
	late := ev(12, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":4,"result":{"contents":[]}}`+"\n")
	late.Pair, late.Method = 10, "resources/read"
	late.Problems = []mcpclient.Problem{{Severity: mcpclient.Info, Code: mcpclient.CodeAfterCancel, Text: "response after cancel"}}
	drive(t, m, eventsMsg{events: []mcpclient.Event{late}})
	mustContain(t, "cancelled", view(m), "cancelled by you", "a late response arrived after the cancel (#12)", `"result":{"contents":[]}`, "response after cancel")
}
