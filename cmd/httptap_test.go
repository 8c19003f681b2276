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

// TestTapHTTP puts the HTTP tap in front of a real Streamable HTTP server: headless
// commands through it get what they get directly, the host's credentials reach the server
// and are redacted in the trace, the trace reads and replays, and attach --raw sees the
// traffic live.
func TestTapHTTP(t *testing.T) {
	srv := testservers.ServerEverythingHTTP(t)
	env := tapEnv(t)
	dir := t.TempDir()
	trace := filepath.Join(dir, "tap.jsonl")

	r := inspect(t, nil, "tap", "--listen", "192.0.2.1:0", "--upstream", srv.URL)
	wantCode(t, r, 2)
	if !strings.Contains(r.stderr, "not a loopback address") {
		t.Errorf("non-loopback --listen: %q", r.stderr)
	}

	url := startServingEnv(t, env, "tap", "--listen", "127.0.0.1:0", "--upstream", srv.URL, "--record", trace, "--name", "remote")
	if !strings.Contains(url, "/mcp?token=") {
		t.Fatalf("tap serves %q", url)
	}
	bin := testservers.BuildInspector(t)
	viewer := exec.Command(bin, "attach", "remote", "--raw")
	viewer.Env = env
	vout, err := viewer.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := viewer.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = viewer.Process.Kill(); _ = viewer.Wait() })
	seen := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(vout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `Echo: through the tap`) {
				close(seen)
				break
			}
		}
		for sc.Scan() {
		}
	}()

	for _, args := range [][]string{
		{"tools"},
		{"call", "echo", "-a", "message=through the tap", "--json"},
		{"call", "get-sum", "-a", "a=2", "-a", "b=40", "--json"},
	} {
		direct := inspect(t, nil, append(args, srv.URL)...)
		wantCode(t, direct, 0)
		tapped := inspect(t, nil, append(args, url)...)
		wantCode(t, tapped, 0)
		if mask(tapped.stdout) != mask(direct.stdout) {
			t.Errorf("%q through the tap:\n%s\ndirect:\n%s", args, tapped.stdout, direct.stdout)
		}
	}
	select {
	case <-seen:
	case <-time.After(20 * time.Second):
		t.Error("attach --raw did not see the call")
	}
	secretEnv := []string{"MCP_INSPECT_TEST_TOKEN=tok-abcdef-123456"}
	r = inspect(t, secretEnv, "call", "trigger-long-running-operation", "-a", "duration=1", "-a", "steps=2",
		"--bearer-env", "MCP_INSPECT_TEST_TOKEN", "-H", "X-Api-Key: key-abcdef-654321", url)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "Long running operation completed") {
		t.Errorf("progress call through the tap: %q %q", r.stdout, r.stderr)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(b), `\u003e`, ">")
	for _, secret := range []string{"tok-abcdef-123456", "key-abcdef-654321"} {
		if strings.Contains(s, secret) {
			t.Errorf("the trace holds %q", secret)
		}
	}
	for _, want := range []string{`"transport":"http"`, `"url":"` + srv.URL + `"`, `"dir":"http>"`, `"hk":"sse"`, `"hk":"head"`, `"dir":"c2s"`, `"dir":"s2c"`,
		`Authorization: Bearer ***`, `X-Api-Key: ***`, `notifications/progress`, `Echo: through the tap`} {
		if !strings.Contains(s, want) {
			t.Errorf("the tap's trace lacks %s", want)
		}
	}
	r = inspect(t, nil, "trace", "stats", trace)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "tools/call") {
		t.Errorf("trace stats: %s", r.stdout)
	}
	r = inspect(t, nil, "trace", "cat", "--raw", trace)
	wantCode(t, r, 0)
	if !strings.HasPrefix(r.stdout, "POST /mcp HTTP/1.1\r\n") || !strings.Contains(r.stdout, "event: message\n") {
		t.Errorf("trace cat --raw:\n%.400s", r.stdout)
	}
}

// TestTapHTTPReplay records one session through the tap and replays it against the server.
func TestTapHTTPReplay(t *testing.T) {
	srv := testservers.GoEverythingHTTP(t, false)
	env := tapEnv(t)
	trace := filepath.Join(t.TempDir(), "tap.jsonl")
	url := startServingEnv(t, env, "tap", "--listen", "127.0.0.1:0", "--upstream", srv.URL, "--record", trace)
	r := inspect(t, nil, "tools", url)
	wantCode(t, r, 0)
	// The recording goroutine writes behind the forward path: wait for the DELETE's answer.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if b, _ := os.ReadFile(trace); strings.Count(string(b), `"hk":"head"`) >= 4 {
			break
		}
	}
	r = inspect(t, nil, "replay", trace, "--", srv.URL)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, " 0 differ") {
		t.Errorf("replay of the tap's trace: %q %q", r.stdout, r.stderr)
	}
}
