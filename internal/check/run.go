package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Call is one tool call the user asked for (--call TOOL --args JSON).
type Call struct {
	Tool string
	Args json.RawMessage
}

// Options say which server to check and how.
type Options struct {
	// Server is the session config every connection starts from (command or URL, env,
	// timeout, era, framing); its OnEvent, when set, sees the main session's events only
	// (the recording --record keeps).
	Server mcpclient.Config
	// Target names the server in the report (its argv or URL).
	Target string
	// Skip maps a rule id to the reason it is skipped.
	Skip map[string]string
	// Calls are the tool calls asked for; CallReadOnly adds a call of every tool annotated
	// readOnlyHint: true, with arguments built from its inputSchema.
	Calls        []Call
	CallReadOnly bool
	// MaxReads caps the resources read (default 20); MaxReadBytes the size of a read
	// result that is checked (default 1 MiB; a larger one is reported, not an error).
	MaxReads     int
	MaxReadBytes int
	// Wait is how long the check waits for an answer that should come at once (a raw
	// request's response, the absence of a response to a notification); default 2 s.
	Wait time.Duration
	// Trace is the file the main session is recorded to (--record FILE; Server.OnEvent
	// feeds it), "" when it is not: the report names it beside the events it cites.
	Trace string
	// Record, when set, is called before each other session starts, with the session's
	// name and config: it may hook cfg.OnEvent to record the session, and returns the
	// file ("" when none) and a func the check calls once the session has closed.
	Record func(session string, cfg *mcpclient.Config) (trace string, done func())
	// ShutdownWithin is how long the server has to exit once its stdin closes, and then
	// after SIGTERM; default DefaultShutdownWithin. After an interrupt each step waits
	// InterruptGrace instead.
	ShutdownWithin time.Duration
}

// DefaultShutdownWithin is Options.ShutdownWithin's default: the rule shutdown's "a few
// seconds" (MCP 2025-11-25 basic/lifecycle §Shutdown leaves the time to the client).
const DefaultShutdownWithin = 3 * time.Second

// shortSessionGrace is how long each shutdown step of a short session waits.
const shortSessionGrace = 500 * time.Millisecond

// InterruptGrace is how long each shutdown step waits once the check was interrupted
// (ctrl+c): stdin closed, then SIGTERM, then SIGKILL, each after this long at most, so a
// server that ignores its stdin's end does not keep the user waiting.
const InterruptGrace = 250 * time.Millisecond

func (o *Options) defaults() {
	if o.MaxReads <= 0 {
		o.MaxReads = 20
	}
	if o.MaxReadBytes <= 0 {
		o.MaxReadBytes = 1 << 20
	}
	if o.Wait <= 0 {
		o.Wait = 2 * time.Second
	}
	if o.ShutdownWithin <= 0 {
		o.ShutdownWithin = DefaultShutdownWithin
	}
	if o.Server.Timeout <= 0 {
		o.Server.Timeout = 30 * time.Second
	}
}

// StartError is a server that could not be started or reached, or that exited before it
// answered initialize: there is nothing to check (mcp-inspect check exits 3).
type StartError struct {
	Err    error
	Report *Report // what was found before, the sessions and timing
}

func (e *StartError) Error() string { return "the server could not start: " + e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

// run is one check in progress.
type run struct {
	opt     Options
	rep     *Report
	results map[string]*Result
	wires   []*wire
	main    *wire
	init    *mcpclient.InitializeResult
	// caps is the raw capabilities object, decoded one level.
	caps map[string]json.RawMessage
	// tools, resources, templates and prompts are the listings (raw items), for the reads.
	tools, resources, templates, prompts []json.RawMessage
	// rawIDs are the ids of the requests written raw, whose answers the client does not pair;
	// rawAnswers the main session's seqs of the answers found to them.
	rawIDs     map[string]bool
	rawAnswers map[uint64]bool
	remote     bool
	// revived is set once a fresh copy was tried after the main session's server died
	// (revive.go); reviveErr is why it could not start.
	revived   bool
	reviveErr error
	// mu guards results' contents and wires: the handshake sessions run beside the main one.
	mu sync.Mutex
	// interrupted reports that the check's context ended: what fails after that failed
	// because the check stopped, not because of the server.
	interrupted func() bool
	copies      copies
	// hastened is set (under mu) once the check was interrupted: every session's shutdown
	// is cut to InterruptGrace, those started later too.
	hastened bool
	// itemEvs are the events of the listing whose items are being checked; linted counts
	// the texts the steering lint read; annotated counts the items with annotations.
	itemEvs   []Event
	linted    int
	annotated int
	// prober is the http probes' session (probes), nil until the first probe; unsupported
	// is the answer to unsupportedProbe, once sent.
	prober      *prober
	unsupported *bareAnswer
}

// Run checks the server opt.Server describes. It returns the report, and a *StartError
// when the server could not start (the report then holds what little there is). ctx ends
// the check early (the report so far is returned with ctx's error).
func Run(ctx context.Context, opt Options) (*Report, error) {
	opt.defaults()
	start := time.Now()
	r := &run{opt: opt, rep: &Report{}, results: map[string]*Result{}, rawIDs: map[string]bool{}, rawAnswers: map[uint64]bool{}, remote: opt.Server.URL != ""}
	r.interrupted = func() bool { return ctx.Err() != nil }
	defer context.AfterFunc(ctx, r.hasten)()
	r.rep.Server = Server{Target: opt.Target, Transport: "stdio"}
	if r.remote {
		r.rep.Server.Transport = string(opt.Server.Transport)
		if r.rep.Server.Transport == "" {
			r.rep.Server.Transport = string(mcpclient.TransportHTTP)
		}
	}
	for _, rule := range Rules() {
		res := &Result{Rule: rule}
		if why, ok := opt.Skip[rule.ID]; ok {
			res.Status, res.Reason = StatusSkip, "skipped with --skip: "+why
		} else if rule.StdioOnly && r.remote {
			res.Status, res.Reason = StatusNA, "a stdio rule; the server is remote"
		} else if rule.RemoteOnly && !r.remote {
			res.Status, res.Reason = StatusNA, "a Streamable HTTP rule; the server is on stdio"
		}
		r.results[rule.ID] = res
	}
	err := r.battery(ctx)
	unreached := "not reached"
	var se *StartError
	switch {
	case errors.As(err, &se):
		unreached = "not reached: the server could not start"
	case ctx.Err() != nil:
		unreached = "not reached: the check was interrupted"
	case r.init == nil:
		unreached = "not reached: the handshake did not complete"
	}
	for _, rule := range Rules() {
		res := r.results[rule.ID]
		if res.Status == "" && res.Reason == "" && len(res.Findings) == 0 && len(res.Notes) == 0 {
			res.Status, res.Reason = StatusNA, unreached
		}
		res.settle()
		res.Events = sortEvents(res.Events)
		r.rep.Results = append(r.rep.Results, *res)
	}
	traces := map[string]string{}
	for _, w := range r.wires {
		r.rep.Sessions = append(r.rep.Sessions, Session{Name: w.name, Purpose: purpose(w.name), Events: len(w.all()), Ms: ms(w.elapsed()), Trace: w.trace})
		traces[w.name] = w.trace
	}
	r.rep.nameTraces(traces)
	r.rep.count()
	r.rep.TotalMs = ms(time.Since(start))
	if se != nil {
		se.Report = r.rep
	}
	return r.rep, err
}

// sessionRank orders the sessions in the report.
func sessionRank(name string) int {
	return slices.Index([]string{SessionMain, SessionFramed, SessionRevived, SessionFuture, SessionOldest, SessionDiscover, SessionSecondCopy, SessionHTTP}, name)
}

func purpose(name string) string {
	switch name {
	case SessionMain:
		return "the battery (asks for " + mcpclient.LatestProtocolVersion + " unless --protocol-version says otherwise)"
	case SessionFuture:
		return "initialize asking for " + futureVersion
	case SessionOldest:
		return "initialize asking for " + oldestVersion + ", then a wait before initialized"
	case SessionDiscover:
		return "server/discover (the 2026-07-28 era)"
	case SessionFramed:
		return "the handshake again framed with Content-Length (LSP-style), on a copy of its own, after the server said nothing to newline JSON; then the battery"
	case SessionRevived:
		return "a fresh copy after the main session's server exited: the rest of the battery (one fault, one failure)"
	case SessionHTTP:
		return "plain HTTP requests beside the main session: a hostile Origin and Host, an unknown Mcp-Session-Id, a notification, a GET (the http rules)"
	case SessionSecondCopy:
		return "the main session's handshake on one more copy, beside the main session (a short session got no answer): can the server run twice at once?"
	}
	return ""
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// active reports whether rule id is to be checked (not skipped, applicable).
func (r *run) active(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.activeLocked(id)
}

func (r *run) activeLocked(id string) bool {
	res := r.results[id]
	return res.Status != StatusSkip && res.Status != StatusNA
}

// fail adds a finding at the rule's level (or a lesser one) to rule id.
func (r *run) find(id string, level Level, evs []Event, format string, a ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := r.results[id]
	if !r.activeLocked(id) {
		return
	}
	if r.interrupted != nil && r.interrupted() {
		// Cut off by the interrupt (a "context canceled" error): not the server's failure.
		if len(res.Findings) == 0 {
			res.Status, res.Reason, res.Notes = StatusNA, "not finished: the check was interrupted", nil
		}
		return
	}
	res.Findings = append(res.Findings, Finding{Level: level, Text: fmt.Sprintf(format, a...), Events: sortEvents(evs)})
}

// note adds what was checked to rule id, with the events where.
func (r *run) note(id string, evs []Event, format string, a ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := r.results[id]
	if !r.activeLocked(id) {
		return
	}
	res.Notes = append(res.Notes, Note{Text: fmt.Sprintf(format, a...), Events: sortEvents(evs)})
}

// na marks rule id as not applicable, unless it is skipped or already has findings.
func (r *run) na(id, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := r.results[id]
	if !r.activeLocked(id) || len(res.Findings) > 0 {
		return
	}
	res.Status, res.Reason = StatusNA, why
}

// open starts one session named name with cfg; the main session's events also go to the
// caller's OnEvent.
func (r *run) open(name string, cfg mcpclient.Config) (*wire, error) {
	w := newWire(name)
	if name == SessionMain {
		w.trace = r.opt.Trace
	} else {
		cfg.OnEvent, cfg.OnEvents = nil, nil // the caller's are the main session's
		if r.opt.Record != nil {
			w.trace, w.traceDone = r.opt.Record(name, &cfg)
		}
	}
	prev := cfg.OnEvent
	cfg.OnEvent = func(ev mcpclient.Event) {
		w.observe(ev)
		if prev != nil {
			prev(ev)
		}
	}
	cfg.ShutdownGrace = r.opt.ShutdownWithin
	if name != SessionMain {
		// Only the main session's shutdown is judged: a short one of a server that lingers
		// should not cost the rule's delay twice over, once per session.
		cfg.ShutdownGrace = min(r.opt.ShutdownWithin, shortSessionGrace)
	}
	cfg.Strict = false
	r.mu.Lock()
	r.wires = append(r.wires, w)
	r.mu.Unlock()
	c, err := mcpclient.Start(cfg)
	r.mu.Lock()
	w.client = c
	if c != nil && r.hastened {
		c.Hasten(InterruptGrace)
	}
	r.mu.Unlock()
	if c != nil {
		go func() {
			for range c.Events() {
			}
		}()
	}
	return w, err
}

// hasten cuts every session's shutdown to InterruptGrace: the check was interrupted.
func (r *run) hasten() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hastened = true
	for _, w := range r.wires {
		if w.client != nil {
			w.client.Hasten(InterruptGrace)
		}
	}
}

// elapsed is the session's wall time so far (start to close).
func (w *wire) elapsed() time.Duration {
	evs := w.all()
	if len(evs) == 0 {
		return 0
	}
	return evs[len(evs)-1].Time.Sub(w.start)
}

// battery runs every group in order.
func (r *run) battery(ctx context.Context) error {
	if err := r.lifecycle(ctx); err != nil {
		r.closeMain()
		r.hygiene()
		return err
	}
	var side sync.WaitGroup
	if r.init != nil {
		// The handshake sessions need only the main session's era: they run beside it.
		side.Add(1)
		go func() {
			defer side.Done()
			r.versions(ctx)
			r.discover(ctx)
		}()
		for _, group := range []func(context.Context){r.listings, r.reads, r.robustness, r.modernRules, r.httpRules, r.calls, r.finalPing} {
			if ctx.Err() != nil {
				break // interrupted: the rules not reached say so
			}
			group(ctx)
		}
		if r.prober != nil {
			r.prober.close()
		}
	} else {
		r.versions(ctx)
		r.na("discover", "the main session did not connect")
	}
	// The short sessions end before the main one: they always run beside it, so a server
	// that cannot run twice at once is found whatever its speed (oneCopyOnly).
	side.Wait()
	r.closeMain()
	slices.SortStableFunc(r.wires, func(a, b *wire) int { return sessionRank(a.name) - sessionRank(b.name) })
	r.hygiene()
	return ctx.Err()
}

// closeMain shuts the main session down and checks how the server left.
func (r *run) closeMain() {
	if r.main == nil || r.main.client == nil {
		return
	}
	c := r.main.client
	// A main session started after the first one's server died (revive.go) is recorded
	// like a short one: its trace (and --otlp export) ends after its shutdown's events.
	defer func() {
		if done := r.main.traceDone; done != nil {
			r.main.traceDone = nil
			done()
		}
	}()
	c.Close()
	if r.remote {
		return
	}
	rep := c.Shutdown()
	evs := r.main.all()
	var seqs []uint64
	for _, ev := range evs {
		if ev.Dir == mcpclient.Lifecycle && ev.Life != nil && (ev.Life.Kind == mcpclient.LifeShutdown || ev.Life.Kind == mcpclient.LifeExited) {
			seqs = append(seqs, ev.Seq)
		}
	}
	switch {
	case rep.Lingered():
		r.find("shutdown", Should, r.main.ev(seqs...), "the server was still running %s after its stdin closed: ended by %s", r.opt.ShutdownWithin, rep.Step)
	case rep.Step == "" && r.init == nil:
		r.na("shutdown", "the server exited before the handshake completed: there was no shutdown to check")
	case rep.Step == "":
		r.note("shutdown", r.main.ev(seqs...), "the server had exited before its stdin was closed")
	default:
		r.note("shutdown", r.main.ev(seqs...), "exited %s after its stdin closed", rep.After.Round(time.Millisecond))
	}
}
