package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
)

// withHeader writes a copy of the trace at src whose header has key set to value (nil
// deletes it), and returns its path.
func withHeader(t *testing.T, src, key string, value any) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	nl := bytes.IndexByte(b, '\n')
	var h map[string]any
	if err := json.Unmarshal(b[:nl], &h); err != nil {
		t.Fatal(err)
	}
	if value == nil {
		delete(h, key)
	} else {
		h[key] = value
	}
	head, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), key+".jsonl")
	writeFile(t, dst, string(head)+string(b[nl:]))
	return dst
}

// TestReplayRecordedServer: `replay TRACE` without a command replays against the command
// line the trace recorded, in the recorded directory, saying so on stderr; a trace that
// recorded no server, or one with masked values, is an error saying what to pass; `--` with
// nothing after it is still an error.
func TestReplayRecordedServer(t *testing.T) {
	srv := fake.Binary(t)
	state, dir, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	tr := filepath.Join(dir, "t.jsonl")
	wantCode(t, traceRun(t, state, nil, "tools", "--cwd", cwd, "--record", tr, "--", srv, "--scenario", "minimal"), 0)

	r := traceRun(t, state, nil, "replay", tr)
	wantCode(t, r, exitReplaySame)
	want := "mcp-inspect: replaying against the server " + tr + " recorded: " + srv + " --scenario minimal in " + cwd + "\n"
	if !strings.Contains(r.stderr, want) || !strings.Contains(r.stdout, "2 same, 0 differ") {
		t.Fatalf("replay without a command:\nstdout %s\nstderr %s\nwant on stderr %q", r.stdout, r.stderr, want)
	}

	none := withHeader(t, tr, "argv", nil)
	r = traceRun(t, state, nil, "replay", none)
	wantCode(t, r, exitReplayError)
	if !strings.Contains(r.stderr, none+" records no server command or URL: give the server to replay against after TRACE") {
		t.Errorf("a trace without a server: %s", r.stderr)
	}
	masked := withHeader(t, tr, "argv", []string{srv, "--token", "***"})
	r = traceRun(t, state, nil, "replay", masked)
	wantCode(t, r, exitReplayError)
	if !strings.Contains(r.stderr, "with values masked (***), which cannot be run as written: give the server after TRACE") {
		t.Errorf("a trace with a masked argument: %s", r.stderr)
	}
	r = traceRun(t, state, nil, "replay", tr, "--")
	wantCode(t, r, exitReplayError)
	if !strings.Contains(r.stderr, "no server command after --") {
		t.Errorf("replay TRACE --: %s", r.stderr)
	}
}
