package session

import (
	"context"
	"encoding/json"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Session is a session as its owner reads it, the same way live or recorded: its state,
// what each event of its timeline asks of the owner (Observe), the listings' refresh,
// the tasks, the requests in flight, the roots offered. *Live and *Recorded implement it;
// only *Live sends (Sender), so a recorded session cannot send by its type.
type Session interface {
	// CanSend reports whether requests can be sent (false for a recording or a tap seen
	// from outside: what happened is shown and no action is offered).
	CanSend() bool
	// State is the handshake, lifecycle and connection facts, kept by Observe.
	State() *State
	// Observe follows one event of the timeline, in order, and says what it asks of the
	// owner. A batch frame's elements are followed one by one (BatchEvents).
	Observe(ev *mcpclient.Event) Reaction
	// Features are the client features the session advertises (zero when recorded).
	Features() ClientFeatures
	// Requests is the queue of server requests waiting for an answer (nil when recorded).
	Requests() *RequestQueue
	// Lists is the refresh bookkeeping of the listings.
	Lists() *Lists
	// Tasks are the tasks the session follows (recorded: the tasks the events show).
	Tasks() *Tasks
	// Inflight is the table of requests started outside a tools/call.
	Inflight() *Inflight
	// Roots are the roots the session offers (none when recorded).
	Roots() *Roots
}

// Sender is a session that sends: the live one. Its Conn methods and Handshake, List and
// Call do I/O and may run on any goroutine; the others change state and return at once.
type Sender interface {
	Session
	Conn
	// Handshake opens the session (Connect); Connected records the outcome and says what
	// to list first.
	Handshake(ctx context.Context) Handshake
	Connected(h Handshake) (first []List, listTasks bool)
	// List fetches one listing (report its end with Lists().Listed); FetchPage one page of
	// a list method.
	List(ctx context.Context, l List) Listing
	FetchPage(ctx context.Context, method, cursor string) (json.RawMessage, error)
	// Call sends tools/call and follows its rounds (MCP 2026-07-28 basic/patterns/mrtr).
	Call(ctx context.Context, name string, args json.RawMessage, sent chan<- uint64) CallResult
	// OpenListen (re)opens the modern subscriptions/listen stream; Stream is its lifecycle.
	OpenListen(subs []string) (gen int, ctx context.Context, f mcpclient.ListenFilter, ok bool)
	Stream() *Listen
	// StartOp registers a request started outside a tools/call.
	StartOp(method, target string) (*Op, context.Context)
	// RootsChanged reports whether a change of roots is announced to the server.
	RootsChanged() bool
	// LogLevelNote is the note after logging/setLevel was answered.
	LogLevelNote(level string, err error) Note
	// Close ends what the session still runs and answers the open server requests.
	Close(open []*Inbound)
}

// The live session sends; the recorded one only reads.
var (
	_ Sender  = (*Live)(nil)
	_ Session = (*Recorded)(nil)
)

// Handshake is the outcome of a session's handshake: its result, or why it failed, and
// the HTTP session id it opened ("" for none).
type Handshake struct {
	Result    *mcpclient.InitializeResult
	Err       error
	SessionID string
}

// Listing is a complete listing of one kind, live or recorded: the items (Tools,
// Resources and Templates, or Prompts by List), the warnings of the listing, and the error
// that cut it (the items of the pages before are kept). A Resources listing carries the
// resources and the templates both; TemplatesErr is the templates listing's error.
type Listing struct {
	List         List
	Tools        []mcpclient.Tool
	Resources    []mcpclient.Resource
	Templates    []mcpclient.ResourceTemplate
	Prompts      []mcpclient.Prompt
	Warnings     []string
	Err          error
	TemplatesErr error
	// Repeats are the items a later page repeated, merged into one entry (mcpclient.Pager).
	Repeats []mcpclient.Repeat
}

// Len is how many items the listing holds.
func (l *Listing) Len() int {
	return len(l.Tools) + len(l.Resources) + len(l.Templates) + len(l.Prompts)
}

// Subscription is a change of a resource's subscription: URI subscribed (On) or not.
type Subscription struct {
	URI string
	On  bool
}
