package session

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Reaction is what an event asks of the session's owner, besides drawing it: notes to
// show, listings to send after a quiet interval (Relist), task steps to carry out (Tasks' Step), the params of a
// server's notifications/cancelled to close its request with (ServerCancelled over the
// open requests), a late response to show on its call, and the server's end (then
// Tasks().ServerGone, and the open requests close with ServerGoneNote).
type Reaction struct {
	// Handshake, Listing and Subscription are what a recorded event stands for, as a
	// live session's requests would have returned it (nil for none; never set live).
	Handshake    *Handshake
	Listing      *Listing
	Subscription *Subscription

	Notes     []Note
	Relist    []Relist
	Tasks     []Step
	Cancelled json.RawMessage
	Late      bool
	Gone      *mcpclient.LifeInfo
}

// Relist asks the caller to call Lists.Due(List, now) After from now: list_changed
// notifications wait for a quiet interval before their listing goes out.
type Relist struct {
	List  List
	After time.Duration
}

// Observe follows one live event of the session's timeline, in order: the in-flight
// table, list_changed (refresh and the storm guard), task status notifications, a server
// cancelling its own request, a response after cancel or timeout, and the server's end.
// A batch frame is followed element by element (BatchEvents).
func (s *Live) Observe(ev *mcpclient.Event) Reaction {
	var r Reaction
	if ev.Kind == mcpclient.KindBatch && ev.Batch != nil {
		for _, one := range BatchEvents(ev) {
			s.observe(&one, &r)
		}
		return r
	}
	s.observe(ev, &r)
	return r
}

func (s *Live) observe(ev *mcpclient.Event, r *Reaction) {
	s.inflight.Observe(ev)
	if l := ev.Life; l != nil {
		s.state.ObserveLife(l)
		if l.Kind == mcpclient.LifeExited || l.Kind == mcpclient.LifeStdoutClosed {
			r.Gone = l
		}
	}
	if ev.Msg == nil || ev.Dir != mcpclient.ServerToClient {
		return
	}
	if ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse {
		if n := LateNote(ev); n != nil {
			r.Notes, r.Late = append(r.Notes, *n), true
		}
		return
	}
	if ev.Kind != mcpclient.KindNotification {
		return
	}
	method := ev.Msg.Method
	if l, ok := ListChangedOf(method); ok {
		if arm := s.lists.Changed(l, ev.Time); arm > 0 {
			r.Relist = append(r.Relist, Relist{l, arm})
		}
		return
	}
	switch method {
	case "notifications/tasks/status":
		if t, ok := TaskFromNotification(ev.Msg.Params); ok {
			_, step := s.tasks.Status(t, false, s.now())
			r.Tasks = append(r.Tasks, step)
		}
	case "notifications/tasks":
		if t, ok := mcpclient.ParseTaskNotification(ev.Msg); ok {
			_, step := s.tasks.Notified(*t, s.now())
			r.Tasks = append(r.Tasks, step)
		}
	case "notifications/cancelled":
		r.Cancelled = ev.Msg.Params
	}
}

// LateNote is the note for a response that came after its request was cancelled or had
// timed out (the pairer's after-cancel and after-timeout problems); nil for any other.
// The final answer of a subscriptions/listen stream closed to open a new one is expected.
func LateNote(ev *mcpclient.Event) *Note {
	for _, p := range ev.Problems {
		switch p.Code {
		case mcpclient.CodeAfterCancel:
			if ev.Method == "subscriptions/listen" {
				continue
			}
			return &Note{Warning, fmt.Sprintf("response after cancel: %s (request #%d) answered after you cancelled it; shown on the wire (#%d), not used", ev.Method, ev.Pair, ev.Seq)}
		case mcpclient.CodeAfterTimeout:
			return &Note{Warning, fmt.Sprintf("late response: %s (request #%d) answered after it had timed out; shown on the wire (#%d), not used", ev.Method, ev.Pair, ev.Seq)}
		}
	}
	return nil
}

// AfterExitNote is the note for a response that came after the server's exit, from a
// process that kept its stdout open.
func AfterExitNote(ev *mcpclient.Event) Note {
	return Note{Warning, fmt.Sprintf("response after the server's exit: %s (request #%d) was answered by a process that kept the server's stdout open; shown on its call and on the wire (#%d), not used", ev.Method, ev.Pair, ev.Seq)}
}

// BatchEvents are the elements of a JSON-RPC batch frame (JSON-RPC 2.0 §6; MCP
// 2025-03-26) as events of their own, in order, each with the batch's Seq (its frame on
// the wire), time and direction; trace lines lost before the frame go with the first.
func BatchEvents(ev *mcpclient.Event) []mcpclient.Event {
	if ev.Batch == nil {
		return nil
	}
	out := make([]mcpclient.Event, 0, len(ev.Batch.Elems))
	for _, el := range ev.Batch.Elems {
		out = append(out, mcpclient.Event{Seq: ev.Seq, Time: ev.Time, Dir: ev.Dir, Kind: el.Kind, Raw: el.Raw,
			Size: int64(len(el.Raw)), Offset: ev.Offset, Line: ev.Line,
			Msg: el.Msg, Problems: el.Problems, Pair: el.Pair, Method: el.Method})
	}
	// Trace lines lost before the frame are told once, with its first element.
	for _, p := range ev.Problems {
		if p.Code == mcpclient.CodeTraceLinesLost && len(out) > 0 {
			out[0].Problems = append(append([]mcpclient.Problem(nil), out[0].Problems...), p)
			out[0].LostLines = ev.LostLines
		}
	}
	return out
}
