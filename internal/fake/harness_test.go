package fake

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

const timeout = 15 * time.Second

// syncBuffer collects the child's stderr while the test reads it. The child writes stderr
// on its own pipe, so a test that expects text there must wait for it (until) rather than
// read it at once: nothing orders it against stdout.
type syncBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	eof     bool          // the child's stderr is closed: b holds all it will ever hold
	changed chan struct{} // closed, and replaced, on every write and at EOF
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{changed: make(chan struct{})} }

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.b.Write(p)
	s.signal()
	return n, err
}

// close marks EOF on the child's stderr.
func (s *syncBuffer) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.eof = true
	s.signal()
}

// signal wakes every waiter; s.mu is held.
func (s *syncBuffer) signal() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// state is the text so far, whether it is complete, and a channel closed at the next change.
func (s *syncBuffer) state() (string, bool, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String(), s.eof, s.changed
}

// until waits until the text contains sub, stderr reaches EOF, or d passes, whichever is
// first, and returns the text at that moment.
func (s *syncBuffer) until(sub string, d time.Duration) string {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		text, eof, changed := s.state()
		if eof || strings.Contains(text, sub) {
			return text
		}
		select {
		case <-changed:
		case <-timer.C:
			return text
		}
	}
}

// closed reports whether stderr reached EOF within d.
func (s *syncBuffer) closed(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		_, eof, changed := s.state()
		if eof {
			return true
		}
		select {
		case <-changed:
		case <-timer.C:
			return false
		}
	}
}

// chunk is what one read(2) of the child's stdout returned.
type chunk struct {
	b  []byte
	at time.Time
}

// proc is a running fake server on real pipes.
type proc struct {
	t      testing.TB
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	chunks chan chunk
	buf    []byte // bytes read but not yet consumed as lines
	stderr *syncBuffer
	waited bool
}

// run starts the fake server with args and extra environment ("K=V").
func run(t testing.TB, args []string, env ...string) *proc {
	t.Helper()
	return runBinary(t, Binary(t), args, env...)
}

func runBinary(t testing.TB, bin string, args []string, env ...string) *proc {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	return start(t, cmd)
}

// start runs cmd, which must not have its stdio set, on fresh pipes.
func start(t testing.TB, cmd *exec.Cmd) *proc {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, cmd: cmd, stdin: stdin, chunks: make(chan chunk, 4096), stderr: newSyncBuffer()}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Our own copy (not cmd.Stderr = p.stderr) so that the buffer knows when stderr ends.
	go func() {
		_, _ = io.Copy(p.stderr, stderr)
		p.stderr.close()
	}()
	go func() {
		for {
			b := make([]byte, 1<<20)
			n, err := stdout.Read(b)
			if n > 0 {
				p.chunks <- chunk{b: b[:n], at: time.Now()}
			}
			if err != nil {
				close(p.chunks)
				return
			}
		}
	}()
	t.Cleanup(func() {
		if !p.waited {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return p
}

// scenario starts the named scenario with the --scenario flag.
func scenario(t testing.TB, name string, env ...string) *proc {
	t.Helper()
	return run(t, []string{"--scenario", name}, env...)
}

func (p *proc) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		p.t.Fatalf("write to the server: %v", err)
	}
}

// chunk returns the next raw read of stdout; no bytes may be pending.
func (p *proc) chunk() chunk {
	p.t.Helper()
	if len(p.buf) > 0 {
		p.t.Fatalf("chunk() with %d bytes pending: %q", len(p.buf), p.buf)
	}
	select {
	case c, ok := <-p.chunks:
		if !ok {
			p.t.Fatal("stdout closed")
		}
		return c
	case <-time.After(timeout):
		p.t.Fatal("timed out waiting for stdout")
	}
	return chunk{}
}

// line returns the next stdout line including its "\n".
func (p *proc) line() string {
	p.t.Helper()
	deadline := time.After(timeout)
	for {
		if i := bytes.IndexByte(p.buf, '\n'); i >= 0 {
			l := string(p.buf[:i+1])
			p.buf = p.buf[i+1:]
			return l
		}
		select {
		case c, ok := <-p.chunks:
			if !ok {
				p.t.Fatalf("stdout closed; pending %q", p.buf)
			}
			p.buf = append(p.buf, c.b...)
		case <-deadline:
			p.t.Fatalf("timed out waiting for a line; pending %.200q", p.buf)
		}
	}
}

// expect reads the next line and compares it with want (given without "\n").
func (p *proc) expect(want string) {
	p.t.Helper()
	if got := p.line(); got != want+"\n" {
		p.t.Fatalf("stdout line:\n got %q\nwant %q", got, want+"\n")
	}
}

// exchange sends a request line and expects exactly the given response lines.
func (p *proc) exchange(req string, want ...string) {
	p.t.Helper()
	p.send(req)
	for _, w := range want {
		p.expect(w)
	}
}

const initReq = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fake-test","version":"0"}}}`

// defaultInit is the initialize response cases.md prescribes for initReq.
const defaultInit = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"demo-server","version":"0.0.1"}}}`

// handshake does initialize (expecting the default answer) and notifications/initialized.
func (p *proc) handshake() {
	p.t.Helper()
	p.exchange(initReq, defaultInit)
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// rest drains stdout until EOF.
func (p *proc) rest() string {
	p.t.Helper()
	out := string(p.buf)
	p.buf = nil
	deadline := time.After(timeout)
	for {
		select {
		case c, ok := <-p.chunks:
			if !ok {
				return out
			}
			out += string(c.b)
		case <-deadline:
			p.t.Fatalf("stdout not closed; so far %.200q", out)
		}
	}
}

// exit is how the process ended.
type exit struct {
	code   int    // -1 when killed by a signal
	signal string // "" unless killed by a signal: its short name ("KILL", "TERM")
	stdout string // what was still unread on stdout
}

// wait closes stdin if asked, drains stdout and stderr and waits for the process. After it,
// p.stderr holds everything the process wrote there.
func (p *proc) wait(closeStdin bool) exit {
	p.t.Helper()
	if closeStdin {
		p.stdin.Close()
	}
	out := p.rest()
	// cmd.Wait closes the stderr pipe, so it must come after the copy has reached EOF.
	if !p.stderr.closed(timeout) {
		p.t.Fatalf("stderr not closed; so far %.200q", p.stderr.String())
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(timeout):
		p.t.Fatal("the server did not exit")
	}
	p.waited = true
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		p.t.Fatalf("wait: %v", err)
	}
	ex := platform.ExitOf(p.cmd, err)
	return exit{code: ex.Code, signal: ex.Signal, stdout: out}
}

// stderrUntil returns stderr once it contains s, or as it is when stderr ends or the
// timeout passes; the caller checks it.
func (p *proc) stderrUntil(s string) string {
	return p.stderr.until(s, timeout)
}

// waitStderr waits until stderr contains s and fails the test if it never does.
func (p *proc) waitStderr(s string) {
	p.t.Helper()
	if got := p.stderrUntil(s); !strings.Contains(got, s) {
		p.t.Fatalf("stderr never contained %q; it is %q", s, got)
	}
}
