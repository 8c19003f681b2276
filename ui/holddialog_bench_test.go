package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// heldOfSize is a held tools/call whose arguments hold n items (about 40 bytes each).
func heldOfSize(n int) session.Hold {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf(`{"k":"item %06d","v":[1,2,3]}`, i)
	}
	raw := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bulk","arguments":{"items":[` + strings.Join(items, ",") + `]}}}`
	return session.Hold{ID: 1, Dir: mcpclient.ClientToServer, Raw: []byte(raw), What: "request id 1 (tools/call bulk)", Request: true}
}

// BenchmarkHoldDialog: opening the hold dialog on a large held message, and one key typed
// in its editor (the check runs on every key) with the redraw that follows.
func BenchmarkHoldDialog(b *testing.B) {
	for _, n := range []int{100, 2000} {
		m := newTestModel(b, nil, 160, 48)
		hold := heldOfSize(n)
		b.Run(fmt.Sprintf("open_%dKB", len(hold.Raw)/1024), func(b *testing.B) {
			for b.Loop() {
				d := newHoldDialog(m.c, hold, t0)
				d.setSize(160, 46)
				_ = d.view()
			}
		})
		d := newHoldDialog(m.c, hold, t0)
		d.setSize(160, 46)
		b.Run(fmt.Sprintf("key_%dKB", len(hold.Raw)/1024), func(b *testing.B) {
			for b.Loop() {
				d.handleKey(keyMsg("x"))
				d.handleKey(keyMsg("backspace"))
				_ = d.view()
			}
		})
	}
}
