package mcpclient

import (
	"fmt"
	"strconv"
	"time"
)

// sameValue finds the pending request whose id has key's value but the other JSON type
// (2 for "2", "2" for 2): JSON-RPC 2.0 §5 pairs a response by value and type, so such a
// response answers nothing, yet it is almost surely meant for that request.
func (p *Pairer) sameValue(key string) (string, bool) {
	other, ok := otherTypeKey(key)
	if !ok {
		return "", false
	}
	_, pending := p.pending[other]
	return other, pending
}

// otherTypeKey is the id key of key's value in the other JSON type: a number's string
// form, or the number a string of digits spells. ok is false when there is none.
func otherTypeKey(key string) (string, bool) {
	if s, err := strconv.Unquote(key); err == nil && len(key) > 0 && key[0] == '"' {
		if _, err := strconv.ParseInt(s, 10, 64); err == nil && strconv.Quote(s) == key {
			return s, true
		}
		return "", false
	}
	if _, err := strconv.ParseInt(key, 10, 64); err == nil {
		return strconv.Quote(key), true
	}
	return "", false
}

// idTypeMismatchText names a response whose id got matches pending request id want by
// value only.
func idTypeMismatchText(got, want string) string {
	return fmt.Sprintf("id type mismatch: response id %s (%s) has the value of pending request id %s (%s) but not its JSON type; JSON-RPC pairs by value and type, so it answers nothing", got, idType(got), want, idType(want))
}

// idType names an id key's JSON type.
func idType(key string) string {
	if len(key) > 0 && key[0] == '"' {
		return "a string"
	}
	return "a number"
}

// IDTypeMismatchError fails a request whose answer came with the request id's value in
// the other JSON type ("2" for 2). JSON-RPC 2.0 §5 pairs by value and type, so no client
// takes that response as the answer; waiting for --timeout would only hide what is known.
type IDTypeMismatchError struct {
	// Request names the request ("request id 2 (tools/list)").
	Request string
	// Got is the response's id as written (`"2"`); Want the request's (`2`).
	Got, Want string
	// Seq is the response's event.
	Seq uint64
}

func (e *IDTypeMismatchError) Error() string {
	return fmt.Sprintf("%s: the server answered with id %s (%s, event #%d), the value of this request's id %s (%s) but not its JSON type; JSON-RPC pairs by value and type, so no client takes it as the answer", e.Request, e.Got, idType(e.Got), e.Seq, e.Want, idType(e.Want))
}

// failMismatchLocked ends the wait of the pending request a type-mismatched response was
// meant for (see IDTypeMismatchError). It does nothing for any other stray.
func (c *Client) failMismatchLocked(m *Message, probs []Problem, seq uint64) {
	if m == nil || !HasCode(probs, CodeIDTypeMismatch) {
		return
	}
	got := idKey(m.ID)
	want, ok := otherTypeKey(got)
	if !ok {
		return
	}
	p, ok := c.pending[want]
	if !ok {
		return
	}
	c.dropLocked(p)
	p.ch <- reqOutcome{err: &IDTypeMismatchError{Request: p.label(), Got: got, Want: want, Seq: seq}}
}

// stray is a response that answered no pending request: an unknown id, or one of the
// right value but the wrong JSON type. A timeout names those that came while it waited.
type stray struct {
	at       time.Time
	seq      uint64
	key      string
	mismatch bool
}

// maxStrays bounds the strays a client remembers.
const maxStrays = 16

// noteStrayLocked remembers a response the client could not route when it was an unknown
// id or an id type mismatch (duplicates and late answers name their request already).
func (c *Client) noteStrayLocked(m *Message, probs []Problem, at time.Time, seq uint64) {
	if m == nil {
		return
	}
	mismatch := HasCode(probs, CodeIDTypeMismatch)
	if !mismatch && !HasCode(probs, CodeUnknownID) {
		return
	}
	if len(c.strays) == maxStrays {
		c.strays = append(c.strays[:0], c.strays[1:]...)
	}
	c.strays = append(c.strays, stray{at: at, seq: seq, key: idKey(m.ID), mismatch: mismatch})
}

// straysSince describes the strays that arrived at or after since, oldest first, for a
// TimeoutError: "a response with id 0 arrived (event #5): no request has that id".
func (c *Client) straysSince(since time.Time) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, s := range c.strays {
		if s.at.Before(since) {
			continue
		}
		what := "no request has that id"
		if s.mismatch {
			other, _ := otherTypeKey(s.key)
			what = fmt.Sprintf("an id type mismatch: %s is %s, request id %s %s", s.key, idType(s.key), other, idType(other))
		}
		out = append(out, fmt.Sprintf("a response with id %s arrived (event #%d): %s", s.key, s.seq, what))
	}
	return out
}
