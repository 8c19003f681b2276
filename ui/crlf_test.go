package ui

import (
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Lines ending in \r\n are said once, with their count, in the Server pane (not only in
// each frame's detail); an Info problem, they stay out of the problems filter.
func TestCRLFSaidOnce(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 160, 40)
	crlf := func(seq uint64) mcpclient.Event {
		e := ev(seq, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`+"\r\n")
		e.Problems = append(e.Problems, mcpclient.Problem{Severity: mcpclient.Info, Code: mcpclient.CodeCRLF, Text: `line ends with "\r\n" (MCP frames end with "\n")`})
		return e
	}
	drive(t, m, eventsMsg{events: []mcpclient.Event{crlf(50), crlf(51), crlf(52)}})
	keys(t, m, "4")
	mustContain(t, "server pane", view(m), `lines:    3 stdout lines end in \r\n, from #50 on`)
	n := 0
	for _, i := range m.tl.problems {
		if mcpclient.HasCode(m.tl.probsOf(m.tl.evs.at(int(i))), mcpclient.CodeCRLF) {
			n++
		}
	}
	if n != 0 {
		t.Fatalf("%d CRLF lines in the problems filter (is:problem is warnings), want 0", n)
	}
}
