package session

import (
	"fmt"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// MarkLostLines notes on ev, the first event after unreadable trace lines (lost, one
// reason each), that they are missing: Event.LostLines and a mcpclient.CodeTraceLinesLost note. On every
// event from the first loss on (call it with lost empty), it takes the blame for an answer
// whose request may have been on a lost line off the server: its unknown-id or
// unknown-progress-token problem becomes an Info note. ev.Problems is copied, never
// changed in place.
func MarkLostLines(ev *mcpclient.Event, lost []string) {
	if len(lost) > 0 {
		text := fmt.Sprintf("%d trace line(s) just before this event could not be read (%s); the events on them are missing here", len(lost), lost[0])
		if len(lost) > 1 {
			text = fmt.Sprintf("%d trace lines just before this event could not be read (first: %s); the events on them are missing here", len(lost), lost[0])
		}
		ev.LostLines = len(lost)
		ev.Problems = append(ev.Problems[:len(ev.Problems):len(ev.Problems)], mcpclient.Problem{Severity: mcpclient.Info, Code: mcpclient.CodeTraceLinesLost, Text: text})
	}
	for i, p := range ev.Problems {
		if p.Severity >= mcpclient.Warning && (p.Code == mcpclient.CodeUnknownID || p.Code == mcpclient.CodeUnknownProgressToken) {
			ps := append([]mcpclient.Problem(nil), ev.Problems...)
			ps[i].Severity = mcpclient.Info
			ps[i].Text += " (trace lines were lost earlier: what it answers may have been on one of them)"
			ev.Problems = ps
		}
	}
}
