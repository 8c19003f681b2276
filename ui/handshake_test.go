package ui

import (
	"strings"
	"testing"
)

// TestNoCallBeforeHandshake: a call made while the initialize response has not come is
// refused with a note (MCP lifecycle: only pings before it), nothing is sent, and the
// same call goes once connected.
func TestNoCallBeforeHandshake(t *testing.T) {
	s := greetSession()
	m := newTestModel(t, s, 120, 40) // Init not run: the handshake has not answered
	keys(t, m, "1", "c")
	if m.tools.callBy == nil {
		t.Fatalf("c did not open the call-by-name prompt\n%s", view(m))
	}
	m.tools.callBy.name.SetValue("")
	typeIn(t, m, "greet")
	keys(t, m, "tab")
	typeIn(t, m, `{"name":"early"}`)
	keys(t, m, "ctrl+s")
	if len(s.calls) != 0 || m.call.run != nil {
		t.Fatalf("a call was sent before the initialize response: %q", s.calls)
	}
	if !strings.Contains(view(m), notConnectedNote) && !strings.Contains(m.flash.text, notConnectedNote) {
		t.Fatalf("no note says the handshake is not finished:\n%s", view(m))
	}

	exec(t, m, m.Init(), 0) // the handshake answers
	if m.state().Init == nil {
		t.Fatal("handshake did not finish")
	}
	keys(t, m, "1", "j", "enter")
	if m.call.form == nil {
		t.Fatal("enter did not open the greet form")
	}
	typeIn(t, m, "late")
	keys(t, m, "ctrl+s")
	if len(s.calls) != 1 {
		t.Fatalf("after connecting the call was not sent: %q", s.calls)
	}
}
