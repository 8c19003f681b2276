package session

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Conn is what a live session asks of its client. *mcpclient.Client implements it over
// any transport; tests use fakes.
type Conn interface {
	// Connect opens the session in the configured era (legacy initialize, modern
	// server/discover, or the auto probe).
	Connect(ctx context.Context) (*mcpclient.InitializeResult, error)
	// Request sends any request and waits for its response (RequestOptions.OnSent tells
	// each round's request Seq).
	Request(ctx context.Context, method string, params any, opt *mcpclient.RequestOptions) (*mcpclient.Response, error)

	ListTools(ctx context.Context) ([]mcpclient.Tool, []string, error)
	ListResources(ctx context.Context) ([]mcpclient.Resource, []string, error)
	ListResourceTemplates(ctx context.Context) ([]mcpclient.ResourceTemplate, []string, error)
	ReadResource(ctx context.Context, uri string) (*mcpclient.ReadResourceResult, *mcpclient.Response, error)
	Subscribe(ctx context.Context, uri string) error
	Unsubscribe(ctx context.Context, uri string) error
	Listen(ctx context.Context, f mcpclient.ListenFilter) (*mcpclient.Response, error)

	ListPrompts(ctx context.Context) ([]mcpclient.Prompt, []string, error)
	GetPrompt(ctx context.Context, name string, args map[string]string) (*mcpclient.GetPromptResult, *mcpclient.Response, error)
	Complete(ctx context.Context, ref mcpclient.CompletionRef, arg, value string, context map[string]string) (*mcpclient.Completion, error)

	SetLogLevel(ctx context.Context, level string) error
	Ping(ctx context.Context) (time.Duration, error)
	NotifyRootsChanged() error

	CallToolAsTask(ctx context.Context, name string, args json.RawMessage, ttlMs int64) (*mcpclient.Task, *mcpclient.Response, error)
	GetTask(ctx context.Context, id string) (*mcpclient.Task, error)
	TaskResult(ctx context.Context, id string) (*mcpclient.Response, error)
	CancelTask(ctx context.Context, id string) (*mcpclient.Task, error)
	ListTasks(ctx context.Context) ([]mcpclient.Task, []string, error)
}

// The live client is a Conn.
var _ Conn = (*mcpclient.Client)(nil)

// Live is a session with a server: its client (Conn, whose methods it has) and what the
// session keeps beyond one request: features, the server-request queue, roots, list
// refresh, the in-flight table, tasks and the listen stream.
//
// Its state belongs to one goroutine (a UI's update loop): the methods that change it
// return at once. The Conn methods and Handshake, List and Call do I/O and may run on
// any goroutine; they touch no state.
type Live struct {
	Conn
	ctx      context.Context
	now      func() time.Time
	features ClientFeatures
	requests *RequestQueue
	state    State
	roots    Roots
	lists    Lists
	inflight *Inflight
	tasks    *Tasks
	listen   Listen
}

// NewLive makes the session of conn, whose configuration came from f.Configure(cfg,
// requests). ctx bounds every request the session sends on its own; now is its clock
// (time.Now when nil).
func NewLive(ctx context.Context, conn Conn, f ClientFeatures, requests *RequestQueue, now func() time.Time) *Live {
	if now == nil {
		now = time.Now
	}
	return &Live{Conn: conn, ctx: ctx, now: now, features: f, requests: requests, state: NewState(), inflight: NewInflight(), tasks: NewTasks(ctx, conn, f)}
}

// CanSend is true: a live session sends.
func (s *Live) CanSend() bool { return true }

// State is the handshake and lifecycle facts (Connected and Observe keep them).
func (s *Live) State() *State { return &s.state }

// Features are the client features the session advertises.
func (s *Live) Features() ClientFeatures { return s.features }

// Requests is the queue of server requests waiting for the user.
func (s *Live) Requests() *RequestQueue { return s.requests }

// Roots are the roots the session offers.
func (s *Live) Roots() *Roots { return &s.roots }

// Lists is the refresh bookkeeping of the listings.
func (s *Live) Lists() *Lists { return &s.lists }

// Inflight is the table of requests started outside the Call tab.
func (s *Live) Inflight() *Inflight { return s.inflight }

// Tasks are the tasks the session follows.
func (s *Live) Tasks() *Tasks { return s.tasks }

// Stream is the subscriptions/listen lifecycle.
func (s *Live) Stream() *Listen { return &s.listen }

// Handshake opens the session (Connect) and tells the HTTP session id it opened. It does
// I/O; Connected records the outcome.
func (s *Live) Handshake(ctx context.Context) Handshake {
	res, err := s.Connect(ctx)
	h := Handshake{Result: res, Err: err}
	if c, ok := s.Conn.(interface{ SessionID() string }); ok {
		h.SessionID = c.SessionID()
	}
	return h
}

// Connected records the handshake's outcome and says what to list first: tools, and
// resources and prompts when the server offers them (each marked in flight); listTasks
// when the tasks capability offers tasks/list. A modern session then opens its listen
// stream (OpenListen).
func (s *Live) Connected(h Handshake) (first []List, listTasks bool) {
	s.state.Handshook(h)
	if h.Err != nil || h.Result == nil {
		return nil, false
	}
	s.lists.Ready()
	first = []List{Tools}
	if h.Result.Caps.Resources != nil {
		first = append(first, Resources)
	}
	if h.Result.Caps.Prompts != nil {
		first = append(first, Prompts)
	}
	for _, l := range first {
		s.lists.Start(l)
	}
	return first, TaskCapList(h.Result.Caps.Tasks)
}

// List fetches one listing: tools, resources with their templates, or prompts. It does
// I/O; report its end with Lists().Listed.
func (s *Live) List(ctx context.Context, l List) Listing {
	if pl, ok := s.Conn.(pagedLister); ok {
		return listByPages(ctx, pl, l)
	}
	out := Listing{List: l}
	switch l {
	case Tools:
		out.Tools, out.Warnings, out.Err = s.ListTools(ctx)
	case Resources:
		var w2 []string
		out.Resources, out.Warnings, out.Err = s.ListResources(ctx)
		out.Templates, w2, out.TemplatesErr = s.ListResourceTemplates(ctx)
		out.Warnings = append(out.Warnings, w2...)
	case Prompts:
		out.Prompts, out.Warnings, out.Err = s.ListPrompts(ctx)
	}
	return out
}

// OpenListen (re)opens the modern subscriptions/listen stream with the list changes the
// server offers and the resources in subs: the caller runs Listen(ctx, f) and reports its
// end with Stream().Ended(gen, …). ok is false when there is nothing to listen for.
func (s *Live) OpenListen(subs []string) (gen int, ctx context.Context, f mcpclient.ListenFilter, ok bool) {
	f, _ = ListenFilter(s.state.Caps(), subs)
	gen, ctx, ok = s.listen.Open(s.ctx, f)
	return gen, ctx, f, ok
}

// StartOp registers a request the user starts outside the Call tab (resources/read,
// prompts/get, …) and gives the context to send it with.
func (s *Live) StartOp(method, target string) (*Op, context.Context) {
	return s.inflight.Start(s.ctx, method, target, s.now())
}

// RootsChanged reports whether a change of roots is to be announced to the server with
// NotifyRootsChanged (the legacy era, roots on, after the handshake).
func (s *Live) RootsChanged() bool {
	return NotifyChanged(s.features, s.state.Era(), s.state.Init != nil)
}

// LogLevelNote is the note after logging/setLevel level was answered with err: a modern
// session sends the level in each request's _meta instead.
func (s *Live) LogLevelNote(level string, err error) Note {
	switch {
	case err != nil:
		return Note{Error, fmt.Sprintf("setting the log level to %s failed: %s", level, err)}
	case s.state.Era() == mcpclient.EraModern:
		return Note{Info, "log level " + level + ": sent in each request's _meta from now on (modern era)"}
	}
	return Note{Info, "logging/setLevel " + level + " accepted"}
}

// PingNote is the note after a ping took rtt or failed with err.
func PingNote(rtt time.Duration, err error) Note {
	if err != nil {
		return Note{Error, "ping failed: " + err.Error()}
	}
	return Note{Info, "ping: " + rtt.Round(10*time.Microsecond).String() + " round trip"}
}

// Close ends what the session still runs: ops, the listen streams, and the server
// requests in open (answered -32603). The client itself is its owner's to close.
func (s *Live) Close(open []*Inbound) {
	s.inflight.CancelAll()
	s.listen.Stop()
	s.tasks.StopAll()
	Quitting(open)
}

// CallResult is how a tools/call ended: its result (Res), or the task it became (Task;
// follow it with Tasks().Created), or Err; Resp is the final response, whose result Res is
// decoded from.
type CallResult struct {
	Res  *mcpclient.CallToolResult
	Task *mcpclient.Task
	Resp *mcpclient.Response
	Err  error
	// Rounds counts the tools/call requests sent (more than one when the server answered
	// input_required, MCP 2026-07-28 basic/patterns/mrtr); FirstSeq is the first one's
	// Seq; Total is the time from the first request's write to the final response (set
	// only with Resp, not for a task).
	Rounds   int
	FirstSeq uint64
	Total    time.Duration
}

// Call runs tools/call (MCP 2025-11-25 server/tools) through Request; ctx is the call's
// own (cancelling it cancels the call). Each request it sends reports its Seq on sent,
// never blocking; sent is closed when the call ends. It does I/O.
func (s *Live) Call(ctx context.Context, name string, args json.RawMessage, sent chan<- uint64) CallResult {
	defer close(sent)
	// OnSent runs in this goroutine (inside Request), once per round.
	var rounds int
	var firstSeq uint64
	var firstAt, lastAt time.Time
	opt := &mcpclient.RequestOptions{OnSent: func(seq uint64, _ json.RawMessage) {
		rounds++
		lastAt = s.now()
		if firstSeq == 0 {
			firstSeq, firstAt = seq, lastAt
		}
		select {
		case sent <- seq:
		default:
		}
	}}
	resp, err := s.Request(ctx, "tools/call", mcpclient.CallToolParams(name, args), opt)
	done := func(r CallResult) CallResult {
		r.Rounds, r.FirstSeq = rounds, firstSeq
		if resp != nil && rounds > 0 {
			// The final round's round trip plus the rounds before it (their input dialogs
			// included): what the user waited for the result.
			r.Total = lastAt.Sub(firstAt) + resp.Elapsed
		}
		return r
	}
	if err != nil {
		return done(CallResult{Resp: resp, Err: err})
	}
	res, t, err := mcpclient.DecodeCallResult(resp)
	switch {
	case err != nil:
		return done(CallResult{Resp: resp, Err: err})
	case t != nil:
		// A modern CreateTaskResult is not the call's result: the task is followed.
		return CallResult{Task: t, Resp: resp}
	}
	return done(CallResult{Res: res, Resp: resp})
}
