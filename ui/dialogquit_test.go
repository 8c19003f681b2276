package ui

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/session"
)

// q in front of a server-request dialog does what it does elsewhere (issue 15): it quits
// from the roots and URL dialogs; in an elicitation form it types in a text field, quits
// from another row, and with values filled in but not sent asks first (a second q quits);
// in the sampling reply it is text.
func TestQuitFromRequestDialogs(t *testing.T) {
	for _, tc := range []struct {
		name, method, params string
		before               []string // keys before q
		qs                   int      // how many q presses quit (0: none does)
		typed                string   // what the dialog must show after the q presses
	}{
		{name: "roots", method: "roots/list", params: `{}`, qs: 1},
		{name: "url", method: "elicitation/create", params: `{"mode":"url","message":"Log in","url":"https://a.example/x","elicitationId":"e1"}`, qs: 1},
		{name: "form, a checkbox row", method: "elicitation/create", params: `{"message":"OK?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}`, qs: 1},
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
