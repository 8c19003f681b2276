package tap

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestSpawnFailure: a command that does not exist gives a SpawnError with code 127 and a
// trace that says so.
func TestSpawnFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	_, err := Run(context.Background(), Options{Argv: []string{"/nonexistent/server"}, TracePath: path, SocketDir: "-", Signals: []os.Signal{}, Stdin: strings.NewReader("")})
	var se *SpawnError
	if !errors.As(err, &se) || se.Code() != 127 {
		t.Fatalf("err %v, want a SpawnError with code 127", err)
	}
	_, evs := readTrace(t, path)
	if len(evs) != 1 || evs[0].Life == nil || evs[0].Life.Kind != mcpclient.LifeSpawnFailed {
		t.Fatalf("trace %+v", evs)
	}
}

// blockingWriter blocks every write after the first (the header) until released.
type blockingWriter struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	n       int
	release chan struct{}
}

func (b *blockingWriter) Write(p []byte) (int, error) {
	b.mu.Lock()
	b.n++
	first := b.n == 1
	b.mu.Unlock()
	if !first {
		<-b.release
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// TestStuckRecorderNeverBlocksTheStream: with the trace writer stuck, 8 MB still go both
// ways at once; the recorder catches up afterwards and the trace is complete.
func TestStuckRecorderNeverBlocksTheStream(t *testing.T) {
	bw := &blockingWriter{release: make(chan struct{})}
	h := startTap(t, catArgv(), func(o *Options) {
		o.TracePath, o.Trace, o.SocketDir = "", bw, "-"
	})
	line := append(bytes.Repeat([]byte("x"), 8191), '\n')
	var input []byte
	for range 1024 {
		input = append(input, line...)
	}
	go h.write(input)
	got := h.waitHost(len(input), 20*time.Second)
	if !bytes.Equal(got, input) {
		t.Fatal("host side differs")
	}
	close(bw.release)
	h.finish()
	bw.mu.Lock()
	data := bw.buf.Bytes()
	bw.mu.Unlock()
	tr, err := trace.OpenReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var c2s, s2c int
	for ev, err := range tr.Events() {
		if err != nil {
			t.Fatal(err)
		}
		switch ev.Dir {
		case mcpclient.ClientToServer:
			c2s++
		case mcpclient.ServerToClient:
			s2c++
		}
	}
	if c2s != 1024 || s2c != 1024 {
		t.Errorf("trace has %d c2s and %d s2c frames, want 1024 each", c2s, s2c)
	}
}

// TestSocketIsPrivate: the socket is 0600 in a 0700 directory, and goes away with the tap.
func TestSocketIsPrivate(t *testing.T) {
	h := startTap(t, catArgv(), nil)
	st, err := os.Stat(h.socket)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode()&os.ModeSocket == 0 || st.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v, want a 0600 socket", st.Mode())
	}
	dst, err := os.Stat(h.sockDir)
	if err != nil {
		t.Fatal(err)
	}
	if dst.Mode().Perm() != 0o700 {
		t.Errorf("socket dir mode %v, want 0700", dst.Mode().Perm())
	}
	h.finish()
	if _, err := os.Stat(h.socket); !os.IsNotExist(err) {
		t.Errorf("socket left behind: %v", err)
	}
}

// TestStaleSocketsCleaned: the socket of a tap that died with SIGKILL is removed by List and
// by the next tap.
func TestStaleSocketsCleaned(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if err := ensureDir(dir); err != nil {
		t.Fatal(err)
	}
	dead := exec.Command(os.Args[0], helperExit)
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, socketName(dead.Process.Pid))
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: stale, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	other := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	taps, err := List(dir)
	if err != nil || len(taps) != 0 {
		t.Fatalf("List = %v, %v; want nothing", taps, err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale socket still there: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("an unrelated file was touched: %v", err)
	}
}

// TestUnknownRequest: the socket answers a bad request with an error control line.
func TestUnknownRequest(t *testing.T) {
	h := startTap(t, catArgv(), nil)
	c, err := net.Dial("unix", h.socket)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte(`{"op":"dance"}` + "\n"))
	buf := make([]byte, 4096)
	n, _ := c.Read(buf)
	if !strings.HasPrefix(string(buf[:n]), `{"tap":"error","reason":"unknown op \"dance\"`) {
		t.Errorf("reply %q", buf[:n])
	}
}

func TestDefaultName(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"npx", "-y", "@modelcontextprotocol/server-everything"}, "server-everything"},
		{[]string{"npx", "-y", "@modelcontextprotocol/server-filesystem@2025.1.1", "/home/me"}, "server-filesystem"},
		{[]string{"/usr/bin/node", "build/index.js", "--port", "3"}, "index"},
		{[]string{"uvx", "mcp-server-fetch"}, "mcp-server-fetch"},
		{[]string{"uv", "run", "server.py"}, "server"},
		{[]string{"python3", "-m", "my_server"}, "my_server"},
		{[]string{"docker", "run", "-i", "--rm", "mcp/fetch"}, "fetch"},
		{[]string{"/opt/bin/my-server", "--flag"}, "my-server"},
		{[]string{"sh", "-c", "echo hi; exit 7"}, "sh"},
		{[]string{"npx"}, "npx"},
		{nil, "tap"},
	} {
		if got := DefaultName(tc.argv); got != tc.want {
			t.Errorf("DefaultName(%q) = %q, want %q", tc.argv, got, tc.want)
		}
	}
}

// TestInitWatch: the host's handshake becomes an "initialized" lifecycle event, as when
// mcpclient is the client; other traffic is not parsed for it.
func TestInitWatch(t *testing.T) {
	var w initWatch
	frame := func(dir mcpclient.Direction, s string) *mcpclient.Event {
		return &mcpclient.Event{Dir: dir, Raw: []byte(s + "\n")}
	}
	if l := w.observe(frame(mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{}}`)); l != nil {
		t.Fatalf("a response before any initialize: %+v", l)
	}
	w.observe(frame(mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2025-06-18"}}`))
	if l := w.observe(frame(mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":"b","result":{}}`)); l != nil {
		t.Fatalf("another id: %+v", l)
	}
	l := w.observe(frame(mcpclient.ServerToClient, `{"jsonrpc":"2.0","id": "a","result":{"protocolVersion":"2025-06-18","serverInfo":{"name":"srv","version":"1.2"},"capabilities":{}}}`))
	if l == nil || l.Kind != mcpclient.LifeInitialized || l.Text != "initialized: srv 1.2, protocol 2025-06-18 (the host's handshake)" {
		t.Fatalf("got %+v", l)
	}
	if l := w.observe(frame(mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":"a","result":{}}`)); l != nil || !w.done {
		t.Fatal("a second initialized")
	}
}

// TestPublishFailure: a socket directory that is not private is refused; the tap says so on
// stderr and forwards and records as usual.
func TestPublishFailure(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, dir+"-link"); err != nil {
		t.Fatal(err)
	}
	h := startTap(t, catArgv(), func(o *Options) { o.SocketDir = dir + "-link" })
	if h.socket != "" {
		t.Errorf("published at %s through a symlink", h.socket)
	}
	h.write([]byte("x\n"))
	h.waitHost(2, 5*time.Second)
	h.finish()
	if got := h.stderr.String(); !strings.HasPrefix(got, "mcp-inspect tap: cannot publish for attach (") {
		t.Errorf("stderr %q", got)
	}
	if _, evs := readTrace(t, h.trace); string(stream(evs, mcpclient.ClientToServer)) != "x\n" {
		t.Error("not recorded")
	}
}
