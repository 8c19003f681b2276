package tap

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// The test binary doubles as the servers the tap tests start, so they need no shell tools
// and run the same on every system: with helperCat as its one argument it copies stdin to
// stdout (cat), with helperExit it exits 0 at once. With helperDetach and a file name it
// starts itself as helperSleep in a new session (setsid) holding its stdout and stderr,
// writes that grandchild's pid to the file, prints "detached" and exits 0.
const (
	helperCat    = "tap-test-cat"
	helperExit   = "tap-test-exit"
	helperDetach = "tap-test-detach"
	helperSleep  = "tap-test-sleep"
)

func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == helperDetach {
		detachHelper(os.Args[2])
	}
	if len(os.Args) == 2 {
		switch os.Args[1] {
		case helperCat:
			_, _ = io.Copy(os.Stdout, os.Stdin)
			os.Exit(0)
		case helperExit:
			os.Exit(0)
		case helperSleep:
			time.Sleep(60 * time.Second)
			os.Exit(0)
		}
	}
	os.Exit(m.Run())
}

// detachHelper is the helperDetach server: a grandchild in a session of its own keeps
// the server's stdout and stderr open after the server exits.
func detachHelper(pidFile string) {
	cmd := exec.Command(os.Args[0], helperSleep)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	platformtest.NewSession(cmd)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(pidFile, []byte(strconv.Itoa(cmd.Process.Pid)), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("detached")
	os.Exit(0)
}

// catArgv is a server that echoes what it reads, as cat does.
func catArgv() []string { return []string{os.Args[0], helperCat} }

// harness runs a tap in-process with real pipes on the host side, as a host would see it.
type harness struct {
	t       *testing.T
	in      *os.File // the host writes here (the tap's stdin)
	out     *os.File // the host reads here (the tap's stdout)
	stderr  *lockedBuffer
	trace   string
	sockDir string
	opts    Options

	started chan struct{}
	pid     int
	socket  string

	done chan struct{}
	res  Result
	err  error

	readMu  sync.Mutex
	got     bytes.Buffer // host side: everything read from the tap's stdout
	readErr error
	readEOF chan struct{}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startTap starts a tap on argv. edit may change the options before Run.
func startTap(t *testing.T, argv []string, edit func(*Options)) *harness {
	t.Helper()
	dir := t.TempDir()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{
		t: t, in: inW, out: outR, stderr: &lockedBuffer{},
		trace: filepath.Join(dir, "trace.jsonl"), sockDir: filepath.Join(dir, "run"),
		started: make(chan struct{}), done: make(chan struct{}), readEOF: make(chan struct{}),
	}
	h.opts = Options{
		Argv: argv, Name: "test", Stdin: inR, Stdout: outW, Stderr: h.stderr,
		TracePath: h.trace, SocketDir: h.sockDir, ShutdownGrace: 500 * time.Millisecond,
		Signals: []os.Signal{},
		OnStart: func(pid int, sock string) {
			h.pid, h.socket = pid, sock
			close(h.started)
		},
	}
	if edit != nil {
		edit(&h.opts)
	}
	go func() {
		defer close(h.done)
		h.res, h.err = Run(context.Background(), h.opts)
		inR.Close()
	}()
	go func() {
		defer close(h.readEOF)
		buf := make([]byte, 64<<10)
		for {
			n, err := outR.Read(buf)
			h.readMu.Lock()
			h.got.Write(buf[:n])
			h.readMu.Unlock()
			if err != nil {
				if err != io.EOF {
					h.readErr = err
				}
				return
			}
		}
	}()
	select {
	case <-h.started:
	case <-h.done:
		t.Fatalf("tap ended before starting: %v", h.err)
	case <-time.After(20 * time.Second):
		t.Fatal("tap did not start")
	}
	t.Cleanup(func() {
		h.in.Close()
		select {
		case <-h.done:
		case <-time.After(20 * time.Second):
			t.Error("tap did not end")
		}
		outR.Close()
	})
	return h
}

// write sends bytes as the host.
func (h *harness) write(b []byte) {
	h.t.Helper()
	if _, err := h.in.Write(b); err != nil {
		h.t.Fatalf("host write: %v", err)
	}
}

// hostGot is what the host has read so far.
func (h *harness) hostGot() []byte {
	h.readMu.Lock()
	defer h.readMu.Unlock()
	return append([]byte(nil), h.got.Bytes()...)
}

// waitHost waits until the host has read n bytes.
func (h *harness) waitHost(n int, timeout time.Duration) []byte {
	h.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := h.hostGot()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("host read %d bytes, want %d", len(got), n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// finish closes the host's stdin and waits for the tap to end.
func (h *harness) finish() Result {
	h.t.Helper()
	h.in.Close()
	select {
	case <-h.done:
	case <-time.After(30 * time.Second):
		h.t.Fatal("tap did not end after stdin closed")
	}
	<-h.readEOF
	if h.err != nil {
		h.t.Fatalf("Run: %v", h.err)
	}
	return h.res
}

// readTrace returns the trace's events.
func readTrace(t *testing.T, path string) (trace.Header, []mcpclient.Event) {
	t.Helper()
	tr, err := trace.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if len(tr.Warnings) > 0 {
		t.Errorf("trace warnings: %v", tr.Warnings)
	}
	var evs []mcpclient.Event
	for ev, err := range tr.Events() {
		if err != nil {
			t.Fatalf("trace: %v", err)
		}
		evs = append(evs, ev)
	}
	return tr.Header, evs
}

// stream concatenates the raw bytes of one direction.
func stream(evs []mcpclient.Event, dir mcpclient.Direction) []byte {
	var b []byte
	for _, ev := range evs {
		if ev.Dir == dir {
			b = append(b, ev.Raw...)
		}
	}
	return b
}

// checkSeq checks the events are numbered 1, 2, 3, ...
func checkSeq(t *testing.T, evs []mcpclient.Event) {
	t.Helper()
	for i, ev := range evs {
		if ev.Seq != uint64(i+1) {
			t.Fatalf("event %d has seq %d", i, ev.Seq)
		}
	}
}

func lifeTexts(evs []mcpclient.Event) []string {
	var out []string
	for _, ev := range evs {
		if ev.Life != nil {
			out = append(out, ev.Life.Text)
		}
	}
	return out
}

// mustRules parses --inject rules.
func mustRules(tb testing.TB, srcs ...string) []Rule {
	tb.Helper()
	var rules []Rule
	for _, src := range srcs {
		r, err := ParseRule(src)
		if err != nil {
			tb.Fatal(err)
		}
		rules = append(rules, r)
	}
	return rules
}
