package tap

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	mcpsession "github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// The attach socket's protocol. A client connects and writes one request line, a JSON
// object with an "op":
//
//	{"op":"info"}    → one line: the tap's Info as JSON; then the tap closes the connection.
//	{"op":"attach"}  → the trace as JSON Lines, exactly as the recorder writes it: the header
//	                   line, every event line so far, then each new event line as it happens.
//	                   The connection ends (EOF) after the last event when the session ends.
//
// An attached viewer may set breakpoints and decide what they hold by writing more lines:
//
//	{"op":"break","filters":["method:tools/call"],"timeout":"2m"}
//	                 replaces its breakpoints (wire filters; none clears them); a frame one
//	                 matches is held until the viewer decides, or the timeout passes. One
//	                 viewer at a time has breakpoints.
//	{"op":"decide","hold":3,"decision":"forward"|"send"|"drop"|"answer","message":{...}}
//	                 settles hold 3: forward it unchanged, send message in its place, drop
//	                 it, or answer its sender with message (a request only).
//
// A line that is not a trace line is a control line, an object whose first member is "tap":
//
//	{"tap":"dropped","reason":"..."}  the viewer fell more than Options.ViewerBuffer bytes
//	                                  behind and is disconnected; the tap goes on.
//	{"tap":"error","reason":"..."}    the tap cannot serve the request.
//	{"tap":"breakpoints","filters":[...],"timeout":"2m0s"}  the viewer's breakpoints as set.
//	{"tap":"refused","reason":"..."}  a break or decide op was refused.
//	{"tap":"held","hold":3,"dir":"c2s","what":"...","breakpoint":"...","request":true,
//	 "deadline":"RFC 3339","message":"the frame's bytes"}  a frame is held (to its viewer).
//	{"tap":"released","hold":3,"how":"forwarded"}  hold 3 ended (session.HoldEnd.How).
//
// A held frame goes on unchanged when its viewer detaches or the session ends.
// Everything sent is what the trace file holds (redacted the same way). The socket is mode
// 0600 in a 0700 directory of the user's runtime directory: nothing another user can reach.

// DefaultViewerBuffer is how far (in bytes of trace lines) a viewer may fall behind before
// it is dropped.
const DefaultViewerBuffer = 32 << 20

// writeTimeout bounds one write to a viewer; a viewer that accepts nothing for this long is
// dropped.
const writeTimeout = 10 * time.Second

// dropNoticeTimeout is how long a dropped viewer's goroutine waits to deliver the notice.
const dropNoticeTimeout = 30 * time.Second

// Info describes a running tap, as `attach` lists it.
type Info struct {
	// Name is the tap's --name.
	Name string `json:"name"`
	// Argv is the server's command line (token-looking values masked).
	Argv []string `json:"argv"`
	// Cwd is the tap's working directory.
	Cwd string `json:"cwd,omitempty"`
	// PID is the tap's process id, HostPID its parent's (the host), ServerPID the server's.
	PID       int `json:"pid"`
	HostPID   int `json:"hostPid"`
	ServerPID int `json:"serverPid"`
	// Start is when the tap started.
	Start time.Time `json:"start"`
	// Messages counts the frames seen both ways; Events all trace events.
	Messages int64 `json:"messages"`
	Events   int64 `json:"events"`
	// Trace is the trace file ("" when the trace is not written to a file).
	Trace string `json:"trace,omitempty"`
	// Socket is the attach socket's path (set by List, not sent).
	Socket string `json:"-"`
}

// request is a client's line: the first (info or attach), or an attached viewer's
// breakpoint ops (see breakpoints.go).
type request struct {
	Op string `json:"op"`
	// break: the breakpoints (wire filters) and the hold timeout (a Go duration; "" is
	// DefaultHoldTimeout).
	Filters []string `json:"filters,omitempty"`
	Timeout string   `json:"timeout,omitempty"`
	// decide: the hold, the decision (forward, send, drop, answer) and its message.
	Hold     int64           `json:"hold,omitempty"`
	Decision string          `json:"decision,omitempty"`
	Message  json.RawMessage `json:"message,omitempty"`
}

// hub serves the attach socket: trace history and live lines to any number of viewers.
type hub struct {
	path  string
	ln    *net.UnixListener
	s     *session
	info  Info
	limit int

	mu      sync.Mutex
	size    int64       // bytes of the trace so far
	mem     *memHistory // the trace so far (its newest lines), when it is not in a file
	file    string      // the trace file, read back for history
	viewers map[*viewer]struct{}
	conns   map[net.Conn]struct{}
	closed  bool
	wg      sync.WaitGroup
}

// viewer is one attached connection with its bounded queue.
type viewer struct {
	conn net.Conn

	mu      sync.Mutex
	queue   [][]byte
	queued  int
	dropped bool
	ended   bool
	wake    chan struct{}
}

// tee is the io.Writer the trace Writer writes to: the file (or Options.Trace) and then
// the hub, which only ever sees bytes that are in the file. The recorder hands it one whole
// line per Write. While the sequencer works through a batch of queued events it collects
// their lines and writes them with one write(2) at the end of the batch (group commit): a
// recorder that has caught up writes each event at once, as the recorder's own Writer does,
// and one that is behind is not slowed further by a system call per line. Either way a
// kill -9 loses only lines that were never complete in the file.
type tee struct {
	w   io.Writer
	hub func([]byte)

	batching bool
	buf      []byte
	err      error
}

// maxBatch is how many bytes of lines a batch collects before they are written anyway.
const maxBatch = 1 << 20

func (t *tee) Write(p []byte) (int, error) {
	if t.err != nil {
		return 0, t.err
	}
	if !t.batching {
		return len(p), t.out(p)
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) >= maxBatch {
		return len(p), t.flush()
	}
	return len(p), nil
}

// flush writes the collected lines.
func (t *tee) flush() error {
	if len(t.buf) == 0 || t.err != nil {
		return t.err
	}
	err := t.out(t.buf)
	t.buf = t.buf[:0]
	if cap(t.buf) > 4*maxBatch {
		t.buf = nil
	}
	return err
}

func (t *tee) out(p []byte) error {
	if t.w != nil {
		if _, err := t.w.Write(p); err != nil {
			t.err = err
			return err
		}
	}
	if t.hub != nil {
		t.hub(p)
	}
	return nil
}

// openTrace creates the trace file and the trace writer; lines reach the hub through the
// tee once it runs.
func (s *session) openTrace(start time.Time) error {
	var out io.Writer = s.opt.Trace
	if s.opt.TracePath != "" {
		// A new file (mode 0600) renamed over whatever is at the path, never written through a
		// symlink; marked running while the tap writes it, so no pruner (another tap's)
		// removes it.
		f, err := trace.CreateFile(s.opt.TracePath, true)
		if err != nil {
			return fmt.Errorf("--record: %w", err)
		}
		s.traceFile = f
		out = f
	}
	s.tee = &tee{w: out}
	if s.opt.SocketDir != "-" {
		// Until the hub exists, lines are kept for it (the header and the first events).
		s.early = &earlyLines{}
		s.tee.hub = s.early.add
	}
	h := s.opt.Header
	if len(h.Argv) == 0 {
		h.Argv = s.opt.Argv
	}
	if h.Cwd == "" {
		h.Cwd = s.opt.Dir
		if h.Cwd == "" {
			h.Cwd, _ = os.Getwd()
		}
	}
	if h.Tool == "" {
		h.Tool = "mcp-inspect"
	}
	if h.Framing == "" {
		h.Framing = trace.FramingNewline
	}
	if h.Note == "" {
		h.Note = "recorded by mcp-inspect tap " + s.opt.Name
	}
	h.Start = start
	w, err := trace.NewWriter(s.tee, h, s.opt.Redactor)
	if err != nil {
		if s.traceFile != nil {
			s.traceFile.Close()
		}
		return err
	}
	s.trace = w
	return nil
}

// earlyLines holds the lines written before the hub is up, then passes lines on to it (or
// drops them when the tap could not be published).
type earlyLines struct {
	mu    sync.Mutex
	lines []byte
	hub   *hub
	off   bool
}

func (e *earlyLines) add(p []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.hub != nil:
		e.hub.publish(p)
	case !e.off:
		e.lines = append(e.lines, p...)
	}
}

// to hands the kept lines to h (nil: there is no hub; forget them) and passes later ones on.
func (e *earlyLines) to(h *hub) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if h == nil {
		e.off, e.lines = true, nil
		return
	}
	h.publish(e.lines)
	e.lines, e.hub = nil, h
}

// finishRecording lets the sequencer emit everything queued, closes the trace, and ends the
// viewers' streams.
func (s *session) finishRecording() {
	s.q.close()
	if s.seq != nil {
		<-s.seq.done
	}
	if s.trace != nil {
		_ = s.trace.Close()
	}
	if s.traceFile != nil {
		if err := s.traceFile.Sync(); err != nil {
			s.log.Warn("syncing the trace", "err", err)
		}
		if err := s.traceFile.Close(); err != nil && !s.traceFailed {
			fmt.Fprintf(s.opt.Stderr, "mcp-inspect tap: recording failed: %v\n", err)
		}
	}
	if s.hub != nil {
		s.hub.close()
	}
}

// publish opens the attach socket; on failure the tap goes on without it (logged).
func (s *session) publish(start time.Time) *hub {
	h := s.listen(start)
	s.early.to(h)
	if h != nil {
		s.log.Info("tap published", "socket", h.path)
		h.wg.Add(1)
		go h.accept()
	}
	return h
}

func (s *session) listen(start time.Time) *hub {
	if s.opt.SocketDir == "-" {
		return nil
	}
	dir := s.opt.SocketDir
	if dir == "" {
		dir = RuntimeDir()
	}
	if err := ensureDir(dir); err != nil {
		s.publishFailed(dir, err)
		return nil
	}
	cleanStale(dir)
	path := filepath.Join(dir, socketName(os.Getpid()))
	_ = os.Remove(path) // a dead process with our pid left it
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		s.publishFailed(path, err)
		return nil
	}
	ln.SetUnlinkOnClose(true)
	if err := platform.MakePrivate(path); err != nil {
		ln.Close()
		s.publishFailed(path, err)
		return nil
	}
	cwd, _ := os.Getwd()
	h := &hub{
		path:    path,
		ln:      ln,
		s:       s,
		limit:   s.opt.ViewerBuffer,
		viewers: map[*viewer]struct{}{},
		conns:   map[net.Conn]struct{}{},
		file:    s.opt.TracePath,
		mem:     newMemHistory(s.opt.MemoryHistory, s.opt.NoFileReason),
		info: Info{
			Name: s.opt.Name, Argv: s.opt.Redactor.Argv(s.opt.Argv), Cwd: cwd,
			PID: os.Getpid(), HostPID: os.Getppid(), ServerPID: s.pid, Start: start, Trace: s.opt.TracePath,
		},
	}
	return h
}

// publishFailed says, once, that attach will not find this tap; the tap goes on.
func (s *session) publishFailed(where string, err error) {
	s.log.Error("cannot publish the tap for attach", "where", where, "err", err)
	fmt.Fprintf(s.opt.Stderr, "mcp-inspect tap: cannot publish for attach (%v); forwarding and recording go on\n", err)
}

// publish appends trace bytes (whole lines) to the history and queues them for every viewer.
func (h *hub) publish(p []byte) {
	if len(p) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.size += int64(len(p))
	if h.file == "" {
		h.mem.add(p)
	}
	if len(h.viewers) == 0 {
		return
	}
	line := clone(p) // the recorder reuses p; one copy is shared by every viewer
	for v := range h.viewers {
		v.push(line, h.limit)
	}
}

func (h *hub) accept() {
	defer h.wg.Done()
	for {
		c, err := h.ln.Accept()
		if err != nil {
			return
		}
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			c.Close()
			return
		}
		h.conns[c] = struct{}{}
		h.wg.Add(1)
		h.mu.Unlock()
		go h.serve(c)
	}
}

// serve answers one connection.
func (h *hub) serve(c net.Conn) {
	defer h.wg.Done()
	defer func() {
		c.Close()
		h.mu.Lock()
		delete(h.conns, c)
		h.mu.Unlock()
	}()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	br := bufio.NewReaderSize(c, 4096)
	line, err := br.ReadSlice('\n')
	if err != nil {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		writeControl(c, "error", "the request is not JSON: "+err.Error())
		return
	}
	switch req.Op {
	case "info":
		info := h.info
		info.Messages, info.Events = h.s.messages.Load(), h.s.events.Load()
		b, _ := json.Marshal(info)
		_ = c.SetWriteDeadline(time.Now().Add(writeTimeout))
		_, _ = c.Write(append(b, '\n'))
	case "attach":
		h.attach(c, br)
	default:
		writeControl(c, "error", fmt.Sprintf("unknown op %q (want info or attach)", req.Op))
	}
}

func writeControl(c net.Conn, what, reason string) {
	b, _ := json.Marshal(struct {
		Tap    string `json:"tap"`
		Reason string `json:"reason"`
	}{what, reason})
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = c.Write(append(b, '\n'))
}

// attach streams the history, then the live lines, until the session ends, the viewer goes
// away, or it falls too far behind.
func (h *hub) attach(c net.Conn, br *bufio.Reader) {
	v := &viewer{conn: c, wake: make(chan struct{}, 1)}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	histSize, file := h.size, h.file
	var mem [][]byte
	if file == "" {
		mem = h.mem.snapshot()
	}
	h.viewers[v] = struct{}{}
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.viewers, v)
		h.mu.Unlock()
	}()
	if hold := h.holder(); hold != nil {
		go h.control(v, br, hold)
	}
	h.s.log.Info("viewer attached", "history_bytes", histSize)

	// History: the trace so far, from the file (never held in memory whole) or from memory.
	var hist io.Reader
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			writeControl(c, "error", "cannot read the trace: "+err.Error())
			return
		}
		defer f.Close()
		hist = io.NewSectionReader(f, 0, histSize)
	} else {
		hist = bytesReader(mem)
	}
	if err := copyWithDeadline(c, hist); err != nil {
		v.mu.Lock()
		dropped := v.dropped
		v.mu.Unlock()
		if dropped {
			h.dropped(c)
		} else {
			h.s.log.Info("viewer gone", "err", err)
		}
		return
	}
	for {
		batch, dropped, ended := v.take()
		if len(batch) > 0 {
			_ = c.SetWriteDeadline(time.Now().Add(writeTimeout))
			bufs := net.Buffers(batch)
			if _, err := bufs.WriteTo(c); err != nil {
				v.mu.Lock()
				dropped = v.dropped
				v.mu.Unlock()
				if !dropped {
					h.s.log.Info("viewer gone", "err", err)
					return
				}
			}
		}
		if dropped {
			h.dropped(c)
			return
		}
		if ended {
			return
		}
	}
}

// dropped tells a viewer it was dropped, if it reads again within dropNoticeTimeout. The
// notice starts with a newline in case a timed-out write left half a line.
func (h *hub) dropped(c net.Conn) {
	h.s.log.Warn("viewer dropped: too far behind", "limit", h.limit)
	b, _ := json.Marshal(struct {
		Tap    string `json:"tap"`
		Reason string `json:"reason"`
	}{"dropped", fmt.Sprintf("this viewer fell more than %d bytes behind the tap and was disconnected; the tap and its recording go on; attach again to catch up", h.limit)})
	_ = c.SetWriteDeadline(time.Now().Add(dropNoticeTimeout))
	_, _ = c.Write(append(append([]byte{'\n'}, b...), '\n'))
}

func copyWithDeadline(c net.Conn, r io.Reader) error {
	buf := make([]byte, 256<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			_ = c.SetWriteDeadline(time.Now().Add(writeTimeout))
			if _, werr := c.Write(buf[:n]); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// memBlock is the size of one block of a trace kept in memory. Blocks are filled and
// never moved: growing one slice instead copied the whole trace at every doubling, and its
// page faults were most of a --no-save HTTP tap's cost per exchange after recording.
const memBlock = 1 << 20

type memReader struct {
	b [][]byte
}

func bytesReader(b [][]byte) io.Reader { return &memReader{b: b} }

func (m *memReader) Read(p []byte) (int, error) {
	for len(m.b) > 0 && len(m.b[0]) == 0 {
		m.b = m.b[1:]
	}
	if len(m.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, m.b[0])
	m.b[0] = m.b[0][n:]
	return n, nil
}

// push queues a line, or drops the viewer when it is more than limit bytes behind.
func (v *viewer) push(line []byte, limit int) {
	v.mu.Lock()
	if v.dropped || v.ended {
		v.mu.Unlock()
		return
	}
	if v.queued+len(line) > limit {
		v.dropped = true
		v.queue, v.queued = nil, 0
	} else {
		v.queue = append(v.queue, line)
		v.queued += len(line)
	}
	v.mu.Unlock()
	select {
	case v.wake <- struct{}{}:
	default:
	}
}

// end marks the end of the session: the viewer sends what is queued, then closes.
func (v *viewer) end() {
	v.mu.Lock()
	v.ended = true
	v.mu.Unlock()
	select {
	case v.wake <- struct{}{}:
	default:
	}
}

// take waits for lines, the drop, or the end.
func (v *viewer) take() (batch [][]byte, dropped, ended bool) {
	for {
		v.mu.Lock()
		batch, dropped, ended = v.queue, v.dropped, v.ended
		v.queue, v.queued = nil, 0
		v.mu.Unlock()
		if len(batch) > 0 || dropped || ended {
			return
		}
		<-v.wake
	}
}

// close stops accepting viewers, lets the attached ones receive the rest of the trace (for
// a bounded time), and removes the socket.
func (h *hub) close() {
	h.mu.Lock()
	h.closed = true
	for v := range h.viewers {
		v.end()
	}
	h.mu.Unlock()
	h.ln.Close()
	done := make(chan struct{})
	go func() {
		h.wg.Wait()
		close(done)
	}()
	if !waitChan(done, 3*time.Second) {
		h.mu.Lock()
		for c := range h.conns {
			c.Close()
		}
		h.mu.Unlock()
		<-done
	}
	_ = os.Remove(h.path)
}

// holder is the tap's breakpoint holder (nil: this tap holds nothing).
func (h *hub) holder() *holder {
	if h.s.inj == nil {
		return nil
	}
	return h.s.inj.holds
}

// control reads an attached viewer's breakpoint ops until it goes away, then releases what
// its breakpoints held.
func (h *hub) control(v *viewer, br *bufio.Reader, hold *holder) {
	defer hold.detach(v)
	for {
		// A decision carries a whole message (an edit of a 10 MB frame is a 10 MB line).
		line, err := readLine(br)
		if err != nil {
			return
		}
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			v.push(refusedLine("the line is not JSON: "+err.Error()), h.limit)
			continue
		}
		if err := h.op(v, hold, req); err != nil {
			v.push(refusedLine(err.Error()), h.limit)
		}
	}
}

// op carries out one breakpoint op; the error is the refusal.
func (h *hub) op(v *viewer, hold *holder, req request) error {
	switch req.Op {
	case "break":
		var timeout time.Duration
		if req.Timeout != "" {
			d, err := time.ParseDuration(req.Timeout)
			if err != nil || d <= 0 {
				return fmt.Errorf("timeout %q: want a positive Go duration such as 30s or 5m", req.Timeout)
			}
			timeout = d
		}
		return hold.setBreakpoints(v, h.limit, req.Filters, timeout)
	case "decide":
		kinds := map[string]mcpsession.HoldDecisionKind{"forward": mcpsession.HoldForward, "send": mcpsession.HoldSend,
			"drop": mcpsession.HoldDrop, "answer": mcpsession.HoldAnswer}
		k, ok := kinds[req.Decision]
		if !ok {
			return fmt.Errorf("decision %q: want forward, send, drop or answer", req.Decision)
		}
		if (k == mcpsession.HoldSend || k == mcpsession.HoldAnswer) && len(req.Message) == 0 {
			return fmt.Errorf("decision %s needs a message", req.Decision)
		}
		return hold.decide(v, req.Hold, mcpsession.HoldDecision{Kind: k, Message: req.Message})
	}
	return fmt.Errorf("unknown op %q (an attached viewer may send break or decide)", req.Op)
}

func refusedLine(reason string) []byte {
	return controlLine(struct {
		Tap    string `json:"tap"`
		Reason string `json:"reason"`
	}{"refused", reason})
}
