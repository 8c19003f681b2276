package testservers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// LoopbackPreload is the path, relative to the module root, of the Node
// preload that keeps a server calling listen(PORT) with no host on
// 127.0.0.1 (node --require; see the file).
const LoopbackPreload = "testdata/servers/loopback.cjs"

// httpStartTimeout bounds how long a server may take to answer its first
// request (node starts in about a second on an idle machine).
const httpStartTimeout = 30 * time.Second

// HTTPServer is a real MCP server process listening on 127.0.0.1 for one
// test. It is stopped, with its whole process group, when the test ends.
type HTTPServer struct {
	// URL is the endpoint a client is given: the Streamable HTTP endpoint
	// (clients POST there) or, for the HTTP+SSE transport, the SSE endpoint
	// (clients GET it and are told where to POST).
	URL string
	// Addr is the host:port the server listens on (127.0.0.1:PORT).
	Addr string

	cmd      *exec.Cmd
	tree     *platform.Tree // the server and what it started
	output   *syncBuffer
	exited   chan struct{} // closed when the process has been waited for
	stopOnce sync.Once
}

// Output returns what the server has written to stdout and stderr so far.
func (s *HTTPServer) Output() string { return s.output.String() }

// ServerEverythingHTTP starts @modelcontextprotocol/server-everything in
// streamableHttp mode (legacy era, stateful, with an event store, so
// resumable) and returns it once it answers; URL is http://127.0.0.1:PORT/mcp.
// It fails the test if the server cannot be found or does not start.
func ServerEverythingHTTP(t testing.TB) *HTTPServer {
	t.Helper()
	return startServerEverything(t, "streamableHttp", "/mcp")
}

// ServerEverythingSSE starts @modelcontextprotocol/server-everything in sse
// mode (the deprecated HTTP+SSE transport of 2024-11-05) and returns it once
// it answers; URL is http://127.0.0.1:PORT/sse, whose first event is
// `endpoint` with the path to POST messages to.
// It fails the test if the server cannot be found or does not start.
func ServerEverythingSSE(t testing.TB) *HTTPServer {
	t.Helper()
	return startServerEverything(t, "sse", "/sse")
}

func startServerEverything(t testing.TB, mode, path string) *HTTPServer {
	t.Helper()
	root := RepoRoot(t)
	argv, err := serverEverything(root)
	if err != nil {
		t.Fatalf("testservers: %s: %v", ServerEverythingPackage, err)
	}
	preload := filepath.Join(root, filepath.FromSlash(LoopbackPreload))
	if _, err := os.Stat(preload); err != nil {
		t.Fatalf("testservers: loopback preload: %v", err)
	}
	// node --require loopback.cjs dist/index.js MODE; the port comes from $PORT.
	argv = append([]string{argv[0], "--require", preload}, append(argv[1:], mode)...)
	return startHTTPServer(t, path, func(port int) (*exec.Cmd, error) {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port), "NODE_OPTIONS=")
		return cmd, nil
	})
}

// GoEverythingHTTP starts the go-sdk conformance everything-server with
// -http on 127.0.0.1 and returns it once it answers; URL is
// http://127.0.0.1:PORT/mcp (it serves every path). Stateless (its default)
// speaks both eras, 2026-07-28 included, and issues no session ids;
// stateful (-stateless=false) speaks the dated revisions only, with
// Mcp-Session-Id. It fails the test if the server cannot be built or does
// not start.
func GoEverythingHTTP(t testing.TB, stateless bool) *HTTPServer {
	t.Helper()
	bin := GoEverything(t)[0]
	return startHTTPServer(t, "/mcp", func(port int) (*exec.Cmd, error) {
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		return exec.Command(bin, "-http="+addr, "-stateless="+strconv.FormatBool(stateless)), nil
	})
}

// startHTTPServer starts the command that newCmd makes for a free loopback
// port and waits until the server answers an HTTP request. A server that
// exits before it answers (another process took the port between our
// probe and its listen) is retried on a new port, twice.
func startHTTPServer(t testing.TB, path string, newCmd func(port int) (*exec.Cmd, error)) *HTTPServer {
	t.Helper()
	var errs []error
	for range 3 {
		port, err := freePort()
		if err != nil {
			t.Fatalf("testservers: free port: %v", err)
		}
		cmd, err := newCmd(port)
		if err != nil {
			t.Fatalf("testservers: %v", err)
		}
		s, err := startOne(t, cmd, port, path)
		if err == nil {
			return s
		}
		errs = append(errs, err)
		if !errors.Is(err, errExited) {
			break
		}
	}
	t.Fatalf("testservers: %v", errors.Join(errs...))
	return nil
}

// errExited marks a server that exited before it answered.
var errExited = errors.New("exited before answering")

func startOne(t testing.TB, cmd *exec.Cmd, port int, path string) (*HTTPServer, error) {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	s := &HTTPServer{URL: "http://" + addr + path, Addr: addr, cmd: cmd, output: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = s.output, s.output
	tree, err := platform.Start(cmd)
	if err != nil {
		return nil, fmt.Errorf("start %q: %w", cmd.Args, err)
	}
	s.tree = tree
	go func() {
		_ = cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() { s.stop(t) })
	if err := s.waitAnswer(); err != nil {
		s.stop(t)
		return nil, fmt.Errorf("%q on %s: %w\n%s", cmd.Args, addr, err, s.Output())
	}
	return s, nil
}

// waitAnswer polls the server's root until any HTTP response comes back
// (a 404 or 405 is an answer too).
func (s *HTTPServer) waitAnswer() error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(httpStartTimeout)
	for {
		select {
		case <-s.exited:
			return errExited
		default:
		}
		resp, err := client.Get("http://" + s.Addr + "/")
		if err == nil {
			resp.Body.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer within %v: %w", httpStartTimeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop ends the server's process group: SIGTERM, then SIGKILL after two
// seconds. Only the first call signals (a process group id can be reused
// once the group is gone).
func (s *HTTPServer) stop(t testing.TB) {
	s.stopOnce.Do(func() { s.stopGroup(t) })
}

func (s *HTTPServer) stopGroup(t testing.TB) {
	select {
	case <-s.exited:
		s.endTree() // children of an exited leader, if any
		return
	default:
	}
	if s.tree.Terminate() != nil {
		_ = s.tree.Kill()
	}
	select {
	case <-s.exited:
	case <-time.After(2 * time.Second):
		_ = s.tree.Kill()
		<-s.exited
	}
	s.endTree()
	if t.Failed() {
		t.Logf("testservers: output of %q:\n%s", s.cmd.Args, s.Output())
	}
}

// endTree kills what is left of the server's process tree, waits for it to go, and
// releases it.
func (s *HTTPServer) endTree() {
	if s.tree.Alive() {
		_ = s.tree.Kill()
		s.tree.WaitGone(5 * time.Second)
	}
	s.tree.Release()
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// syncBuffer collects a server's output; the exec package's copiers and the
// test read and write it at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Clone(b.buf.String())
}
