// Package tap is mcp-inspect's transparent pass-through between a real MCP host (Claude
// Desktop, VS Code, Cursor, any stdio client) and a stdio server. It spawns the server with
// the same process hygiene as mcpclient (own process group, parent-death signal, exact
// argv), copies the host's stdin to the server and the server's stdout to the host byte for
// byte as the bytes arrive — no reframing, nothing added or dropped, also for bytes that are
// not JSON — and the server's stderr to its own stderr. Beside that forward path it frames
// a copy of both directions with mcpclient.Framer and writes them as a trace in the recorder
// format, and it publishes the trace, history and live, on a Unix socket in the user's
// runtime directory, where `mcp-inspect attach` finds it.
//
// The forward path never waits for the recorder or for viewers: copies go to an unbounded
// queue, and each viewer has a bounded buffer of its own and is dropped, not waited for,
// when it falls too far behind.
package tap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// chunkSize is the forward path's read size: the pipe capacity on Linux and the Framer's
// read buffer, so one chunk read is one Framer read and its chunk marks are true ones.
const chunkSize = 64 << 10

// Options configure one tap. Zero values take the defaults named on each field.
type Options struct {
	// Argv is the server's command line, passed exactly (Argv[0] is looked up in PATH when it
	// has no slash).
	Argv []string
	// Name names the tap for `attach NAME`; default DefaultName(Argv).
	Name string
	// Dir is the server's working directory; empty means ours.
	Dir string
	// Env is the server's environment; nil means ours, inherited as a host would expect.
	Env []string

	// Stdin, Stdout and Stderr are the host's side: what the host writes to the server, where
	// the server's stdout goes, and where its stderr goes. Defaults: os.Stdin, os.Stdout,
	// os.Stderr. When Stdout is an *os.File it is closed as soon as the server closes its
	// stdout (or, when a process that left the server's group holds it after the server
	// exited, once the tap stops waiting for it), so the host sees the end of the stream
	// when it happens.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	// Trace receives the trace (header, then one line per event, each in one Write); nil
	// records nothing. TracePath names it for viewers that attach: their history is read
	// back from that file. Without a TracePath the history is kept in memory.
	Trace     io.Writer
	TracePath string
	// Header is the trace header; Argv, Cwd, Tool and Framing are filled in when empty.
	Header trace.Header
	// Redactor scrubs secrets from the trace (nil: none).
	Redactor *trace.Redactor
	// MaxMessage is the longest frame recorded whole; default mcpclient.DefaultMaxMessage.
	MaxMessage int

	// SocketDir is where the attach socket is published; default RuntimeDir(). "-" publishes
	// nothing.
	SocketDir string
	// ViewerBuffer is how many bytes a viewer may lag behind before it is dropped; default
	// DefaultViewerBuffer.
	ViewerBuffer int
	// MemoryHistory bounds the trace kept in memory for viewers when there is no TracePath:
	// its newest lines, this many bytes (default DefaultMemoryHistory); a viewer that
	// attaches later is told how many earlier events were dropped, and NoFileReason
	// ("--no-save keeps no file") says why.
	MemoryHistory int64
	NoFileReason  string

	// ShutdownGrace is how long the tap waits after closing the server's stdin (or forwarding
	// a signal), and again after SIGTERM, before escalating; default 2 s.
	ShutdownGrace time.Duration
	// Signals are forwarded to the server's process group when the tap receives them;
	// default SIGTERM, SIGINT and SIGHUP. An empty non-nil slice forwards none.
	Signals []os.Signal
	// Logger receives the tap's own log; nil discards.
	Logger *slog.Logger
	// Inject are the --inject rules (ParseRule), tried in order on every frame both ways;
	// none: the bytes go on as they arrive.
	Inject []Rule
	// OnStart, when set, is called once the server runs (tests use it).
	OnStart func(serverPID int, socket string)
	// Observe, when set, is given every numbered event after it is recorded, on the
	// recorder's goroutine (off the forwarding path; a slow Observe delays the recording,
	// never the host or the server). The event is neither classified nor paired, and its
	// Raw is lent for the call: copy what is kept.
	Observe func(mcpclient.Event)
}

// Result is how the server ended.
type Result struct {
	// ServerPID is the server's process id (0 when it did not start).
	ServerPID int
	// ExitCode is the server's exit status, -1 when a signal ended it.
	ExitCode int
	// Signal is the short name of the signal that ended the server ("KILL", "TERM"), ""
	// when it exited (always on Windows).
	Signal string
	// Events is how many events the trace holds.
	Events int64
}

// Code is the exit code the tap itself should end with: the server's, or 128+n for a
// server ended by signal n, as a shell reports it.
func (r Result) Code() int {
	if r.Signal != "" {
		return platform.SignalExitCodeOf(r.Signal)
	}
	return r.ExitCode
}

// SpawnError is returned when the server cannot be started.
type SpawnError struct {
	Argv []string
	Err  error
}

func (e *SpawnError) Error() string {
	return fmt.Sprintf("cannot start %s: %v", strings.Join(e.Argv, " "), e.Err)
}

func (e *SpawnError) Unwrap() error { return e.Err }

// Code is the exit code a shell gives: 127 when the command does not exist, else 126.
func (e *SpawnError) Code() int {
	if errors.Is(e.Err, exec.ErrNotFound) || errors.Is(e.Err, os.ErrNotExist) {
		return 127
	}
	return 126
}

func (o *Options) defaults() {
	if o.Name == "" {
		o.Name = DefaultName(o.Argv)
	}
	if o.Stdin == nil {
		o.Stdin = os.Stdin
	}
	if o.Stdout == nil {
		o.Stdout = os.Stdout
	}
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	if o.MaxMessage <= 0 {
		o.MaxMessage = mcpclient.DefaultMaxMessage
	}
	if o.ViewerBuffer <= 0 {
		o.ViewerBuffer = DefaultViewerBuffer
	}
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = 2 * time.Second
	}
	if o.Signals == nil {
		o.Signals = platform.StopSignals()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
}

// session is one running tap.
type session struct {
	opt   Options
	log   *slog.Logger
	cmd   *exec.Cmd
	pid   int
	q     *fifo
	pool  *chunkPool // forward-path read buffers
	seq   *sequencer
	trace *trace.Writer
	hub   *hub

	inj     *injector     // the --inject rules; nil without
	hostW   *lockedWriter // with rules: the host's side (Options.Stdout), written by both loops
	serverW *lockedWriter // with rules: the server's stdin, written by both loops

	traceFile *os.File    // the --record file, owned
	tee       *tee        // what the trace writer writes to
	early     *earlyLines // trace lines from before the hub was up

	mu          sync.Mutex
	nextSeq     uint64
	traceFailed bool
	init        initWatch
	messages    atomic.Int64
	events      atomic.Int64

	waitDone     chan struct{} // the server process was reaped
	exitCode     int
	exitSig      string         // the short name of the signal that ended the server
	abandoned    atomic.Bool    // the server's pipes are no longer waited for (abandonPipes)
	tree         *platform.Tree // the server's process tree
	stopOnce     sync.Once
	stopReason   chan string // why the shutdown sequence started
	shutdownDone chan struct{}
}

// Run spawns the server and forwards until it has exited and its output was copied; it
// returns how the server ended. The shutdown sequence of design.md (close stdin, wait,
// SIGTERM the group, wait, SIGKILL the group) starts when the host closes its end of
// stdin or of stdout, or when ctx is done; a signal in Options.Signals is forwarded to the
// server's group first and then the sequence goes on from SIGTERM. Whatever is left of the
// server's process group when the server exits is terminated too.
func Run(ctx context.Context, opt Options) (Result, error) {
	if len(opt.Argv) == 0 || opt.Argv[0] == "" {
		return Result{}, errors.New("tap: no server command")
	}
	opt.defaults()
	s := &session{
		opt:          opt,
		log:          opt.Logger,
		q:            newFIFO(),
		pool:         newChunkPool(),
		waitDone:     make(chan struct{}),
		stopReason:   make(chan string, 1),
		shutdownDone: make(chan struct{}),
	}
	start := time.Now()
	if err := s.openTrace(start); err != nil {
		return Result{}, err
	}
	s.tee.batching = true
	s.seq = newSequencer(s.q, opt.MaxMessage, s.emit, s.flushTrace)

	inR, inW, outR, outW, errR, errW, err := pipes()
	if err != nil {
		return Result{}, s.finishSpawnFailed(err)
	}
	cmd := exec.Command(opt.Argv[0], opt.Argv[1:]...)
	cmd.Env = opt.Env
	cmd.Dir = opt.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	// Forwarded signals must not be lost between spawn and the handler.
	sigs := make(chan os.Signal, 4)
	if len(opt.Signals) > 0 {
		signal.Notify(sigs, opt.Signals...)
		defer signal.Stop(sigs)
	}
	// A host that goes away makes writes to our stdout fail with EPIPE instead of killing us.
	// (Notify, not Ignore: an ignored signal would stay ignored in the server.)
	pipeSigs := make(chan os.Signal, 1)
	defer platform.NotifyBrokenPipe(pipeSigs)()
	tree, err := platform.Start(cmd)
	if err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW, errR, errW} {
			f.Close()
		}
		return Result{}, s.finishSpawnFailed(err)
	}
	inR.Close()
	outW.Close()
	errW.Close()
	if s.inj = newInjector(opt.Inject, start, opt.SocketDir != "-", s.life); s.inj != nil {
		if s.inj.holds != nil {
			s.inj.holds.notesAtEnd = true
		}
		s.hostW, s.serverW = &lockedWriter{w: opt.Stdout}, &lockedWriter{w: inW}
	}
	s.started(cmd, tree, start)

	outDone := make(chan struct{})
	errDone := make(chan struct{})
	go s.copyIn(inW)
	go s.copyOut(outR, outDone)
	go s.copyStderr(errR, errDone)
	go s.shutdown(inW)

	s.waitServer(ctx, sigs)
	return s.ended(outDone, errDone), nil
}

// started follows the spawned server: the watchdog, the start events, the reaper, the
// viewer socket and Options.OnStart.
func (s *session) started(cmd *exec.Cmd, tree *platform.Tree, start time.Time) {
	s.cmd, s.tree, s.pid = cmd, tree, tree.PID()
	s.life(mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, PID: s.pid, Text: fmt.Sprintf("started pid %d", s.pid)})
	if w := tree.Warning(); w != "" {
		s.life(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, PID: s.pid, Text: w})
	}
	s.life(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: fmt.Sprintf("tap %q: host pid %d, tap pid %d", s.opt.Name, os.Getppid(), os.Getpid())})
	s.log.Info("tap started", "name", s.opt.Name, "server_pid", s.pid, "host_pid", os.Getppid())
	if s.inj != nil && len(s.inj.rules) > 0 {
		s.life(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: s.inj.summary()})
	}

	go func() {
		ex := platform.ExitOf(cmd, cmd.Wait())
		s.exitCode, s.exitSig = ex.Code, ex.Signal
		close(s.waitDone)
	}()

	s.hub = s.publish(start)
	if s.opt.OnStart != nil {
		sock := ""
		if s.hub != nil {
			sock = s.hub.path
		}
		s.opt.OnStart(s.pid, sock)
	}
}

// waitServer waits for the server to end, forwarding signals and honouring ctx meanwhile.
func (s *session) waitServer(ctx context.Context, sigs <-chan os.Signal) {
	ctxDone := ctx.Done()
	for {
		select {
		case <-s.waitDone:
			return
		case sig := <-sigs:
			name := platform.SignalName(sig)
			s.log.Info("forwarding signal", "signal", name)
			s.life(mcpclient.LifeInfo{Kind: mcpclient.LifeShutdown, PID: s.pid, Text: "tap received " + name + ": forwarding it to the server's process group"})
			_ = s.tree.Signal(sig)
			s.stop("signal " + name)
		case <-ctxDone:
			ctxDone = nil
			s.stop("cancelled")
		}
	}
}

// pipeDrain is how long the tap still waits for the server's stdout and stderr to end
// once the server exited and what was left of its process group was ended. Only a
// process that left the group (setsid: a daemonizing grandchild) can still hold them
// open then, and it may do so for ever.
const pipeDrain = 500 * time.Millisecond

// ended finishes after the server is gone: it lets its last output through (a grandchild
// holding the pipes open is given a moment, then its group is ended), cleans up the group,
// records the exit and closes the recording. Pipes still open pipeDrain after that are
// abandoned (see abandonPipes).
func (s *session) ended(outDone, errDone <-chan struct{}) Result {
	s.inj.endHolds() // the server is gone: a held frame of its last output goes on to the host
	if !waitChan(outDone, time.Second) || !waitChan(errDone, 200*time.Millisecond) {
		s.killGroup()
	}
	deadline := time.Now().Add(pipeDrain)
	outEnded := waitChan(outDone, pipeDrain)
	errEnded := waitChan(errDone, time.Until(deadline))
	if !outEnded || !errEnded {
		s.abandonPipes(!outEnded, !errEnded)
	}
	s.killGroup()
	code, sigv := s.exitCode, s.exitSig
	text := "server exited with " + platform.ExitCodeText(code)
	info := mcpclient.LifeInfo{Kind: mcpclient.LifeExited, PID: s.pid, ExitCode: code}
	if sigv != "" {
		text = "server killed by signal " + sigv
		info.Signal = sigv
		info.ExitCode = -1
	}
	info.Text = text
	s.reportUnmatched()
	s.life(info)
	s.log.Info("server ended", "how", text)
	s.finishRecording()
	return Result{ServerPID: s.pid, ExitCode: info.ExitCode, Signal: sigv, Events: s.events.Load()}
}

// abandonPipes stops waiting for the server's stdout and/or stderr, which a process
// outside the server's process group holds open (on Unix one that called setsid; Windows
// has no setsid and a server's descendants stay in its Job Object, whose end closes the
// pipes, so this is not reached there). The host's stdout is closed, so the host sees
// the end; the reading goroutine stays in its blocking read until that process closes
// the pipe or the tap's process exits, and what it reads from now on is not forwarded
// (nor recorded, once the trace is closed a moment later).
func (s *session) abandonPipes(out, errPipe bool) {
	var held []string
	if out {
		held = append(held, "stdout")
	}
	if errPipe {
		held = append(held, "stderr")
	}
	what, verb := strings.Join(held, " and "), "is"
	if len(held) > 1 {
		verb = "are"
	}
	text := fmt.Sprintf("the server's %s %s still held open by a process outside its process group (one that called setsid?): not waiting for it", what, verb)
	s.abandoned.Store(true)
	s.life(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, PID: s.pid, Text: text})
	s.log.Warn("not waiting for the server's pipes", "held", what)
	if f, ok := s.opt.Stdout.(*os.File); ok && out {
		f.Close()
	}
}

// pipes makes the server's three pipes. The tap's read ends (outR, errR) stay blocking: a
// forward loop then waits in read(2) itself, which on a machine where system calls and
// context switches are dear is a third cheaper than waiting in the runtime's poller (an
// EAGAIN read, epoll_wait, then the read again). The server's stdin (inW) is written in
// non-blocking mode through the poller, which costs nothing while the pipe has room, and
// lets the shutdown's Close interrupt a write to a server that stopped reading. The
// server's ends are blocking, as a server expects. (Windows pipes are all synchronous:
// platform.Pipe.)
func pipes() (inR, inW, outR, outW, errR, errW *os.File, err error) {
	var fs []*os.File
	pipe := func(writeNonblock bool) (r, w *os.File) {
		if err != nil {
			return nil, nil
		}
		r, w, err = platform.Pipe(writeNonblock)
		if err != nil {
			return nil, nil
		}
		fs = append(fs, r, w)
		return r, w
	}
	inR, inW = pipe(true)
	outR, outW = pipe(false)
	errR, errW = pipe(false)
	if err != nil {
		for _, f := range fs {
			f.Close()
		}
		return nil, nil, nil, nil, nil, nil, err
	}
	return
}

// finishSpawnFailed records the failure and closes the trace.
func (s *session) finishSpawnFailed(err error) error {
	se := &SpawnError{Argv: s.opt.Argv, Err: err}
	s.life(mcpclient.LifeInfo{Kind: mcpclient.LifeSpawnFailed, Err: err, Text: se.Error()})
	s.finishRecording()
	return se
}

// life queues a lifecycle event behind the bytes already seen.
func (s *session) life(l mcpclient.LifeInfo) {
	s.q.push(item{t: time.Now(), life: &l})
}

// emit numbers an event and writes it to the trace (which also feeds the viewers). Only the
// sequencer's goroutines call it, one at a time.
func (s *session) emit(ev mcpclient.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextSeq++
	ev.Seq = s.nextSeq
	if ev.Dir == mcpclient.ClientToServer || ev.Dir == mcpclient.ServerToClient {
		s.messages.Add(1)
	}
	s.events.Add(1)
	s.write(ev)
	if s.opt.Observe != nil {
		s.opt.Observe(ev)
	}
	if ev.Dir == mcpclient.ClientToServer || ev.Dir == mcpclient.ServerToClient {
		if l := s.init.observe(&ev); l != nil {
			l.PID = s.pid
			s.nextSeq++
			s.events.Add(1)
			s.write(mcpclient.Event{Seq: s.nextSeq, Time: ev.Time, Dir: mcpclient.Lifecycle, Kind: mcpclient.KindLifecycle, Life: l})
		}
	}
}

// write writes one numbered event to the trace.
func (s *session) write(ev mcpclient.Event) {
	if s.trace != nil {
		if err := s.trace.Write(ev); err != nil && !s.traceFailed {
			s.traceFailed = true
			s.log.Error("recording failed", "err", err)
			fmt.Fprintf(s.opt.Stderr, "mcp-inspect tap: recording failed: %v (the server's traffic still flows)\n", err)
		}
	}
}

// flushTrace writes the lines of the batch the sequencer just finished.
func (s *session) flushTrace() {
	if err := s.tee.flush(); err != nil {
		s.traceError(err)
	}
}

// traceError reports the first recording error; the forwarding goes on.
func (s *session) traceError(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.traceFailed {
		return
	}
	s.traceFailed = true
	s.log.Error("recording failed", "err", err)
	fmt.Fprintf(s.opt.Stderr, "mcp-inspect tap: recording failed: %v (the server's traffic still flows)\n", err)
}

// copyIn forwards the host's stdin to the server. At its end (the host closed stdin) the
// shutdown sequence starts.
func (s *session) copyIn(w *os.File) {
	reason := "host closed stdin"
	var sw io.Writer = w
	if s.inj != nil {
		sw = s.serverW
	}
	write := func(p []byte) bool {
		if _, werr := sw.Write(p); werr != nil {
			text := "writing to the server's stdin failed: " + werr.Error()
			if errors.Is(werr, os.ErrClosed) {
				// The tap closed it itself: the server exited, or is being shut down.
				text = fmt.Sprintf("the host sent %d bytes after the server's stdin was closed (the server exited or is being shut down): recorded, not delivered", len(p))
			}
			s.life(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Err: werr, Text: text})
			s.log.Warn("writing to the server's stdin failed", "err", werr)
			reason = "server stdin closed"
			return false
		}
		return true
	}
	var err error
	if s.inj != nil {
		g := &lineGate{s: s, dir: mcpclient.ClientToServer, max: s.opt.MaxMessage, fwd: write, back: s.hostW}
		if err = s.forward(s.opt.Stdin, streamIn, nil, g); err != nil {
			g.end() // the host's last line without its newline (not after a failed write)
		}
	} else {
		err = s.forward(s.opt.Stdin, streamIn, write, nil)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		reason = "reading the host's stdin failed: " + err.Error()
	}
	s.q.push(item{stream: streamIn, eof: true, t: time.Now()})
	s.stop(reason)
}

// copyOut forwards the server's stdout to the host. When the host stops reading (EPIPE) the
// shutdown sequence starts and the server's output is still drained and recorded.
func (s *session) copyOut(r *os.File, done chan struct{}) {
	defer close(done)
	var dst io.Writer = s.opt.Stdout
	if s.inj != nil {
		dst = s.hostW
	}
	s.drain(r, streamOut, dst, func(werr error) {
		s.life(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Err: werr, Text: "writing to the host failed: " + werr.Error()})
		s.log.Warn("writing to the host failed", "err", werr)
		s.stop("host stopped reading")
	})
	// The host sees the server's end of stdout when it happens.
	if f, ok := s.opt.Stdout.(*os.File); ok {
		f.Close()
	}
}

// copyStderr forwards the server's stderr to ours.
func (s *session) copyStderr(r *os.File, done chan struct{}) {
	defer close(done)
	s.drain(r, streamStderr, s.opt.Stderr, func(error) {})
}

// drain reads one of the server's streams to its end: each read is queued for the trace,
// then written to dst until a write fails (failed is called once); after that the stream is
// still read and recorded, so the server never blocks on a full pipe.
func (s *session) drain(r *os.File, st streamID, dst io.Writer, failed func(error)) {
	defer r.Close()
	broken := false
	write := func(p []byte) bool {
		if !broken && !s.abandoned.Load() {
			if _, werr := dst.Write(p); werr != nil {
				broken = true
				failed(werr)
			}
		}
		return true
	}
	if st == streamOut && s.inj != nil {
		g := &lineGate{s: s, dir: mcpclient.ServerToClient, max: s.opt.MaxMessage, fwd: write, back: s.serverW}
		s.forward(r, st, nil, g)
		g.end()
	} else {
		s.forward(r, st, write, nil)
	}
	s.q.push(item{stream: st, eof: true, t: time.Now()})
}

// smallRead is the largest read that is copied for the recorder; a larger one hands the
// read buffer itself to the recorder and the loop takes a fresh one.
const smallRead = 16 << 10

// forward reads r until it ends (returning the read error, io.EOF at the end) or write
// returns false (returning nil). Each read is queued for the recorder first (so a request
// is always in line before its answer), then written on, then the recorder is woken if it
// waits. A small read is copied into a slab shared by many reads, so that a recorder some
// way behind holds a few slabs rather than a 64 KiB buffer per message; a large one is
// handed over without a copy.
//
// A gate, when set, gets each read in place of write, with the recorder's copy of it, from
// which it may keep requests without copying them again (lineGate.writeRead).
func (s *session) forward(r io.Reader, st streamID, write func([]byte) bool, g *lineGate) error {
	rb := s.pool.get()
	var slab *chunkBuf
	off := 0
	defer func() {
		rb.release()
		slab.release()
	}()
	var yielded time.Time
	for {
		n, err := r.Read(rb.b)
		if n > 0 {
			data := rb.b[:n]
			it := item{stream: st, t: time.Now()}
			if n <= smallRead {
				if slab == nil || off+n > len(slab.b) {
					slab.release()
					slab, off = s.pool.get(), 0
				}
				it.data = slab.b[off : off+n : off+n]
				copy(it.data, data)
				off += n
				slab.refs.Add(1)
				it.buf = slab
			} else {
				rb.refs.Add(1)
				it.data, it.buf = data, rb
			}
			wake := s.q.add(it)
			var more bool
			if g != nil {
				more = g.writeRead(data, readCopy{it.data, it.buf})
			} else {
				more = write(data)
			}
			if wake {
				s.q.ring()
			}
			if it.buf == rb {
				rb.release()
				rb = s.pool.get()
			}
			yieldNow(it.t, &yielded)
			if !more {
				return nil
			}
		}
		if err != nil {
			return err
		}
	}
}

// yieldEvery is how often a busy forward loop passes through the scheduler.
const yieldEvery = 5 * time.Millisecond

// yieldNow lets a busy forward loop through the scheduler about every yieldEvery. A loop
// that only ever goes from one system call to the next keeps the same scheduling tick, so
// after 10 ms the runtime's monitor takes its P away at each call (forced preemption) and,
// having taken one, polls again every 20 µs: tens of thousands of extra wake-ups a second.
// A Gosched now and then restarts the tick and lets the monitor sleep.
func yieldNow(now time.Time, last *time.Time) {
	if now.Sub(*last) >= yieldEvery {
		*last = now
		runtime.Gosched()
	}
}

func clone(b []byte) []byte {
	c := make([]byte, len(b))
	copy(c, b)
	return c
}

// stop starts the shutdown sequence (once).
func (s *session) stop(reason string) {
	s.inj.endHolds() // a held frame goes on before the server's stdin closes
	s.stopOnce.Do(func() { s.stopReason <- reason })
}

// shutdown runs the design.md sequence when asked: close the server's stdin, wait,
// terminate the process tree (SIGTERM; CTRL_BREAK on Windows), wait, kill it. After a forwarded signal the first step is that
// signal instead of closing stdin (the host asked for it).
func (s *session) shutdown(in *os.File) {
	defer close(s.shutdownDone)
	var reason string
	select {
	case reason = <-s.stopReason:
	case <-s.waitDone:
		in.Close()
		return
	}
	s.log.Info("shutting the server down", "why", reason)
	if !strings.HasPrefix(reason, "signal ") {
		s.life(mcpclient.LifeInfo{Kind: mcpclient.LifeShutdown, PID: s.pid, Text: reason + ": closing the server's stdin"})
	}
	in.Close()
	if waitChan(s.waitDone, s.opt.ShutdownGrace) {
		return
	}
	s.life(mcpclient.LifeInfo{Kind: mcpclient.LifeShutdown, PID: s.pid, Text: platform.TerminateAction})
	// A polite step that could not be sent (Windows: no console to share with the server)
	// is not waited for.
	if err := s.tree.Terminate(); err != nil {
		s.life(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, PID: s.pid, Err: err, Text: platform.TerminateStep + " could not be sent (" + err.Error() + "): going on at once"})
	} else if waitChan(s.waitDone, s.opt.ShutdownGrace) {
		return
	}
	s.life(mcpclient.LifeInfo{Kind: mcpclient.LifeShutdown, PID: s.pid, Text: platform.KillAction})
	_ = s.tree.Kill()
}

// killGroup ends whatever is left of the server's process tree (forked children).
func (s *session) killGroup() {
	if !s.tree.Alive() {
		s.tree.Release()
		return
	}
	defer func() {
		if !s.tree.Alive() {
			s.tree.Release()
		}
	}()
	s.log.Info("ending the rest of the server's process tree")
	if s.tree.Terminate() != nil || !s.tree.WaitGone(s.opt.ShutdownGrace) {
		_ = s.tree.Kill()
	}
}

func waitChan(ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}
