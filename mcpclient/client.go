package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/proc"
)

// Config says how to start and talk to a stdio MCP server. Zero values take the defaults
// named on each field.
type Config struct {
	// Command is the executable, used verbatim when it contains a slash, else looked up in PATH.
	Command string
	// Args go to the child exactly as given: no shell, no whitespace splitting (case B22).
	Args []string
	// Env holds KEY=VALUE entries added over the inherited environment (later ones win).
	Env []string
	// Dir is the child's working directory; empty means ours.
	Dir string
	// ProtocolVersion is sent in initialize; default LatestProtocolVersion.
	ProtocolVersion string
	// ClientInfo is sent in initialize; default {mcp-inspect, dev}.
	ClientInfo Implementation
	// Capabilities is the client capabilities object sent in initialize; default {}.
	Capabilities json.RawMessage
	// Timeout is the per-request timeout, reset by each progress notification for the
	// request; default 60 s. MaxTimeout caps a request even with progress; default 10 min.
	Timeout    time.Duration
	MaxTimeout time.Duration
	// MaxMessage is the longest stdout frame kept whole, in bytes; default DefaultMaxMessage.
	MaxMessage int
	// ShutdownGrace is how long Close waits after closing stdin, and again after SIGTERM,
	// before escalating; default 2 s.
	ShutdownGrace time.Duration
	// StderrTail is how many stderr lines an ExitError carries; default 20.
	StderrTail int
	// Strict stops the session at the first protocol violation the server commits (a frame
	// with a Warning problem): pending and later requests fail with a *ViolationError, and the
	// server is shut down.
	Strict bool
	// Era selects the protocol era; default EraLegacy.
	Era Era
	// NoTasksExtension leaves extensions["io.modelcontextprotocol/tasks"] out of the modern
	// client capabilities (declared by default; see tasksext.go).
	NoTasksExtension bool
	// OnEvent, when set, is called with every event, in order, from one goroutine of its own,
	// independent of how fast Events is read: a recorder uses it so a slow UI never delays the
	// trace. It must not call back into the Client.
	OnEvent func(Event)
	// CallerReads lets the caller that just wrote a request read the server's stdout itself
	// with blocking system calls and handle what it reads, instead of waking the reader
	// goroutine and being handed the response (see leader.go): fewer thread wake-ups per
	// call, for a load generator at low concurrency. Events, pairing and recording are the
	// same. Linux only; elsewhere it is ignored.
	CallerReads bool
	// OnServerRequest, when set, receives each server→client request other than ping; it
	// must eventually call Respond or Fail on it. When nil, every such request is answered at
	// once with -32601 Method not found (MCP basic/index: requests are always answered).
	OnServerRequest func(*ServerRequest)
}

func (c *Config) defaults() {
	if c.ProtocolVersion == "" {
		c.ProtocolVersion = LatestProtocolVersion
	}
	if c.ClientInfo.Name == "" {
		c.ClientInfo = Implementation{Name: "mcp-inspect", Version: "dev"}
	}
	if len(c.Capabilities) == 0 {
		c.Capabilities = json.RawMessage(`{}`)
	}
	if c.Timeout <= 0 {
		c.Timeout = 60 * time.Second
	}
	if c.MaxTimeout <= 0 {
		c.MaxTimeout = 10 * time.Minute
	}
	if c.MaxTimeout < c.Timeout {
		c.MaxTimeout = c.Timeout
	}
	if c.MaxMessage <= 0 {
		c.MaxMessage = DefaultMaxMessage
	}
	if c.ShutdownGrace <= 0 {
		c.ShutdownGrace = 2 * time.Second
	}
	if c.Era == "" {
		c.Era = EraLegacy
	}
	if c.StderrTail <= 0 {
		c.StderrTail = 20
	}
}

// State is the session's state.
type State uint8

const (
	// StateStarting: spawned, handshake not finished.
	StateStarting State = iota + 1
	// StateReady: initialize done (legacy) — requests flow.
	StateReady
	// StateDead: the server exited, closed stdout, or could not start.
	StateDead
	// StateClosed: Close was called.
	StateClosed
)

// String names the state for the status bar.
func (s State) String() string {
	switch s {
	case StateStarting:
		return "starting"
	case StateReady:
		return "connected"
	case StateDead:
		return "dead"
	case StateClosed:
		return "closed"
	}
	return "?"
}

// Response is what came back for a request: the envelope, the response event's Seq, the
// request's Seq, and the round-trip time.
type Response struct {
	Msg        *Message
	Seq        uint64
	RequestSeq uint64
	Elapsed    time.Duration
}

type pendingReq struct {
	id       string // canonical id key
	method   string
	num      int64 // the id
	params   any   // kept for label, which is built only when an error needs it
	seq      uint64
	sent     time.Time
	ch       chan reqOutcome
	progress chan struct{}
}

// label names the request in errors by its JSON-RPC id: "request id 3 (tools/call crash)"
// (the UI numbers events "#N"; "id" keeps the two apart).
func (p *pendingReq) label() string {
	if l := requestLabel(p.method, p.params); l != "" {
		return fmt.Sprintf("request id %d (%s %s)", p.num, p.method, l)
	}
	return fmt.Sprintf("request id %d (%s)", p.num, p.method)
}

type reqOutcome struct {
	resp *Response
	err  error
}

// Client is one session with one spawned stdio server. Its methods are safe for concurrent
// use; events come out of Events in order.
type Client struct {
	cfg  Config
	argv []string
	cmd  *exec.Cmd
	pid  int

	q      *eventQueue
	out    chan Event
	obs    *eventQueue // feeds Config.OnEvent; nil without one
	writer *lineWriter
	lr     *leaderReader // reads stdout with Config.CallerReads; nil: readStdout does

	mu            sync.Mutex
	seq           uint64
	nextID        int64
	state         State
	pending       map[string]*pendingReq // requests awaiting their response, by id key
	bySeq         map[uint64]*pendingReq // the same, by request event Seq (progress resets)
	pairer        *Pairer                // pairing and history problems, shared with traces
	awaitingUser  int                    // server→client requests not answered yet
	dead          *ExitError
	stderrTail    []string
	era           Era
	violation     *ViolationError
	modernVersion string
	modernCaps    json.RawMessage // Capabilities plus the modern extensions, built once
	logLevel      string
	stdinOff      int64
	stdinLine     int64

	stdoutEOF  chan struct{}
	stderrEOF  chan struct{}
	waitDone   chan struct{}
	exitDone   chan struct{}
	closeOnce  sync.Once
	exitCode   int
	exitSignal string
	watchdog   *proc.Watchdog

	// answering counts the goroutines handing server requests to OnServerRequest (or
	// answering ping / -32601 themselves). Close lets them finish before it closes stdin, so
	// an answer given at once (headless, ping) to a request that came just before Close is
	// written, not lost; the TUI only queues the request there and returns. (A counter,
	// not a WaitGroup: a request may still arrive while Close waits.)
	answering atomic.Int64
}

// Start spawns the server in its own process group and begins reading its stdout and stderr.
// On a spawn failure it returns a *SpawnError; the event stream then holds one
// LifeSpawnFailed event and is closed.
func Start(cfg Config) (*Client, error) {
	cfg.defaults()
	c := &Client{
		cfg:       cfg,
		argv:      append([]string{cfg.Command}, cfg.Args...),
		state:     StateStarting,
		pending:   map[string]*pendingReq{},
		bySeq:     map[uint64]*pendingReq{},
		pairer:    NewPairer(),
		era:       EraLegacy,
		stdoutEOF: make(chan struct{}),
		stderrEOF: make(chan struct{}),
		waitDone:  make(chan struct{}),
		exitDone:  make(chan struct{}),
	}
	c.q, c.out = newChanQueue()
	if cfg.OnEvent != nil {
		c.obs = newEventQueue(cfg.OnEvent, nil)
	}
	if err := c.spawn(); err != nil {
		c.state = StateDead
		c.dead = &ExitError{ExitCode: -1}
		c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeSpawnFailed, Err: err, Text: err.Error()}})
		c.closeQueues()
		close(c.exitDone)
		return c, err
	}
	return c, nil
}

func (c *Client) spawn() error {
	if strings.Contains(c.cfg.Command, "/") {
		if st, err := os.Stat(c.cfg.Command); err == nil && st.IsDir() {
			return &SpawnError{Argv: c.argv, Err: fmt.Errorf("%s is a directory, not an executable", c.cfg.Command)}
		}
	}
	cmd := exec.Command(c.cfg.Command, c.cfg.Args...)
	cmd.Env = append(os.Environ(), c.cfg.Env...)
	cmd.Dir = c.cfg.Dir
	cmd.SysProcAttr = proc.SysProcAttr()
	inR, inW, err := os.Pipe()
	if err != nil {
		return &SpawnError{Argv: c.argv, Err: err}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return &SpawnError{Argv: c.argv, Err: err}
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return &SpawnError{Argv: c.argv, Err: err}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW, errR, errW} {
			f.Close()
		}
		return &SpawnError{Argv: c.argv, Err: err}
	}
	inR.Close()
	outW.Close()
	errW.Close()
	c.cmd = cmd
	c.pid = cmd.Process.Pid
	c.watchdog = proc.StartWatchdog(c.pid)
	c.writer = newLineWriter(inW, c.onWriteError)
	c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeStarted, PID: c.pid, Text: fmt.Sprintf("started pid %d", c.pid)}})
	if c.cfg.CallerReads && leaderSupported {
		c.lr = newLeaderReader(c, outR)
	} else {
		go c.readStdout(outR)
	}
	go c.readStderr(errR)
	go func() {
		err := cmd.Wait()
		code, sig := proc.ExitStatus(cmd, err)
		c.exitCode = code
		if sig != 0 {
			c.exitSignal = proc.SignalName(sig)
		}
		close(c.waitDone)
	}()
	go c.supervise()
	return nil
}

// Events is the session timeline, in order. It is closed after the server is gone and
// every event has been delivered. The client buffers without bound, so a slow reader never
// stalls the server's pipes.
func (c *Client) Events() <-chan Event { return c.out }

func (c *Client) closeQueues() {
	c.q.close()
	if c.obs != nil {
		c.obs.close()
	}
}

// Observed is closed once Config.OnEvent has been called for the last event of the session
// (at once when there is no OnEvent). Close waits for it, so a recorder has every event when
// Close returns.
func (c *Client) Observed() <-chan struct{} {
	if c.obs == nil {
		ch := make(chan struct{})
		close(ch)
		return ch
	}
	return c.obs.done
}

// PID is the child's process id (0 when it did not start).
func (c *Client) PID() int { return c.pid }

// Argv is the command line the child was started with.
func (c *Client) Argv() []string { return append([]string(nil), c.argv...) }

// State is the session state now.
func (c *Client) State() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

// Err is why the session is dead, or nil while it lives.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead == nil {
		return nil
	}
	return c.dead
}

// Exited is closed when the server has exited (or failed to start) and the client has
// drained its output.
func (c *Client) Exited() <-chan struct{} { return c.exitDone }

// stampLocked gives ev the next Seq (and a time, when it has none). An event is stamped
// before the Pairer sees it, since pairing refers to Seqs; it must be emitted before any
// other event is stamped.
func (c *Client) stampLocked(ev *Event) {
	c.seq++
	ev.Seq = c.seq
	if ev.Time.IsZero() {
		ev.Time = time.Now()
	}
}

// emit stamps and queues an event; the caller must not hold c.mu (emitLocked is for callers
// that do).
func (c *Client) emit(ev Event) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.emitLocked(ev)
}

func (c *Client) emitLocked(ev Event) uint64 {
	if ev.Seq == 0 {
		c.stampLocked(&ev)
	}
	c.q.push(ev)
	if c.obs != nil {
		c.obs.push(ev)
	}
	return ev.Seq
}

func (c *Client) readStdout(r *os.File) {
	defer close(c.stdoutEOF)
	defer r.Close()
	fr := NewFramer(r, c.cfg.MaxMessage)
	for {
		f, err := fr.Next()
		if err != nil {
			return
		}
		c.handleFrame(f)
	}
}

func (c *Client) readStderr(r *os.File) {
	defer close(c.stderrEOF)
	defer r.Close()
	fr := NewFramer(r, 1<<20)
	for {
		f, err := fr.Next()
		if err != nil {
			return
		}
		line := string(bytes.TrimRight(f.Raw, "\r\n"))
		c.mu.Lock()
		c.stderrTail = append(c.stderrTail, line)
		if len(c.stderrTail) > c.cfg.StderrTail {
			c.stderrTail = c.stderrTail[len(c.stderrTail)-c.cfg.StderrTail:]
		}
		c.emitLocked(Event{Dir: Stderr, Kind: KindStderr, Raw: f.Raw, Size: f.Size, Offset: f.Offset, Line: f.Line})
		c.mu.Unlock()
	}
}

// supervise notices the end of the server: process exit, or stdout closed while the process
// lives. It fails pending requests at once with the cause (cases B09, B10).
func (c *Client) supervise() {
	select {
	case <-c.waitDone:
		// Let the last stdout frames and stderr lines arrive before reporting.
		waitAny(c.stdoutEOF, 500*time.Millisecond)
	case <-c.stdoutEOF:
		if !waitAny(c.waitDone, 250*time.Millisecond) {
			c.mu.Lock()
			e := &ExitError{PID: c.pid, ExitCode: -1, StdoutClosed: true}
			c.emitLocked(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeStdoutClosed, PID: c.pid, Text: "server closed its stdout but is still running"}})
			c.failAllLocked(e)
			c.mu.Unlock()
			<-c.waitDone
		}
	}
	waitAny(c.stderrEOF, 500*time.Millisecond)
	c.mu.Lock()
	e := &ExitError{PID: c.pid, ExitCode: c.exitCode, Signal: c.exitSignal, Stderr: append([]string(nil), c.stderrTail...)}
	text := "server " + e.How()
	exited := Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeExited, PID: c.pid, ExitCode: c.exitCode, Signal: c.exitSignal, Text: text}}
	// The Pairer sees the exit as it does in a recording: frames a child of the server
	// writes afterwards carry an after-exit note (CodeAfterExit).
	c.pairer.Add(&exited)
	c.emitLocked(exited)
	c.failAllLocked(e)
	c.writer.close()
	c.mu.Unlock()
	if !proc.GroupAlive(c.pid) {
		c.watchdog.Disarm()
	}
	// Readers may still be blocked if a grandchild holds the pipes open; the queue closes
	// when they finish or when Close kills the group.
	go func() {
		<-c.stdoutEOF
		<-c.stderrEOF
		c.closeQueues()
	}()
	close(c.exitDone)
}

func waitAny(ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}

// failAllLocked marks the session dead with e and fails every pending request, each with its
// own copy naming it.
func (c *Client) failAllLocked(e *ExitError) {
	if c.state != StateClosed {
		c.state = StateDead
	}
	if c.dead == nil || c.dead.StdoutClosed {
		c.dead = e
	}
	for _, p := range c.pending {
		pe := *e
		pe.Pending = p.label()
		p.ch <- reqOutcome{err: &pe}
		c.dropLocked(p)
	}
}

// dropLocked forgets a request's waiter (the Pairer keeps its own history).
func (c *Client) dropLocked(p *pendingReq) {
	delete(c.pending, p.id)
	delete(c.bySeq, p.seq)
}

func (c *Client) onWriteError(err error) {
	c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeNote, Err: err, Text: "writing to the server's stdin failed: " + err.Error()}})
}

// IDKey canonicalizes a JSON-RPC id for table lookups: its compact JSON text, so 1 and "1"
// differ (the spec pairs by value and type).
func IDKey(raw json.RawMessage) string { return idKey(raw) }

func idKey(raw json.RawMessage) string {
	if n := len(raw); n > 0 && (raw[0] == '"' || raw[0] == '-' || isDigit(raw[0])) && (raw[n-1] == '"' || isDigit(raw[n-1])) {
		// A string or number token with nothing around it: compacting leaves it as it is
		// (whitespace inside a string is significant), and so does trimming when it is not
		// valid JSON. Every id takes this path, twice per call.
		return string(raw)
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(bytes.TrimSpace(raw))
	}
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (c *Client) handleFrame(f Frame) {
	ev := Event{Dir: ServerToClient, Raw: f.Raw, Size: f.Size, Offset: f.Offset, Line: f.Line, Chunks: f.Chunks, ChunkCount: f.ChunkCount}
	switch {
	case f.Oversize:
		ev.Kind = KindOversize
		ev.Problems = []Problem{{Warning, CodeOversize, fmt.Sprintf("frame of %d bytes is over the %d-byte limit (--max-message); only the first %d bytes are kept", f.Size, c.cfg.MaxMessage, len(f.Raw))}}
	case f.Partial:
		ev.Kind, ev.Msg, ev.Problems = Classify(f.Raw)
		if ev.Kind.IsMessage() {
			ev.Problems = append(ev.Problems, Problem{Warning, CodePartial, "stream ended before this frame's newline"})
		} else {
			ev.Kind = KindPartial
			ev.Problems = append(ev.Problems, Problem{Warning, CodePartial, "stream ended in the middle of a line"})
		}
	default:
		ev.Kind, ev.Msg, ev.Problems = Classify(f.Raw)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stampLocked(&ev)
	c.pairer.Add(&ev)
	if c.cfg.Strict {
		// Every problem of the frame is known now; the stop follows its emission.
		defer c.checkStrictLocked(ev)
	}
	switch ev.Kind {
	case KindResponse, KindErrorResponse:
		c.routeResponseLocked(&ev)
		return
	case KindOversize:
		c.routeOversizeLocked(&ev)
		return
	case KindBatch:
		c.routeBatchLocked(&ev)
		return
	case KindNotification:
		if ev.Msg.Method == "notifications/progress" {
			c.progressLocked(ev.Pair)
		}
	case KindRequest:
		if hasCode(ev.Problems, CodeModernServerRequest) {
			c.emitLocked(ev)
			return
		}
		capOK := !hasCode(ev.Problems, CodeCapabilityNotAdvertised)
		seq := c.emitLocked(ev)
		c.awaitingUser++
		c.answering.Add(1)
		go c.answerServerRequest(ev.Msg, seq, capOK)
		return
	}
	c.emitLocked(ev)
}

func hasCode(probs []Problem, code ProblemCode) bool {
	for _, p := range probs {
		if p.Code == code {
			return true
		}
	}
	return false
}

// checkStrictLocked stops a --strict session at the first server frame with a Warning problem.
func (c *Client) checkStrictLocked(ev Event) {
	if c.violation != nil {
		return
	}
	for _, p := range ev.Problems {
		if p.Severity != Warning {
			continue
		}
		v := &ViolationError{Seq: ev.Seq, Problem: p}
		c.violation = v
		c.emitLocked(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeNote, PID: c.pid, Err: v, Text: v.Error()}})
		for _, pr := range c.pending {
			pr.ch <- reqOutcome{err: v}
			c.dropLocked(pr)
		}
		go c.Close()
		return
	}
}

// routeOversizeLocked pairs an oversize frame with its request when the kept head still shows
// the id, and fails that request at once with an *OversizeError (case B03: never a silent
// stall until the timeout).
func (c *Client) routeOversizeLocked(ev *Event) {
	p, ok := c.bySeq[ev.Pair]
	c.emitLocked(*ev)
	if ev.Pair == 0 || !ok {
		return
	}
	c.dropLocked(p)
	p.ch <- reqOutcome{err: &OversizeError{Request: p.label(), Size: ev.Size, Limit: c.cfg.MaxMessage}}
}

// progressLocked resets the timeout of the request with Seq pair (0: none) on a progress
// notification (MCP 2025-11-25 basic/utilities/progress).
func (c *Client) progressLocked(pair uint64) {
	if pair == 0 {
		return
	}
	if p, ok := c.bySeq[pair]; ok {
		select {
		case p.progress <- struct{}{}:
		default:
		}
	}
}

// routeBatchLocked emits a JSON-RPC batch frame (JSON-RPC 2.0 §6; MCP 2025-03-26 only) and
// hands each response element the Pairer matched to its waiting request, so a request
// answered inside a batch completes instead of timing out; the Response's Seq is the
// batch's. Progress notifications inside reset their request's timeout. Server requests
// inside a batch are shown, not answered (the Pairer notes them as unanswered).
func (c *Client) routeBatchLocked(ev *Event) {
	seq := c.emitLocked(*ev)
	if ev.Batch == nil {
		return
	}
	for i := range ev.Batch.Elems {
		el := &ev.Batch.Elems[i]
		switch el.Kind {
		case KindNotification:
			if el.Msg.Method == "notifications/progress" {
				c.progressLocked(el.Pair)
			}
		case KindRequest:
			// Answered as one alone would be, one response frame each: JSON-RPC 2.0 §6
			// would gather them into an array, but a server waits on each id, and MCP SDKs
			// take a lone response to a batched request.
			if hasCode(el.Problems, CodeModernServerRequest) {
				continue
			}
			c.awaitingUser++
			c.answering.Add(1)
			go c.answerServerRequest(el.Msg, seq, !hasCode(el.Problems, CodeCapabilityNotAdvertised))
		case KindResponse, KindErrorResponse:
			p, ok := c.pending[idKey(el.Msg.ID)]
			if !ok || el.Pair != p.seq {
				continue // unknown, duplicate or late: the element's problems say so
			}
			c.dropLocked(p)
			r := &Response{Msg: el.Msg, Seq: seq, RequestSeq: p.seq, Elapsed: ev.Time.Sub(p.sent)}
			if el.Msg.Error != nil {
				p.ch <- reqOutcome{resp: r, err: el.Msg.Error}
				continue
			}
			p.ch <- reqOutcome{resp: r}
		}
	}
}

// routeResponseLocked hands a response the Pairer matched to its waiting request.
func (c *Client) routeResponseLocked(ev *Event) {
	p, ok := c.pending[idKey(ev.Msg.ID)]
	if !ok || ev.Pair != p.seq {
		// Unknown, duplicate or late: the Pairer has said so in the event's problems.
		c.emitLocked(*ev)
		return
	}
	now := ev.Time
	seq := c.emitLocked(*ev)
	c.dropLocked(p)
	r := &Response{Msg: ev.Msg, Seq: seq, RequestSeq: p.seq, Elapsed: now.Sub(p.sent)}
	if ev.Msg.Error != nil {
		p.ch <- reqOutcome{resp: r, err: ev.Msg.Error}
		return
	}
	p.ch <- reqOutcome{resp: r}
}

// capabilityFor names the client capability a server→client request needs (MCP 2025-11-25
// basic/lifecycle §Capability Negotiation), "" when none.
func capabilityFor(method string) string {
	switch method {
	case "sampling/createMessage":
		return "sampling"
	case "elicitation/create":
		return "elicitation"
	case "roots/list":
		return "roots"
	case "tasks/get", "tasks/result", "tasks/list", "tasks/cancel":
		return "tasks"
	}
	return ""
}

// ServerRequest is something the server asks of the client: in the legacy era a
// server→client JSON-RPC request (sampling/createMessage, roots/list, elicitation/create, ...;
// MCP 2025-11-25 client/*), in the modern era one entry of an input_required result's
// inputRequests (MCP 2026-07-28 basic/patterns/mrtr). Exactly one of Respond or Fail must be
// called; until then the server (or the retry) waits.
type ServerRequest struct {
	// Method and Params say what is asked.
	Method string
	Params json.RawMessage
	// Msg is the legacy request envelope (nil for a modern input request).
	Msg *Message
	// Seq is the event that carried the request: the request itself (legacy) or the
	// input_required response (modern).
	Seq uint64
	// InputKey names the modern input request inside inputRequests; empty in the legacy era.
	InputKey string
	respond  func(json.RawMessage, *RPCError) error
	once     sync.Once
}

// Respond answers with a result (for example an ElicitResult or a CreateMessageResult).
func (r *ServerRequest) Respond(result json.RawMessage) error {
	err := errors.New("already answered")
	r.once.Do(func() { err = r.respond(result, nil) })
	return err
}

// Fail answers with a JSON-RPC error (legacy), or abandons the modern retry with it.
func (r *ServerRequest) Fail(e *RPCError) error {
	err := errors.New("already answered")
	r.once.Do(func() { err = r.respond(nil, e) })
	return err
}

func (c *Client) answerServerRequest(m *Message, seq uint64, capOK bool) {
	defer c.answering.Add(-1)
	reply := func(result json.RawMessage, e *RPCError) error { return c.reply(m.ID, result, e) }
	if m.Method == "ping" {
		_ = reply(json.RawMessage(`{}`), nil)
		return
	}
	if capOK && c.cfg.OnServerRequest != nil {
		c.cfg.OnServerRequest(&ServerRequest{Method: m.Method, Params: m.Params, Msg: m, Seq: seq, respond: reply})
		return
	}
	_ = reply(nil, &RPCError{Code: -32601, Message: "Method not found: mcp-inspect does not handle " + m.Method})
}

func (c *Client) reply(id json.RawMessage, result json.RawMessage, e *RPCError) error {
	msg := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result,omitempty"`
		Error   *RPCError       `json:"error,omitempty"`
	}{"2.0", id, result, e}
	if id == nil {
		msg.ID = json.RawMessage("null")
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.awaitingUser > 0 {
		c.awaitingUser--
	}
	return c.writeLocked(b)
}

// writeLocked frames b (adding "\n"), records the event and queues the write. It fails when
// the session is dead or closed.
func (c *Client) writeLocked(b []byte) error {
	return c.writeMsgLocked(b, 0, nil)
}

// writeMsgLocked is writeLocked for a frame the client built itself, whose kind and envelope
// are known (kind 0: classify the bytes, as for raw frames the user sends).
func (c *Client) writeMsgLocked(b []byte, known Kind, knownMsg *Message) error {
	if c.violation != nil {
		return c.violation
	}
	if c.state == StateClosed {
		return ErrClosed
	}
	if c.dead != nil {
		return c.dead
	}
	raw := append(b, '\n')
	kind, msg := known, knownMsg
	var probs []Problem
	if known == 0 {
		kind, msg, probs = Classify(raw)
	}
	c.stdinLine++
	ev := Event{Dir: ClientToServer, Kind: kind, Msg: msg, Problems: probs, Raw: raw, Size: int64(len(raw)), Offset: c.stdinOff, Line: c.stdinLine}
	c.stampLocked(&ev)
	c.pairer.Add(&ev)
	c.stdinOff += int64(len(raw))
	c.emitLocked(ev)
	c.writer.write(raw)
	return nil
}

// ErrClosed is returned for requests made after Close.
var ErrClosed = errors.New("session closed")

// RequestOptions tune one request.
type RequestOptions struct {
	// NoProgressToken leaves params._meta.progressToken out (initialize never carries one).
	NoProgressToken bool
	// Timeout overrides Config.Timeout for this request.
	Timeout time.Duration
	// NoTimeout waits for the response however long it takes (subscriptions/listen).
	NoTimeout bool
	// OnSent, when set, is called once the request is written, with its event Seq and id,
	// before the response is awaited (the UI uses it to find its own request on the wire).
	OnSent func(seq uint64, id json.RawMessage)
}

// MaxInputRounds bounds the multi round-trip retries of one request (MCP 2026-07-28
// basic/patterns/mrtr), so a server that always asks again cannot loop forever.
const MaxInputRounds = 16

// Request sends a JSON-RPC request and waits for its response. params may be nil, a
// json.RawMessage or any value that marshals to a JSON object; a progressToken equal to the
// request id is added under params._meta (MCP basic/utilities/progress) so progress can reset
// the timeout, and in the modern era the required _meta keys too (MCP 2026-07-28
// basic/index §_meta). A modern result with resultType "input_required" is answered through
// Config.OnServerRequest, one ServerRequest per input request, and the request is retried
// with a new id, inputResponses and the echoed requestState; the final response is returned.
// Errors: *RPCError for an error response, *ExitError when the server is or becomes gone,
// *TimeoutError, ctx.Err() when ctx ends (then notifications/cancelled is sent, except for
// initialize), *InputError when input was needed and not given.
func (c *Client) Request(ctx context.Context, method string, params any, opt *RequestOptions) (*Response, error) {
	if opt == nil {
		opt = &RequestOptions{}
	}
	resp, err := c.request1(ctx, method, params, opt)
	for round := 1; err == nil && c.Era() == EraModern; round++ {
		ir, ok := ParseInputRequired(resp.Msg.Result)
		if !ok {
			break
		}
		if round > MaxInputRounds {
			return resp, &InputError{Method: method, Reason: fmt.Sprintf("the server asked for input %d times; giving up", MaxInputRounds)}
		}
		answers, aerr := c.answerInputs(ctx, resp.Seq, ir)
		if aerr != nil {
			return resp, aerr
		}
		params, err = withInputResponses(params, answers, ir.RequestState)
		if err != nil {
			return resp, err
		}
		resp, err = c.request1(ctx, method, params, opt)
	}
	return resp, err
}

func (c *Client) request1(ctx context.Context, method string, params any, opt *RequestOptions) (*Response, error) {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	idRaw := json.RawMessage(strconv.FormatInt(id, 10))
	withToken := !opt.NoProgressToken && method != "initialize"
	var meta []metaEntry
	if withToken {
		meta = append(meta, metaEntry{"progressToken", idRaw})
	}
	meta = append(meta, c.eraMetaLocked()...)
	pb, err := buildParams(params, meta)
	if err != nil {
		c.mu.Unlock()
		return nil, err
	}
	key := idKey(idRaw)
	p := &pendingReq{id: key, method: method, num: id, params: params, ch: make(chan reqOutcome, 1), progress: make(chan struct{}, 1)}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params,omitempty"`
	}{"2.0", idRaw, method, pb})
	if err != nil {
		c.mu.Unlock()
		return nil, err
	}
	p.sent = time.Now()
	// Register before writing so a fast response always finds its request.
	c.pending[key] = p
	// Built here, so its kind and envelope are known: no need to parse it back.
	if err := c.writeMsgLocked(b, KindRequest, &Message{JSONRPC: "2.0", ID: idRaw, Method: method, Params: pb}); err != nil {
		delete(c.pending, key)
		c.mu.Unlock()
		if ee, ok := err.(*ExitError); ok {
			cp := *ee
			cp.Pending = p.label()
			cp.NotSent = true
			return nil, &cp
		}
		return nil, err
	}
	p.seq = c.seq
	c.bySeq[p.seq] = p
	c.mu.Unlock()
	if opt.OnSent != nil {
		opt.OnSent(p.seq, idRaw)
	}
	return c.wait(ctx, p, opt)
}

func requestLabel(method string, params any) string {
	if method != "tools/call" && method != "prompts/get" && method != "resources/read" {
		return ""
	}
	b, err := json.Marshal(params)
	if err != nil {
		return ""
	}
	var v struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	_ = json.Unmarshal(b, &v)
	if v.Name != "" {
		return v.Name
	}
	return v.URI
}

func (c *Client) wait(ctx context.Context, p *pendingReq, opt *RequestOptions) (*Response, error) {
	if c.lr != nil {
		return c.lr.wait(ctx, p, opt)
	}
	idle, maxT := c.limits(opt)
	idleT := time.NewTimer(idle)
	defer idleT.Stop()
	maxTimer := time.NewTimer(maxT)
	defer maxTimer.Stop()
	for {
		select {
		case o := <-p.ch:
			return o.resp, o.err
		case <-p.progress:
			if !idleT.Stop() {
				select {
				case <-idleT.C:
				default:
				}
			}
			idleT.Reset(idle)
		case <-ctx.Done():
			if ok, err := c.giveUp(ctx, p, idle, false); ok {
				return nil, err
			}
		case <-idleT.C:
			if c.waitingForUser() {
				// The server asked the user something (sampling, elicitation, roots) and waits
				// for the answer: the request is not idle. MaxTimeout still applies.
				idleT.Reset(idle)
				continue
			}
			if ok, err := c.giveUp(nil, p, idle, false); ok {
				return nil, err
			}
		case <-maxTimer.C:
			if ok, err := c.giveUp(nil, p, maxT, true); ok {
				return nil, err
			}
		}
	}
}

// limits are a request's idle timeout (reset by progress) and its cap.
func (c *Client) limits(opt *RequestOptions) (idle, maxT time.Duration) {
	idle = c.cfg.Timeout
	if opt.Timeout > 0 {
		idle = opt.Timeout
	}
	maxT = c.cfg.MaxTimeout
	if maxT < idle {
		maxT = idle
	}
	if opt.NoTimeout {
		idle, maxT = 100*365*24*time.Hour, 100*365*24*time.Hour
	}
	return idle, maxT
}

// giveUp abandons p because ctx ended (ctx non-nil) or a timeout of length after passed
// (max: the cap), and sends notifications/cancelled for it (never for initialize). It
// returns true and the error the request ends with, or false when p's outcome arrived
// first, to be received instead.
func (c *Client) giveUp(ctx context.Context, p *pendingReq, after time.Duration, max bool) (bool, error) {
	why := "timed out"
	if ctx != nil {
		why = "cancelled"
	}
	if !c.abandon(p, why) {
		return false, nil
	}
	if ctx != nil {
		if p.method != "initialize" {
			_ = c.Cancel(p.id, "cancelled by the user")
		}
		return true, ctx.Err()
	}
	if p.method != "initialize" {
		_ = c.Cancel(p.id, "timed out after "+after.String())
	}
	return true, &TimeoutError{Request: p.label(), After: after, Max: max}
}

// waitingForUser reports whether a server→client request is still unanswered.
func (c *Client) waitingForUser() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.awaitingUser > 0
}

// abandon removes p from the pending table; false means its outcome already arrived.
func (c *Client) abandon(p *pendingReq, why string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending[p.id] != p {
		return false
	}
	c.dropLocked(p)
	if p.method == "initialize" || p.method == "server/discover" {
		// Never cancelled with a notification, so the Pairer is told directly.
		c.pairer.Settle(json.RawMessage(p.id), why)
	}
	return true
}

// Cancel sends notifications/cancelled for the request whose id has the given JSON text
// (MCP basic/utilities/cancellation). The request's id is sent with its original JSON type.
func (c *Client) Cancel(idJSON string, reason string) error {
	params, _ := json.Marshal(struct {
		RequestID json.RawMessage `json:"requestId"`
		Reason    string          `json:"reason,omitempty"`
	}{json.RawMessage(idJSON), reason})
	return c.Notify("notifications/cancelled", params)
}

// Notify sends a JSON-RPC notification.
func (c *Client) Notify(method string, params json.RawMessage) error {
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params,omitempty"`
	}{"2.0", method, params})
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writeMsgLocked(b, KindNotification, &Message{JSONRPC: "2.0", Method: method, Params: params})
}

// SendRaw writes bytes to the server's stdin as they are (a newline is added when missing),
// recorded like any frame: a debugger sends what the user asks, valid or not.
func (c *Client) SendRaw(b []byte) error {
	b = bytes.TrimSuffix(b, []byte("\n"))
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writeLocked(append([]byte(nil), b...))
}

// metaEntry is one params._meta member to add.
type metaEntry struct {
	key string
	val json.RawMessage
}

// buildParams encodes params and adds the given _meta members (those the caller did not set
// already). The caller's member order is kept and _meta goes last, so the wire shows what the
// user built.
func buildParams(params any, meta []metaEntry) (json.RawMessage, error) {
	var raw json.RawMessage
	marshalled := false
	switch p := params.(type) {
	case nil:
	case json.RawMessage:
		raw = p
	default:
		b, err := json.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("encoding params: %w", err)
		}
		raw, marshalled = b, true
	}
	if len(meta) == 0 {
		return raw, nil
	}
	if marshalled && len(raw) >= 2 && raw[0] == '{' && !bytes.Contains(raw, []byte(`"_meta"`)) {
		// json.Marshal's own output is a valid, compact object: splice _meta in without
		// decoding it again (every tools/call takes this path).
		out := make([]byte, 0, len(raw)+32*len(meta))
		out = append(out, raw[:len(raw)-1]...)
		return appendMeta(out, len(raw) > 2, meta), nil
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		trimmed = []byte("{}")
	}
	if trimmed[0] == '{' && json.Valid(trimmed) {
		// A valid object without _meta (bench call's prebuilt params, the TUI's raw JSON):
		// splice _meta in after one validating scan instead of decoding into a map. Line
		// breaks are compacted away (one message, one line); other spacing is kept.
		members, hasMeta := 0, false
		forEachMember(trimmed, func(key []byte, _ json.RawMessage) {
			members++
			hasMeta = hasMeta || string(key) == "_meta"
		})
		if !hasMeta {
			body := trimmed
			if bytes.ContainsAny(body, "\r\n") {
				var b bytes.Buffer
				if err := json.Compact(&b, body); err != nil {
					return nil, err
				}
				body = b.Bytes()
			}
			out := make([]byte, 0, len(body)+32*len(meta))
			out = append(out, body[:len(body)-1]...)
			return appendMeta(out, members > 0, meta), nil
		}
	}
	var obj map[string]json.RawMessage
	if trimmed[0] != '{' || json.Unmarshal(trimmed, &obj) != nil {
		// Not an object: send as given, without _meta.
		return raw, nil
	}
	if m, ok := obj["_meta"]; ok {
		// Merge into the caller's _meta; member order of the whole object is then sorted.
		have := map[string]json.RawMessage{}
		_ = json.Unmarshal(m, &have)
		for _, e := range meta {
			if _, set := have[e.key]; !set {
				have[e.key] = e.val
			}
		}
		obj["_meta"], _ = json.Marshal(have)
		return json.Marshal(obj)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, trimmed); err != nil {
		return nil, err
	}
	return appendMeta(b.Bytes()[:b.Len()-1], len(obj) > 0, meta), nil
}

// appendMeta closes an object whose closing brace was cut off (out) with a "_meta" member
// holding meta; comma says the object already has members.
func appendMeta(out []byte, comma bool, meta []metaEntry) []byte {
	if comma {
		out = append(out, ',')
	}
	out = append(out, `"_meta":{`...)
	for i, e := range meta {
		if i > 0 {
			out = append(out, ',')
		}
		k, _ := json.Marshal(e.key)
		out = append(out, k...)
		out = append(out, ':')
		out = append(out, e.val...)
	}
	return append(out, "}}"...)
}

// Close shuts the server down the way MCP 2025-11-25 basic/lifecycle §Shutdown says: close
// its stdin, wait ShutdownGrace, SIGTERM the process group, wait, SIGKILL the group. The
// group is killed in the end even when the main process exited, so forked children do not
// outlive the session. Close returns when the process is gone; it is idempotent.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		if c.cmd == nil {
			return
		}
		for deadline := time.Now().Add(c.cfg.ShutdownGrace); c.answering.Load() > 0 && time.Now().Before(deadline); {
			time.Sleep(2 * time.Millisecond)
		}
		c.mu.Lock()
		c.state = StateClosed
		c.mu.Unlock()
		exited := func() bool {
			select {
			case <-c.waitDone:
				return true
			default:
				return false
			}
		}
		if !exited() {
			c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeShutdown, PID: c.pid, Text: "closing the server's stdin"}})
		}
		c.writer.close()
		if !waitAny(c.waitDone, c.cfg.ShutdownGrace) {
			c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeShutdown, PID: c.pid, Text: "sending SIGTERM to the server's process group"}})
			_ = syscall.Kill(-c.pid, syscall.SIGTERM)
			if !waitAny(c.waitDone, c.cfg.ShutdownGrace) {
				c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeShutdown, PID: c.pid, Text: "sending SIGKILL to the server's process group"}})
				_ = syscall.Kill(-c.pid, syscall.SIGKILL)
				<-c.waitDone
			}
		}
		// Whatever is left in the group (forked children) goes too.
		if proc.GroupAlive(c.pid) {
			_ = syscall.Kill(-c.pid, syscall.SIGTERM)
			if !proc.WaitGroupGone(c.pid, c.cfg.ShutdownGrace) {
				_ = syscall.Kill(-c.pid, syscall.SIGKILL)
				proc.WaitGroupGone(c.pid, time.Second)
			}
		}
		<-c.exitDone
		if !proc.GroupAlive(c.pid) {
			c.watchdog.Disarm()
		}
		if c.obs != nil {
			waitAny(c.obs.done, 2*time.Second)
		}
	})
	return nil
}
