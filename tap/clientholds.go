package tap

import (
	"bytes"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	mcpsession "github.com/mcp-inspect/mcp-inspect/session"
)

// holdState is a Stream's side of the breakpoints: the control lines about them become
// session.HoldUpdates, and the ops go out on the connection.
type holdState struct {
	mu      sync.Mutex
	updates chan mcpsession.HoldUpdate // made by Updates; nil: nobody listens, lines are skipped
	closed  bool
	wmu     sync.Mutex // one op line at a time on the connection
}

// updatesBuffer is how many updates wait for a slow reader before the stream's reader
// waits for it (never dropped: a lost hold would stay held to its timeout).
const updatesBuffer = 256

// Updates implements session.Breakpoints: the holds, their ends, the breakpoints as set
// and refusals, as Next and NextLine read past them (call it before reading). It is closed
// when the stream ends.
func (s *Stream) Updates() <-chan mcpsession.HoldUpdate {
	h := &s.holds
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.updates == nil {
		h.updates = make(chan mcpsession.HoldUpdate, updatesBuffer)
		if h.closed {
			close(h.updates)
		}
	}
	return h.updates
}

// Set implements session.Breakpoints: it replaces this viewer's breakpoints on the tap
// (none clears them); the tap's answer comes on Updates (Set, or Refused). It does I/O.
func (s *Stream) Set(b mcpsession.BreakpointSet) error {
	req := request{Op: "break", Filters: b.Filters}
	if req.Filters == nil {
		req.Filters = []string{}
	}
	if b.Timeout > 0 {
		req.Timeout = b.Timeout.String()
	}
	return s.op(req)
}

// Decide implements session.Breakpoints: it settles hold id on the tap. A refusal comes on
// Updates; the hold's end (Ended) too. It does I/O.
func (s *Stream) Decide(id int64, d mcpsession.HoldDecision) error {
	names := map[mcpsession.HoldDecisionKind]string{mcpsession.HoldForward: "forward", mcpsession.HoldSend: "send",
		mcpsession.HoldDrop: "drop", mcpsession.HoldAnswer: "answer"}
	name, ok := names[d.Kind]
	if !ok {
		return errors.New("tap: unknown hold decision")
	}
	req := request{Op: "decide", Hold: id, Decision: name}
	if d.Kind == mcpsession.HoldSend || d.Kind == mcpsession.HoldAnswer {
		if !json.Valid(d.Message) {
			return errors.New("tap: the message is not JSON")
		}
		req.Message = d.Message
	}
	return s.op(req)
}

var _ mcpsession.Breakpoints = (*Stream)(nil)

func (s *Stream) op(req request) error {
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	s.holds.wmu.Lock()
	defer s.holds.wmu.Unlock()
	_ = s.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	_, err = s.conn.Write(append(b, '\n'))
	return err
}

// take reports whether line is a breakpoint control line, and passes it on as an update.
func (h *holdState) take(line []byte) bool {
	if !bytes.HasPrefix(line, []byte(`{"tap":"`)) {
		return false
	}
	var c struct {
		holdWire
		Reason  string   `json:"reason"`
		How     string   `json:"how"`
		Filters []string `json:"filters"`
		Timeout string   `json:"timeout"`
	}
	if json.Unmarshal(line, &c) != nil {
		return false
	}
	var u mcpsession.HoldUpdate
	switch c.Tap {
	case "held":
		dir := mcpclient.ClientToServer
		if c.Dir == mcpclient.ServerToClient.String() {
			dir = mcpclient.ServerToClient
		}
		u.Held = &mcpsession.Hold{ID: c.Hold, Dir: dir, Raw: []byte(c.Message), What: c.What, Breakpoint: c.Breakpoint,
			Request: c.Request, Deadline: c.Deadline}
	case "released":
		u.Ended = &mcpsession.HoldEnd{ID: c.Hold, How: c.How}
	case "breakpoints":
		d, _ := time.ParseDuration(c.Timeout)
		u.Set = &mcpsession.BreakpointSet{Filters: c.Filters, Timeout: d}
	case "refused":
		u.Refused = c.Reason
	default:
		return false
	}
	h.mu.Lock()
	ch := h.updates
	h.mu.Unlock()
	if ch != nil {
		ch <- u
	}
	return true
}

// close ends Updates (the stream ended).
func (h *holdState) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.closed = true
	if h.updates != nil {
		close(h.updates)
	}
}
