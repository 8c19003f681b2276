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

// listState coalesces refreshes of one listing: a list_changed while a listing is in
// flight asks for one more listing after it, never a pile of them.
type listState struct {
	inFlight bool
	dirty    bool
	// changed is set when the listing in flight was caused by list_changed (say so).
	changed bool
	// recent holds the times of the latest list_changed notifications, to notice a server
	// that answers every listing with another list_changed (left alone, the two would
	// list forever); paused stops automatic re-listing until the user lists again.
	recent []time.Time
	paused bool
}

// ListChangedBurst and ListChangedWindow: this many list_changed of one kind within the
// window pause automatic re-listing.
const (
	ListChangedBurst  = 5
	ListChangedWindow = 2 * time.Second
)

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

// Changed answers a notifications/…/list_changed of l that arrived at at: send reports
// whether to list l now (Refresh's coalescing decides). A server sending them in a storm
// (ListChangedBurst within ListChangedWindow) pauses automatic re-listing until the user
// lists again (UserRefresh), and note says so. Once paused, notifications are ignored.
func (ls *Lists) Changed(l List, at time.Time) (send bool, note *Note) {
	st := ls.state(l)
	if st == nil || st.paused {
		return false, nil
	}
	st.recent = append(st.recent, at)
	if len(st.recent) > ListChangedBurst {
		st.recent = st.recent[len(st.recent)-ListChangedBurst:]
	}
	if len(st.recent) == ListChangedBurst && at.Sub(st.recent[0]) < ListChangedWindow {
		st.paused = true
		return false, &Note{Warning, fmt.Sprintf("the server sent notifications/%s/list_changed %d times within %s (it may answer every listing with another one): automatic re-listing of %s is paused; r lists again", l, ListChangedBurst, ListChangedWindow, l)}
	}
	return ls.Refresh(l), nil
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
	st.paused, st.recent = false, nil
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
