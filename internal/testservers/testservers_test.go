package testservers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// stdioServer is a server process under test, spoken to line by line.
type stdioServer struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	stderr *lockedBuffer
	done   chan error
}

// lockedBuffer is a bytes.Buffer safe for the exec package's copier and
// the test to share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func startServer(t *testing.T, argv []string) *stdioServer {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &stdioServer{t: t, cmd: cmd, stdin: stdin, lines: make(chan []byte, 64), stderr: &lockedBuffer{}, done: make(chan error, 1)}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %q: %v", argv, err)
	}
	go func() {
		r := bufio.NewReader(stdout)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				s.lines <- line
			}
			if err != nil {
				close(s.lines)
				s.done <- cmd.Wait()
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
	})
	return s
}

func (s *stdioServer) send(msg string) {
	s.t.Helper()
	if _, err := io.WriteString(s.stdin, msg+"\n"); err != nil {
		s.t.Fatalf("write to server: %v", err)
	}
}

// response reads lines until the JSON-RPC response with the given id,
// skipping notifications and requests from the server.
func (s *stdioServer) response(id int) map[string]any {
	s.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("server closed stdout before answering id %d; stderr:\n%s", id, s.stderr)
			}
			var msg map[string]any
			if err := json.Unmarshal(line, &msg); err != nil {
				s.t.Fatalf("server wrote a line that is not JSON: %q", line)
			}
			if got, ok := msg["id"].(float64); ok && int(got) == id && msg["method"] == nil {
				return msg
			}
			s.t.Logf("skipping server message: %s", bytes.TrimSpace(line))
		case <-timeout:
			s.t.Fatalf("no response with id %d within 30s; stderr:\n%s", id, s.stderr)
		}
	}
}

// closeAndWait closes the server's stdin, as the stdio shutdown sequence
// begins, and checks that it exits cleanly within a few seconds.
func (s *stdioServer) closeAndWait() {
	s.t.Helper()
	if err := s.stdin.Close(); err != nil {
		s.t.Fatalf("close stdin: %v", err)
	}
	select {
	case err := <-s.done:
		if err != nil {
			s.t.Fatalf("server exited with %v after stdin closed; stderr:\n%s", err, s.stderr)
		}
	case <-time.After(10 * time.Second):
		s.t.Fatalf("server still running 10s after stdin closed; stderr:\n%s", s.stderr)
	}
}

// field walks nested JSON objects.
func field(t *testing.T, v any, path ...string) any {
	t.Helper()
	for i, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%v is not an object at %q", v, path[:i])
		}
		v = m[k]
	}
	return v
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"testservers","version":"0"}}}`

func TestRepoRoot(t *testing.T) {
	root := RepoRoot(t)
	if got := modulePath(filepath.Join(root, "go.mod")); got != ModulePath {
		t.Fatalf("RepoRoot %s has module %q, want %q", root, got, ModulePath)
	}
	if _, err := os.Stat(filepath.Join(root, "internal", "testservers", "testservers.go")); err != nil {
		t.Fatalf("RepoRoot %s does not hold this package: %v", root, err)
	}
}

func TestServerEverything(t *testing.T) {
	argv := ServerEverything(t)
	s := startServer(t, argv)
	s.send(initialize)
	resp := s.response(1)
	if got := field(t, resp, "result", "serverInfo", "name"); got != "mcp-servers/everything" {
		t.Errorf("serverInfo.name = %v, want mcp-servers/everything; response: %v", got, resp)
	}
	if got := field(t, resp, "result", "protocolVersion"); got != "2025-11-25" {
		t.Errorf("protocolVersion = %v, want 2025-11-25", got)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	tools, _ := field(t, s.response(2), "result", "tools").([]any)
	var names []string
	for _, tool := range tools {
		names = append(names, field(t, tool, "name").(string))
	}
	for _, want := range []string{"echo", "get-sum", "trigger-long-running-operation"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list lacks %q: %v", want, names)
		}
	}
	s.closeAndWait()
}

func TestGoEverythingLegacy(t *testing.T) {
	s := startServer(t, GoEverything(t))
	s.send(initialize)
	resp := s.response(1)
	if got := field(t, resp, "result", "serverInfo", "name"); got != "mcp-conformance-test-server" {
		t.Errorf("serverInfo.name = %v, want mcp-conformance-test-server; response: %v", got, resp)
	}
	if got := field(t, resp, "result", "protocolVersion"); got != "2025-11-25" {
		t.Errorf("protocolVersion = %v, want 2025-11-25", got)
	}
	s.closeAndWait()
}

func TestGoEverythingModern(t *testing.T) {
	s := startServer(t, GoEverything(t))
	s.send(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientCapabilities":{},` +
		`"io.modelcontextprotocol/clientInfo":{"name":"testservers","version":"0"}}}}`)
	resp := s.response(1)
	if got := field(t, resp, "result", "_meta", "io.modelcontextprotocol/serverInfo", "name"); got != "mcp-conformance-test-server" {
		t.Errorf("_meta serverInfo.name = %v, want mcp-conformance-test-server; response: %v", got, resp)
	}
	versions, _ := field(t, resp, "result", "supportedVersions").([]any)
	if !slices.Contains(versions, any("2026-07-28")) || !slices.Contains(versions, any("2025-11-25")) {
		t.Errorf("supportedVersions = %v, want both eras", versions)
	}
	s.closeAndWait()
}

// TestGoBuildConcurrent builds the same binary from two goroutines at once,
// as two test processes may: both must succeed and leave a whole binary.
func TestGoBuildConcurrent(t *testing.T) {
	root := RepoRoot(t)
	want, err := requiredVersion(filepath.Join(root, "go.mod"), GoSDKModule)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "everything-server")
	errs := make(chan error, 2)
	for range 2 {
		go func() { errs <- goBuild(root, GoEverythingPackage, dst) }()
	}
	if err := errors.Join(<-errs, <-errs); err != nil {
		t.Fatal(err)
	}
	if !builtFrom(dst, GoSDKModule, want) {
		t.Fatalf("%s is not a binary of %s %s", dst, GoSDKModule, want)
	}
	entries, err := os.ReadDir(filepath.Dir(dst))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("build left temporary files: %v", entries)
	}
}

// TestBuildInspector builds the mcp-inspect binary and runs --help. Until
// main.go exists, the module root has no package to build, and it only
// checks that.
func TestBuildInspector(t *testing.T) {
	root := RepoRoot(t)
	if _, err := os.Stat(filepath.Join(root, "main.go")); errors.Is(err, os.ErrNotExist) {
		t.Log("no main.go yet: nothing to build")
		return
	}
	bin := BuildInspector(t)
	if again := BuildInspector(t); again != bin {
		t.Errorf("second BuildInspector = %s, want the cached %s", again, bin)
	}
	out, err := exec.Command(bin, "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("%s --help: %v\n%s", bin, err, out)
	}
}
