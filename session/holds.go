package session

import (
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Breakpoints are mcp-inspect's own, not MCP's: a breakpoint is a wire filter
// (internal/wirefilter: "method:tools/call tool:delete_*", "dir:in kind:response"); a
// message one matches is held where it is (a tap holds it between the host and the
// server) until the user decides what becomes of it, or until the hold's timeout, when it
// goes on unchanged. Nothing held is lost: on detach, quit or timeout it is forwarded
// unchanged and the wire says so.

// Hold is one message held at a breakpoint.
type Hold struct {
	// ID names the hold in Decide; unique within the tap's session, from 1.
	ID int64
	// Dir is where the message was going: ClientToServer (the host sent it) or
	// ServerToClient.
	Dir mcpclient.Direction
	// Raw is the message exactly as it came (one JSON-RPC message; no line ending).
	Raw []byte
	// What describes it: `request id 3 (tools/call echo)`.
	What string
	// Breakpoint is the filter that matched, as the user wrote it.
	Breakpoint string
	// Request reports whether it is a JSON-RPC request (one that HoldAnswer may answer in the
	// receiver's place).
	Request bool
	// Deadline is when the hold times out and the message goes on unchanged.
	Deadline time.Time
}

// HoldEnd says how a hold ended.
type HoldEnd struct {
	// ID is the hold's.
	ID int64
	// How: "forwarded" (unchanged), "edited", "dropped", "answered", "timeout" (forwarded
	// unchanged at the deadline), "detached" (forwarded unchanged: the attach that held it
	// went away) or "ended" (the session ended while it was held).
	How string
}

// HoldUpdate is one thing the holder says: exactly one of its fields is set.
type HoldUpdate struct {
	// Held is a new hold.
	Held *Hold
	// Ended is a hold that ended (whoever decided).
	Ended *HoldEnd
	// Set is the breakpoints as the holder now has them (its answer to Set).
	Set *BreakpointSet
	// Refused says why the holder refused a Set or a Decide (another viewer has the
	// breakpoints, a filter does not parse, the hold is gone, the message is not JSON).
	Refused string
}

// BreakpointSet is a set of breakpoints and the timeout of what they hold.
type BreakpointSet struct {
	// Filters are wire filters; a message any of them matches is held. None: nothing is.
	Filters []string
	// Timeout is how long a message is held before it goes on unchanged.
	Timeout time.Duration
}

// HoldDecisionKind is what becomes of a held message.
type HoldDecisionKind uint8

const (
	// HoldForward sends the message on unchanged.
	HoldForward HoldDecisionKind = iota + 1
	// HoldSend sends HoldDecision.Message on in its place (edited; recorded as such).
	HoldSend
	// HoldDrop forwards nothing.
	HoldDrop
	// HoldAnswer sends HoldDecision.Message back to the sender in the receiver's place (a
	// JSON-RPC response to a held request: an error or a result of the user's); nothing
	// is forwarded.
	HoldAnswer
)

// HoldDecision is the user's word on a hold.
type HoldDecision struct {
	Kind HoldDecisionKind
	// Message is one JSON value (HoldSend, HoldAnswer); the holder sends it compacted to one line.
	Message []byte
}

// Breakpoints is a holder's control: the attach (a tap's socket) implements it. Set and
// Decide do I/O (a UI runs them off its update loop); what the holder says back, and each
// hold, comes on Updates.
type Breakpoints interface {
	// Updates delivers holds, their ends, the breakpoints as set, and refusals, in order;
	// it is closed when the holder is gone.
	Updates() <-chan HoldUpdate
	// Set replaces the breakpoints (an empty set clears them; held messages stay held).
	Set(BreakpointSet) error
	// Decide settles hold id.
	Decide(id int64, d HoldDecision) error
}
