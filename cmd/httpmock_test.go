package cmd

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// startServing runs the binary with ARGS (which include --listen 127.0.0.1:0) and returns
// the URL it says it serves ("... serving http://ADDR/mcp?token=TOKEN" on stderr, without
// the query with --no-token). The process is killed when the test ends.
func startServing(t *testing.T, args ...string) string {
	t.Helper()
	return startServingEnv(t, append(os.Environ(), "XDG_STATE_HOME="+t.TempDir()), args...)
}

// startServingEnv is startServing with the process's environment.
func startServingEnv(t *testing.T, env []string, args ...string) string {
	t.Helper()
	bin := testservers.BuildInspector(t)
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(errPipe)
		sent := false
		for sc.Scan() {
			if _, u, ok := strings.Cut(sc.Text(), "serving "); ok && !sent {
				found <- strings.TrimSpace(u)
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case u, ok := <-found:
		if !ok {
			t.Fatalf("%q ended without serving", args)
		}
		return u
	case <-time.After(30 * time.Second):
		t.Fatalf("%q did not say where it serves", args)
	}
	return ""
}

// TestMockHTTP records a session with a real Streamable HTTP server, serves it with
// mock --listen, and checks that headless commands and replay get what the server gave.
func TestMockHTTP(t *testing.T) {
	srv := testservers.ServerEverythingHTTP(t)
	dir := t.TempDir()
	trace := filepath.Join(dir, "h.jsonl")
	direct := inspect(t, nil, "call", "echo", "-a", "message=hi", "--json", "--record", trace, srv.URL)
	wantCode(t, direct, 0)
	directTools := inspect(t, nil, "tools", srv.URL)
	wantCode(t, directTools, 0)

	r := inspect(t, nil, "mock", trace, "--listen", "0.0.0.0:0")
	wantCode(t, r, 2)
	if !strings.Contains(r.stderr, "not a loopback address") {
		t.Errorf("non-loopback --listen: %q", r.stderr)
	}

	url := startServing(t, "mock", trace, "--listen", "127.0.0.1:0")
	viaMock := inspect(t, nil, "call", "echo", "-a", "message=hi", "--json", url)
	wantCode(t, viaMock, 0)
	if mask(viaMock.stdout) != mask(direct.stdout) {
		t.Errorf("call through the mock:\n%s\ndirect:\n%s", viaMock.stdout, direct.stdout)
	}
	tools := inspect(t, nil, "tools", url)
	wantCode(t, tools, 0)
	if tools.stdout != directTools.stdout {
		t.Errorf("tools through the mock:\n%s\ndirect:\n%s", tools.stdout, directTools.stdout)
	}
	miss := inspect(t, nil, "call", "echo", "-a", "message=bye", url)
	wantCode(t, miss, 4)
	if !strings.Contains(miss.stderr, "closest recorded request") {
		t.Errorf("unrecorded call: %q", miss.stderr)
	}
	r = inspect(t, nil, "replay", trace, "--", url)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "0 differ") {
		t.Errorf("replay against the mock: %q %q", r.stdout, r.stderr)
	}

	// The mock's own trace: an event stream for each request, as recorded, a session id,
	// 202 for the notification, a GET stream (server-everything has one) and DELETE 200.
	mt := filepath.Join(dir, "m.jsonl")
	wantCode(t, inspect(t, nil, "call", "echo", "-a", "message=hi", "--record", mt, url), 0)
	b, err := os.ReadFile(mt)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	// The client sends the URL the mock printed, the token in its query.
	for _, want := range []string{`Content-Type: text/event-stream`, `Mcp-Session-Id: `, `HTTP/1.1 202 Accepted`, `GET /mcp?token=`, `DELETE /mcp?token=`} {
		if !strings.Contains(s, want) {
			t.Errorf("the trace through the mock lacks %q", want)
		}
	}
}

// TestMockHTTPJSON serves a recording of a server that answers with JSON bodies and no
// GET stream (the go-sdk everything-server, stateless): the mock answers JSON too, and
// GET is 405.
func TestMockHTTPJSON(t *testing.T) {
	srv := testservers.GoEverythingHTTP(t, true)
	dir := t.TempDir()
	trace := filepath.Join(dir, "g.jsonl")
	direct := inspect(t, nil, "tools", "--record", trace, srv.URL)
	wantCode(t, direct, 0)
	url := startServing(t, "mock", trace, "--listen", "127.0.0.1:0")
	mt := filepath.Join(dir, "m.jsonl")
	viaMock := inspect(t, nil, "tools", "--record", mt, url)
	wantCode(t, viaMock, 0)
	if viaMock.stdout != direct.stdout {
		t.Errorf("tools through the mock:\n%s\ndirect:\n%s", viaMock.stdout, direct.stdout)
	}
	rec, _ := os.ReadFile(trace)
	got, _ := os.ReadFile(mt)
	for _, want := range []string{"Content-Type: application/json", "405 Method Not Allowed"} {
		if strings.Contains(string(rec), want) && !strings.Contains(string(got), want) {
			t.Errorf("the recording has %q, the mock's answers do not", want)
		}
	}
}
