package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// secretModel is moreSession with the secret hunter2-xyz in a tool's description, the
// notes' text, the prompt's first message, a log message and the server's instructions,
// and a redactor that masks it (as -e DB_PASS=hunter2-xyz would).
func secretModel(t *testing.T) *model {
	t.Helper()
	red, err := trace.NewRedactor(trace.RedactConfig{Env: []string{"DB_PASS=hunter2-xyz"}})
	if err != nil {
		t.Fatal(err)
	}
	s := moreSession()
	s.init.Instructions = "log in with hunter2-xyz"
	s.tools[0].Description = "uses hunter2-xyz"
	s.tools[0].OutputSchema = json.RawMessage(`{"type":"object","properties":{"summary":{"type":"string"}}}`)
	s.contents["file:///notes.txt"].Contents[0].Text = "pw hunter2-xyz"
	s.promptRes.Messages[0].Content.Text = "the password is hunter2-xyz"
	m := connected(t, s, 120, 30, func(o *Options) {
		o.Redact = func(b []byte) []byte { out, _ := red.Bytes(b); return out }
	})
	m.c.hist.dir = t.TempDir()
	drive(t, m, eventsMsg{events: []mcpclient.Event{ev(40, mcpclient.ServerToClient,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":{"query":"select 1","pw":"hunter2-xyz"}}}`+"\n")}})
	return m
}

// Issue 27: y copies what the Tools, Resources, Prompts, Logs and Server panes show, with
// the session's secrets masked as the Wire pane's y does, and says what it copied; alt+y
// copies it as received.
func TestCopyInEveryPane(t *testing.T) {
	cases := []struct {
		name  string
		keys  []string
		what  string
		want  []string // in the copy
		exact string   // the copy of alt+y holds it
	}{
		{"tools", []string{"1"}, "the definition of the tool research, schemas included", []string{`"inputSchema": {`, `"outputSchema": {`, `"summary"`, `"description": "uses ***`}, "uses hunter2-xyz"},
		{"resources", []string{"5", "enter"}, "the text of file:///notes.txt", []string{"pw ***"}, "pw hunter2-xyz"},
		{"prompts", []string{"6", "enter"}, "the messages of the prompt simple", []string{`"role": "user"`, `"text": "the password is ***`}, "the password is hunter2-xyz"},
		{"logs", []string{"7", "G"}, "the log entry of #40", []string{"{\n  \"query\": \"select 1\",", `"pw": "***`}, `"pw": "hunter2-xyz"`},
		{"server", []string{"4"}, "the initialize result", []string{`"protocolVersion": "2025-11-25"`, `"subscribe": true`, `"instructions": "log in with ***`}, "log in with hunter2-xyz"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := secretModel(t)
			keys(t, m, c.keys...)
			clip, msg := copyKey(t, m, "y")
			if strings.Contains(clip, "hunter2") {
				t.Errorf("y copied the secret:\n%s", clip)
			}
			for _, w := range c.want {
				if !strings.Contains(clip, w) {
					t.Errorf("the copy lacks %q:\n%s", w, clip)
				}
			}
			if !strings.HasPrefix(msg.what, c.what+" (") || !strings.HasSuffix(msg.what, ", secrets masked") {
				t.Errorf("the copy is named %q, want %q (size, secrets masked", msg.what, c.what)
			}
			if !strings.HasPrefix(m.flash.text, "copied "+c.what) {
				t.Errorf("the flash says %q", m.flash.text)
			}
			if c.name == "logs" {
				keys(t, m, "k") // the copy's note is the newest entry now, and selected
			}
			clip, msg = copyKey(t, m, "alt+y")
			if !strings.Contains(clip, c.exact) || !strings.HasSuffix(msg.what, "exact, secrets included") {
				t.Errorf("alt+y copied %q (%s)", clip, msg.what)
			}
		})
	}
}

// Nothing to copy is said, never an empty clipboard: a resource not read yet.
func TestCopyNothingShown(t *testing.T) {
	m := secretModel(t)
	keys(t, m, "5")
	_, msg := copyKey(t, m, "y")
	if msg.err == nil || !strings.Contains(m.flash.text, "nothing copied: notes.txt has not been read (enter reads it)") {
		t.Errorf("copy of an unread resource: %v, flash %q", msg.err, m.flash.text)
	}
}

// Issue 27: enter explores a log entry's JSON data (masked as drawn): the detail takes the
// pane with the cursor's path under it, y copies a value, esc goes back to the list.
func TestLogsExploreJSON(t *testing.T) {
	m := secretModel(t)
	keys(t, m, "7", "G", "enter")
	if !m.logs.js.exploring() {
		t.Fatalf("enter did not explore the entry's data:\n%s", view(m))
	}
	out := view(m)
	mustContain(t, "explored entry", out, "level info · wire #40", `"query": "select 1"`, `"pw": "***"`)
	if strings.Contains(out, "hunter2") || strings.Contains(out, "logs & notifications") {
		t.Errorf("the explored entry shows the secret or the list:\n%s", out)
	}
	keys(t, m, "j")
	if !strings.Contains(view(m), ".query") {
		t.Errorf("the path line does not follow the cursor:\n%s", view(m))
	}
	clip, _ := copyKey(t, m, "y")
	if clip != "select 1" || !m.logs.js.exploring() {
		t.Errorf("y copied %q; still exploring: %v (the copy's note must not move the selection)", clip, m.logs.js.exploring())
	}
	keys(t, m, "esc")
	if m.logs.js.exploring() || !strings.Contains(view(m), "logs & notifications") {
		t.Errorf("esc did not go back to the list:\n%s", view(m))
	}
}

// Issue 27: zoomed on the detail (=), enter explores the read result in 5 Resources and
// the get result in 6 Prompts (masked as drawn); esc goes back; unzoomed, enter reads and
// gets as before.
func TestResultExploreInResourcesAndPrompts(t *testing.T) {
	for _, c := range []struct {
		name, pane, path, shown string
		explored                func(m *model) bool
	}{
		{"resources", "5", ".result.contents", `"text": "pw ***"`, func(m *model) bool { return m.resources.js.exploring() }},
		{"prompts", "6", ".result.description", `"text": "the password is ***"`, func(m *model) bool { return m.prompts.js.exploring() }},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := secretModel(t)
			keys(t, m, c.pane, "enter", "=", "enter")
			if !c.explored(m) {
				t.Fatalf("enter in the zoomed detail did not explore the result:\n%s", view(m))
			}
			out := view(m)
			if strings.Contains(out, "hunter2") || !strings.Contains(out, c.shown) {
				t.Errorf("the explored result shows the secret or not its text:\n%s", out)
			}
			keys(t, m, "j")
			if !strings.Contains(view(m), c.path) {
				t.Errorf("the path line does not say %s:\n%s", c.path, view(m))
			}
			keys(t, m, "esc")
			if c.explored(m) {
				t.Error("esc did not leave the result")
			}
		})
	}
}
