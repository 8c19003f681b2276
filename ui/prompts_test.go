package ui

import "testing"

// Prompts: enter opens the arguments form (completion by ref/prompt); the messages come
// back rendered by role, every content type, the unknown one raw.
func TestPromptsGet(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 60)
	keys(t, m, "6")
	mustContain(t, "prompts", view(m), "prompts (2)", "simple", "greet (2)")
	keys(t, m, "enter")
	if len(s.gets) != 1 || s.gets[0] != "simple null" {
		t.Fatalf("gets %q", s.gets)
	}
	keys(t, m, "j", "enter")
	f := m.prompts.form
	if f == nil {
		t.Fatal("no form")
	}
	typeIn(t, m, "P")
	drive(t, m, completeTickMsg{form: f.id, tag: f.compl.tag})
	if got := s.completes[len(s.completes)-1]; got != "ref/prompt:greet city=P ctx[]" {
		t.Fatalf("completion %q", got)
	}
	mustContain(t, "city suggestions", view(m), "Paris", "Prague")
	// Sending with the required city missing is refused once.
	setArg(f, 0, "")
	keys(t, m, "ctrl+s")
	mustContain(t, "required", view(m), "↳ is required", "ctrl+s again to send anyway")
	setArg(f, 0, "Paris")
	keys(t, m, "ctrl+s")
	if s.gets[len(s.gets)-1] != `greet {"city":"Paris"}` {
		t.Fatalf("gets %q", s.gets)
	}
	out := view(m)
	mustContain(t, "prompt result", out, "6 message(s)", "── 1 · user ──", "Say hello to Paris", "── 2 · assistant ──", "[1] image",
		"embedded notes", "[1] audio", "[1] resource_link", "unknown content type 'sparkle'", "arguments: city=Paris")
}
