package session

import (
	"fmt"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
)

// List names a kind of listing.
type List uint8

// Listings. Resources covers resources/list and resources/templates/list together (one
// refresh lists both).
const (
	Tools List = iota + 1
	Resources
	Prompts
)

// String is the listing's plural noun, as notes use it: "tools", "resources", "prompts".
func (l List) String() string {
	switch l {
	case Tools:
		return "tools"
	case Resources:
		return "resources"
	case Prompts:
		return "prompts"
	}
	return fmt.Sprintf("List(%d)", uint8(l))
}

// singular is the noun for one item: "tool", "resource", "prompt".
func (l List) singular() string {
	s := l.String()
	return s[:len(s)-1]
}

// listState coalesces refreshes of one listing: list_changed notifications wait for a
// quiet interval and then ask for one listing; one arriving while a listing is in flight
// asks for one more after it, never a pile of them.
type listState struct {
	inFlight bool
	dirty    bool
	// changed is set when the listing in flight was caused by list_changed (say so).
	changed bool
	// pendingSince is the first list_changed not listed yet (zero: none), last the latest;
	// armed says the caller holds a timer that will call Due.
	pendingSince, last time.Time
	armed              bool
	// heard holds the times of the latest list_changed notifications and fired those of
	// the re-listings they caused, to notice a server that answers every listing with
	// another list_changed (left alone, the two would list forever); paused stops
	// automatic re-listing until the user lists again.
	heard, fired []time.Time
	paused       bool
}

// ListQuiet is how long list_changed notifications of one kind must pause before the
// listing they ask for goes out (a server that sends five in 30 ms gets one listing);
// ListMaxWait bounds the wait under a steady stream of them.
const (
	ListQuiet   = 200 * time.Millisecond
	ListMaxWait = time.Second
)

// ListChangedBurst and ListChangedWindow: this many re-listings caused by list_changed
// within the window pause automatic re-listing (with ListQuiet between them, only a server
// that keeps sending list_changed as it is listed reaches it).
const (
	ListChangedBurst  = 5
	ListChangedWindow = 2 * time.Second
)

// keepHeard bounds listState.heard (the rate in the storm note counts at most this many).
const keepHeard = 256

// Lists is the refresh bookkeeping of the tools, resources and prompts listings:
// coalescing and the list_changed storm guard. It decides; the caller sends the listing
// (when a method says so) and reports its end with Listed. The zero value is usable;
// Ready is called after the handshake.
type Lists struct {
	st [Prompts + 1]listState
	// ready is set once the handshake is done: nothing is listed again before.
	ready bool
}

// Ready marks the handshake done: from now on list_changed lists again.
func (ls *Lists) Ready() { ls.ready = true }

func (ls *Lists) state(l List) *listState {
	if l < Tools || l > Prompts {
		return nil
	}
	return &ls.st[l]
}

// Start marks a first listing of l as sent (after the handshake).
func (ls *Lists) Start(l List) {
	if st := ls.state(l); st != nil {
		st.inFlight = true
	}
}

// InFlight reports whether a listing of l is on its way.
func (ls *Lists) InFlight(l List) bool {
	st := ls.state(l)
	return st != nil && st.inFlight
}

// Dirty reports whether a refresh of l was asked for while its listing was in flight
// (one more listing follows it).
func (ls *Lists) Dirty(l List) bool {
	st := ls.state(l)
	return st != nil && st.dirty
}

// Paused reports whether automatic re-listing of l is paused by the storm guard.
func (ls *Lists) Paused(l List) bool {
	st := ls.state(l)
	return st != nil && st.paused
}

// Changed takes a notifications/…/list_changed of l that arrived at at. The listing it asks
// for waits for ListQuiet without another (Due decides): arm > 0 asks the caller to call
// Due(l, now) after arm, when no call is pending already. Paused kinds (the storm guard)
// and notifications before Ready are ignored.
func (ls *Lists) Changed(l List, at time.Time) (arm time.Duration) {
	st := ls.state(l)
	if st == nil || st.paused || !ls.ready {
		return 0
	}
	st.heard = append(st.heard, at)
	if len(st.heard) > keepHeard {
		st.heard = st.heard[len(st.heard)-keepHeard:]
	}
	if st.pendingSince.IsZero() {
		st.pendingSince = at
	}
	st.last = at
	if st.armed {
		return 0
	}
	st.armed = true
	return ListQuiet
}

// Due is the caller's timer for l firing at now: send reports whether to list l now
// (ListQuiet passed since the last list_changed, or ListMaxWait since the first one not
// listed; then Refresh's coalescing decides), arm > 0 asks for another call after arm.
// When the listing would be the ListChangedBurst-th within ListChangedWindow, automatic
// re-listing pauses until the user lists again (UserRefresh), and note says so with the
// rate the server sent them at.
func (ls *Lists) Due(l List, now time.Time) (send bool, arm time.Duration, note *Note) {
	st := ls.state(l)
	if st == nil || !st.armed {
		return false, 0, nil
	}
	st.armed = false
	if st.paused || st.pendingSince.IsZero() {
		return false, 0, nil
	}
	quietAt, latest := st.last.Add(ListQuiet), st.pendingSince.Add(ListMaxWait)
	if now.Before(quietAt) && now.Before(latest) {
		st.armed = true
		return false, min(quietAt.Sub(now), latest.Sub(now)), nil
	}
	st.pendingSince, st.last = time.Time{}, time.Time{}
	st.fired = append(st.fired, now)
	if len(st.fired) > ListChangedBurst {
		st.fired = st.fired[len(st.fired)-ListChangedBurst:]
	}
	if len(st.fired) == ListChangedBurst && now.Sub(st.fired[0]) < ListChangedWindow {
		st.paused = true
		return false, 0, &Note{Warning, st.stormText(l, now)}
	}
	return ls.Refresh(l), 0, nil
}

// stormText names the list_changed loop once: how many the server sent over how long and
// the rate, and how many listings in a row brought another.
func (st *listState) stormText(l List, now time.Time) string {
	from := st.fired[0].Add(-ListMaxWait)
	n, first := 0, now
	for _, t := range st.heard {
		if !t.Before(from) {
			n++
			if t.Before(first) {
				first = t
			}
		}
	}
	span := max(now.Sub(first), time.Millisecond)
	return fmt.Sprintf("the server sent notifications/%s/list_changed %d times in %s (%.0f/s), and each of the last %d listings of %s brought another, though each waited for %s of quiet (it may answer every listing with another one): automatic re-listing of %s is paused; r lists again",
		l, n, span.Round(10*time.Millisecond), float64(n)/span.Seconds(), ListChangedBurst-1, l, ListQuiet, l)
}

// Refresh asks for l again after list_changed, coalescing bursts: send reports whether to
// list now; a listing in flight gets one more after it instead (Listed says so). The
// listing's end is announced (Listed's note). Before Ready it does nothing.
func (ls *Lists) Refresh(l List) (send bool) {
	st := ls.state(l)
	if st == nil || !ls.ready {
		return false
	}
	st.changed = true
	if st.inFlight {
		st.dirty = true
		return false
	}
	st.inFlight = true
	return true
}

// UserRefresh is the user asking for l (the r key): it clears the storm guard and says
// whether to list now. Its end is not announced (the pane says how it went). While a
// listing is in flight, tools get one more after it (Listed's again); resources and
// prompts take the one in flight.
func (ls *Lists) UserRefresh(l List) (send bool) {
	st := ls.state(l)
	if st == nil {
		return false
	}
	st.paused, st.heard, st.fired = false, nil, nil
	if l == Tools {
		send = ls.Refresh(l)
		st.changed = false
		return send
	}
	st.changed = false
	if st.inFlight {
		return false
	}
	st.inFlight = true
	return true
}

// Listed closes a listing of l that gave n items or failed with err: note says what
// changed when list_changed caused it (changes, from ListChanges, when known); again
// reports whether to list l once more (a list_changed came meanwhile; Refresh has marked
// it in flight).
func (ls *Lists) Listed(l List, n int, err error, changes string) (again bool, note *Note) {
	st := ls.state(l)
	if st == nil {
		return false, nil
	}
	st.inFlight = false
	if st.changed {
		st.changed = false
		if err != nil {
			note = &Note{Warning, fmt.Sprintf("%s list changed; listing it again failed: %s", l, err)}
		} else {
			text := fmt.Sprintf("%s list changed: listed again, %s", l, jsontext.Count(n, l.singular(), l.String()))
			if changes != "" {
				text += ": " + changes
			}
			note = &Note{Info, text}
		}
	}
	if st.dirty {
		st.dirty = false
		return ls.Refresh(l), note
	}
	return false, note
}

// ListChangedOf is the listing a list_changed notification method is about (0, false for
// another method).
func ListChangedOf(method string) (List, bool) {
	switch method {
	case "notifications/tools/list_changed":
		return Tools, true
	case "notifications/resources/list_changed":
		return Resources, true
	case "notifications/prompts/list_changed":
		return Prompts, true
	}
	return 0, false
}
