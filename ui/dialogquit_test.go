package ui

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/session"
)

// q in front of a server-request dialog (issues 15 and 26): the server waits for the
// answer, so every dialog asks first and a second q quits: the roots and URL dialogs, an
// elicitation form from a row that is not text (with values filled in but not sent, the
// form's own warning asks); in a form's text field and in the sampling reply q is text.
func TestQuitFromRequestDialogs(t *testing.T) {
	for _, tc := range []struct {
		name, method, params string
		before               []string // keys before q
		qs                   int      // how many q presses quit (0: none does)
		typed                string   // what the dialog must show after the q presses
	}{
		{name: "roots", method: "roots/list", params: `{}`, qs: 2},
		{name: "url", method: "elicitation/create", params: `{"mode":"url","message":"Log in","url":"https://a.example/x","elicitationId":"e1"}`, qs: 2},
		{name: "form, a checkbox row", method: "elicitation/create", params: `{"message":"OK?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}`, qs: 2},
		{name: "form, edited", method: "elicitation/create", params: `{"message":"OK?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}`, before: []string{"space"}, qs: 2},
		{name: "form, a text field", method: "elicitation/create", params: `{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`, typed: "qq"},
		{name: "sampling", method: "sampling/createMessage", params: `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":5}`, typed: "qq"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := connected(t, moreSession(), 120, 40)
			var rec answerLog
			drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req(tc.method, tc.params)}})
			keys(t, m, tc.before...)
			presses := max(tc.qs, 2)
			for i := 1; i <= presses; i++ {
				keys(t, m, "q")
				if m.quitting {
					if i != tc.qs {
						t.Fatalf("quit at q #%d, want #%d", i, tc.qs)
					}
					break
				}
				if i == 1 && tc.qs == 2 {
					mustContain(t, "the warning", view(m), "q again quits")
				}
			}
			if tc.qs == 0 && m.quitting {
				t.Fatal("q quit where it is text")
			}
			if tc.qs > 0 && !m.quitting {
				t.Fatalf("%d q presses did not quit", presses)
			}
			if tc.typed != "" && !strings.Contains(view(m), tc.typed) {
				t.Fatalf("q was not typed:\n%s", view(m))
			}
		})
	}
}

// TestRootsDialogQuitAsks: the server asks for roots while our tool call waits for its
// answer. A single q does not quit: the dialog asks, naming the request and the call in
// flight; another key takes the question back (and does its own work); q, q quits, and
// the roots request is answered with an error as the program ends (abandon).
func TestRootsDialogQuitAsks(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := greetSession()
		s.block = true
		m := newTestModel(t, s, 120, 40)
		exec(t, m, m.Init(), 0)
		m.dialogGuard = 0
		keys(t, m, "enter")
		typeIn(t, m, "1")
		keys(t, m, "tab")
		typeIn(t, m, "2")
		keys(t, m, "ctrl+s")
		if !m.call.anyRunning() {
			t.Fatal("the call is not in flight")
		}
		var rec answerLog
		drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("roots/list", `{}`)}})
		keys(t, m, "q")
		if m.quitting {
			t.Fatal("a single q quit while the server waits for roots and a call is in flight")
		}
		mustContain(t, "the question", view(m), "the server waits for this roots/list answer and 1 call of ours is in flight: q again quits")
		keys(t, m, "pgdown")
		if m.quitting || strings.Contains(view(m), "q again quits") {
			t.Fatal("another key did not take the question back")
		}
		keys(t, m, "q")
		mustContain(t, "the question again", view(m), "q again quits")
		keys(t, m, "q")
		if !m.quitting {
			t.Fatal("q, q did not quit")
		}
		m.abandon()
		if got := rec.answers(); len(got) != 1 || !strings.HasPrefix(got[0], "error ") {
			t.Errorf("the roots request was answered %q, want an error", got)
		}
	})
}
