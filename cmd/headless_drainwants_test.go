package cmd

import (
	"io"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestDrainWants holds the headless drain's event filter to what its loop acts on: every
// server frame but a clean response to an ordinary request, stderr and lifecycle events,
// and none of the client's own frames.
func TestDrainWants(t *testing.T) {
	warn := []mcpclient.Problem{{Severity: mcpclient.Warning, Code: "x", Text: "x"}}
	note := []mcpclient.Problem{{Severity: mcpclient.Info, Code: "y", Text: "y"}}
	for _, c := range []struct {
		name string
		ev   mcpclient.Event
		want bool
	}{
		{"clean tools/call response", mcpclient.Event{Dir: mcpclient.ServerToClient, Kind: mcpclient.KindResponse, Method: "tools/call"}, false},
		{"response with a warning", mcpclient.Event{Dir: mcpclient.ServerToClient, Kind: mcpclient.KindResponse, Method: "tools/call", Problems: warn}, true},
		{"response with a note", mcpclient.Event{Dir: mcpclient.ServerToClient, Kind: mcpclient.KindResponse, Method: "tools/call", Problems: note}, true},
		{"initialize response", mcpclient.Event{Dir: mcpclient.ServerToClient, Kind: mcpclient.KindResponse, Method: "initialize"}, true},
		{"server/discover response", mcpclient.Event{Dir: mcpclient.ServerToClient, Kind: mcpclient.KindResponse, Method: "server/discover"}, true},
		{"error response", mcpclient.Event{Dir: mcpclient.ServerToClient, Kind: mcpclient.KindErrorResponse, Method: "tools/call"}, true},
		{"notification", mcpclient.Event{Dir: mcpclient.ServerToClient, Kind: mcpclient.KindNotification}, true},
		{"batch", mcpclient.Event{Dir: mcpclient.ServerToClient, Kind: mcpclient.KindBatch}, true},
		{"server request", mcpclient.Event{Dir: mcpclient.ServerToClient, Kind: mcpclient.KindRequest}, true},
		{"line that is not JSON", mcpclient.Event{Dir: mcpclient.ServerToClient, Kind: mcpclient.KindNotJSON, Problems: warn}, true},
		{"stderr", mcpclient.Event{Kind: mcpclient.KindStderr}, true},
		{"lifecycle", mcpclient.Event{Kind: mcpclient.KindLifecycle, Life: &mcpclient.LifeInfo{Text: "x"}}, true},
		{"client request", mcpclient.Event{Dir: mcpclient.ClientToServer, Kind: mcpclient.KindRequest, Method: "tools/call"}, false},
		{"client response with a problem", mcpclient.Event{Dir: mcpclient.ClientToServer, Kind: mcpclient.KindResponse, Problems: warn}, false},
	} {
		if got := drainWants(c.ev); got != c.want {
			t.Errorf("%s: drainWants = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestDrainNotesAfterInterrupt: a response after its request was cancelled is a note at the
// end of a run, unless a stop signal cancelled it (the user's Ctrl-C): then it is the user's
// doing and goes to the log only; other notes are said either way.
func TestDrainNotesAfterInterrupt(t *testing.T) {
	for _, signalled := range []bool{false, true} {
		h := &headless{stderr: io.Discard, flags: &headlessFlags{}}
		h.signalled.Store(signalled)
		d := &drain{h: h, notes: []noteCount{
			{code: mcpclient.CodeAfterCancel, n: 3, first: "response after cancel", line: 9},
			{code: mcpclient.CodeCRLF, n: 1, first: "line ends with CRLF", line: 2},
		}}
		d.sayNotes()
		said := strings.Join(h.warnings, "\n")
		if got := strings.Contains(said, "after-cancel"); got == signalled {
			t.Errorf("signalled %v: the after-cancel note said: %v\n%s", signalled, got, said)
		}
		if !strings.Contains(said, "crlf") {
			t.Errorf("signalled %v: the other note is not said:\n%s", signalled, said)
		}
	}
}
