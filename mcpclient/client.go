package mcpclient

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// Config says how to start and talk to an MCP server: a stdio child (Command) or a remote
// server (URL). Zero values take the defaults named on each field.
type Config struct {
	// URL, when set, is a remote server's endpoint (http:// or https://); Command, Args, Env,
	// Dir and CallerReads are then unused.
	URL string
	// Transport is how URL is reached: TransportHTTP (default) or TransportSSE.
	Transport Transport
	// SSEFallback lets a Streamable HTTP session whose POST initialize gets 400, 404 or 405
	// try the HTTP+SSE transport instead (the spec's backward-compatibility check).
	SSEFallback bool
	// Header holds headers sent on every HTTP request (-H, a bearer token).
	Header http.Header
	// WrapTransport, when set, wraps the recording RoundTripper every HTTP request goes
	// through (an authorization layer adds its credentials and retries 401/403 there).
	WrapTransport func(http.RoundTripper) http.RoundTripper
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
	// TimeoutFrom says where Timeout came from when not from --timeout, e.g. "profile NAME
	// in FILE"; a TimeoutError names it ("" : the flag or the default).
	TimeoutFrom string
	// MaxMessage is the longest stdout frame kept whole, in bytes; default DefaultMaxMessage.
	MaxMessage int
	// ShutdownGrace is how long Close waits after closing stdin, and again after SIGTERM,
	// before escalating; default DefaultShutdownGrace.
	ShutdownGrace time.Duration
	// StderrTail is how many stderr lines an ExitError carries; default 20.
	StderrTail int
	// Strict stops the session at the first protocol violation the server commits (a frame
	// with a Warning problem): pending and later requests fail with a *ViolationError, and the
	// server is shut down.
	Strict bool
	// FirstIDZero numbers requests from 0 instead of 1 (--first-id 0): some servers drop a
	// request with id 0, others mishandle 1; JSON-RPC allows both.
	FirstIDZero bool
	// Framing is how stdio messages are delimited; default FramingNewline (see framing.go).
	Framing Framing
	// Silence is how long a stdio server may leave a request unanswered with nothing on
	// stdout before mcp-inspect says what is likely (silence.go); 0 means DefaultSilence,
	// negative never. With FramingAuto it is also when Content-Length framing is tried.
	Silence time.Duration
	// Era selects the protocol era; default EraLegacy.
	Era Era
	// NoTasksExtension leaves extensions["io.modelcontextprotocol/tasks"] out of the modern
	// client capabilities (declared by default; see tasksext.go).
	NoTasksExtension bool
	// OnEvent, when set, is called with every event, in order, from one goroutine of its own,
	// as soon as the event is read, however far behind the reader of Events is: a recorder
	// uses it so the trace never waits for a UI. (When Events falls behind by the backlog
	// bound, the client stops reading the server until it catches up; see Events.) It must
	// not call back into the Client.
	OnEvent func(Event)
	// OnEvents, when set, is called like OnEvent (same goroutine, same order, same
	// backpressure) with a run of events at a time: those that were waiting together when
	// that goroutine took them (at least one), before OnEvent is called for each of them. A
	// recorder writes a run with one system call. The slice is reused once it returns (the
	// events it holds are the callee's to keep).
	OnEvents func([]Event)
	// EventFilter, when set, chooses what Events delivers: an event it returns false for is
	// left out of that channel (and of its backlog bound), while OnEvent and OnEvents still
	// get every event. For a reader of Events that acts on some events only (the headless
	// commands read server frames with problems, the handshake, notifications, stderr and
	// lifecycle, not a call's clean request and response): each event left out spares a
	// push onto the queue and its hand-over. Called under the client's lock, in the order of
	// the events: it must not call back into the Client.
	EventFilter func(Event) bool
	// ObserveGather, when set, lets the OnEvent(s) goroutine gather events for this long
	// after the first one that finds it idle (or until 512 wait) before it takes them,
	// instead of being woken for each: for a recorder at a load generator's rate, where
	// that goroutine runs on another processor and a thread wake-up per event costs more
	// than a call (bench call --record). That goroutine then has an OS thread of its own at
	// a lower priority (platform.LowerThreadPriority). OnEvent is then that much later;
	// Close still delivers every event. Zero: each event at once (a check acts on them as
	// they come).
	ObserveGather time.Duration
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
	// Intercept, when set and Active, sees each server→client JSON-RPC message (not a
	// batch) before the client handles it, on the goroutine that read it: it may block (what
	// the server sends after it waits, so order is kept) and says what becomes of it
	// (intercept.go). mcp-inspect's breakpoints; inactive it costs an atomic load a frame.
	Intercept Interceptor
}

// Observer is how a caller that makes events of its own, outside a session (check's HTTP
// probes), hands each to OnEvents (a run of one) and OnEvent as a session would; nil when
// neither is set.
func (c *Config) Observer() func(Event) {
	run, one := c.OnEvents, c.OnEvent
	if run == nil && one == nil {
		return nil
	}
	return func(ev Event) {
		if run != nil {
			run([]Event{ev})
		}
		if one != nil {
			one(ev)
		}
	}
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
		c.ShutdownGrace = DefaultShutdownGrace
	}
	if c.Era == "" {
		c.Era = EraLegacy
	}
	if c.Framing == "" {
		c.Framing = FramingNewline
	}
	if c.StderrTail <= 0 {
		c.StderrTail = 20
	}
}

// State is the session's state.
type State uint8

// DefaultShutdownGrace is Config.ShutdownGrace when unset: each shutdown step (stdin closed,
// SIGTERM) waits this long before the next (MCP 2025-11-25 basic/lifecycle §Shutdown).
const DefaultShutdownGrace = 2 * time.Second

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
	tr     transport     // an HTTP session's transport; nil for stdio

	mu      sync.Mutex
	seq     uint64
	nextID  int64
	strays  []stray // the latest responses that answered no request (idcheck.go)
	state   State
	pending map[string]*pendingReq // requests awaiting their response, by id key (bySeqLocked)
	// spare is a pendingReq whose caller has its response, for the next request to reuse
	// with its channels (four allocations fewer per call); taken under mu.
	spare         atomic.Pointer[pendingReq]
	pairer        *Pairer // pairing and history problems, shared with traces
	awaitingUser  int     // server→client requests not answered yet
	dead          *ExitError
	stderrTail    StderrTail // the last Config.StderrTail lines, for ExitError
	stderrFrames  uint64     // stderr frames read (the auto probe's sign of life)
	era           Era
	violation     *ViolationError
	framingErr    *FramingError // --framing newline: the server writes Content-Length framing
	framingSeen   bool          // a header-framed server frame was acted on
	writeCL       bool          // frames go to stdin with Content-Length headers
	probedCL      bool          // --framing auto tried Content-Length on a silent server
	silence       *time.Timer   // the silent-server watch (silence.go), from the first request
	silenceFrom   time.Time     // when that request was written
	silenceSaid   [2]bool       // the notes said: the server has not read stdin; it has
	stdinClosed   bool          // Close closed the server's stdin
	flushSaid     bool          // the block-buffered stdout note was said
	burst         burstWatch    // answers that come together (burst.go)
	heldWatched   bool          // a request after the handshake is watched for a held answer (burst.go)
	pyBuffered    int8          // pythonBuffered of the command, asked once: 0 not yet, 1 no, 2 yes (burst.go)
	modernVersion string
	modernCaps    json.RawMessage // Capabilities plus the modern extensions, built once
	logLevel      string
	stdinOff      int64
	stdinLine     int64
	bodyOff       int64 // HTTP: running byte count and number of the server's messages
	bodyLine      int64
	httpOff       [2]int64 // HTTPOut, HTTPIn: running byte counts and event numbers
	httpLine      [2]int64

	stdoutEOF chan struct{}
	stderrEOF chan struct{}
	waitDone  chan struct{}
	exitDone  chan struct{}
	closeOnce sync.Once
	// hurry is closed by Hasten (made on first use, under mu); hurryGrace is its grace.
	hurry      chan struct{}
	hurryGrace time.Duration
	// shutdown is how Close ended the server (under mu).
	shutdown   ShutdownReport
	exitCode   int
	exitSignal string
	tree       *platform.Tree // the server's process tree (stdio)

	// answering counts the goroutines handing server requests to OnServerRequest (or
	// answering ping / -32601 themselves). Close lets them finish before it closes stdin, so
	// an answer given at once (headless, ping) to a request that came just before Close is
	// written, not lost; the TUI only queues the request there and returns. (A counter,
	// not a WaitGroup: a request may still arrive while Close waits.)
	answering atomic.Int64
	// heard is set by the first frame the server writes (silence.go).
	heard atomic.Bool
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
		pairer:    NewPairer(),
		era:       EraLegacy,
		stdoutEOF: make(chan struct{}),
		stderrEOF: make(chan struct{}),
		waitDone:  make(chan struct{}),
		exitDone:  make(chan struct{}),
	}
	c.stderrTail.Keep = cfg.StderrTail
	if cfg.FirstIDZero {
		c.nextID = -1 // the first request gets id 0
	}
	c.writeCL = c.cfg.Framing == FramingContentLength
	c.q, c.out = newChanQueue()
	if cfg.OnEvent != nil || cfg.OnEvents != nil {
		c.obs = newEventQueue(cfg.OnEvent, nil)
		c.obs.deliverRun = cfg.OnEvents
		c.obs.linger = cfg.ObserveGather
		c.obs.activate() // a recorder always drains
	}
	if cfg.URL != "" {
		return c, c.connectHTTP()
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

// Events is the session timeline, in order. It is closed after the server is gone and
// every event has been delivered. Once Events has been called, the client reads the
// server's stdout and stderr, or an HTTP session's SSE streams, only while fewer than about
// 4,096 events (16 MiB of frames) wait to be received here, so a slow reader slows the
// server (its pipes or TCP windows fill) instead of growing memory; requests and their
// responses still pair, and the bound is lifted when the server has exited or the session
// is closed (see eventQueue). A caller of Events must therefore keep
// receiving until the channel closes; a client whose Events is never called buffers
// without bound, as it must keep every event for a late reader.
func (c *Client) Events() <-chan Event {
	c.q.activate()
	return c.out
}

// waitRoom is the readers' backpressure (see eventQueue): it returns once the Events queue
// and the OnEvent queue both have room. Called holding no lock, before reading a frame.
func (c *Client) waitRoom() {
	c.q.waitRoom()
	if c.obs != nil {
		c.obs.waitRoom()
	}
}

// releaseQueues lifts the backlog bound for good (the server has exited).
func (c *Client) releaseQueues() {
	c.q.release()
	if c.obs != nil {
		c.obs.release()
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
	if c.cfg.EventFilter == nil || c.cfg.EventFilter(ev) {
		c.q.push(ev)
	}
	if c.obs != nil {
		c.obs.push(ev)
	}
	return ev.Seq
}

// IDKey canonicalizes a JSON-RPC id for table lookups: its compact JSON text, so 1 and "1"
// differ (the spec pairs by value and type).
func IDKey(raw json.RawMessage) string { return idKey(raw) }

func idKey(raw json.RawMessage) string {
	if plainIDKey(raw) {
		return string(raw)
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(bytes.TrimSpace(raw))
	}
	return b.String()
}

// plainIDKey reports whether raw is its own id key: a string or number token with nothing
// around it, which compacting leaves as it is (whitespace inside a string is significant),
// and so does trimming when it is not valid JSON. Every id takes this path.
func plainIDKey(raw json.RawMessage) bool {
	n := len(raw)
	return n > 0 && (raw[0] == '"' || raw[0] == '-' || isDigit(raw[0])) && (raw[n-1] == '"' || isDigit(raw[n-1]))
}

// pendingByID is c.pending[idKey(id)], without building the key when the id is its own.
func (c *Client) pendingByID(id json.RawMessage) (*pendingReq, bool) {
	if plainIDKey(id) {
		p, ok := c.pending[string(id)]
		return p, ok
	}
	p, ok := c.pending[idKey(id)]
	return p, ok
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
