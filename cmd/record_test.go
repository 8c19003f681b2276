package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// traceRun runs the mcp-inspect binary with its state directory in state (so logs and kept
// sessions can be inspected afterwards) and extra environment.
func traceRun(t *testing.T, state string, env []string, args ...string) ran {
	t.Helper()
	bin := testservers.BuildInspector(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(append(os.Environ(), "XDG_STATE_HOME="+state), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %q: %v", args, err)
	}
	return ran{out.String(), errb.String(), code}
}

// sessionsDir is where automatic recordings go (stateSubdir(…, "sessions")).
func sessionsDir() string { return filepath.Join(stateDir(), "sessions") }

// grepTree fails for every file under the roots that contains needle.
func grepTree(t *testing.T, needle string, roots ...string) (files int) {
	t.Helper()
	for _, root := range roots {
		filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return nil
			}
			files++
			b, _ := os.ReadFile(path)
			if i := bytes.Index(b, []byte(needle)); i >= 0 {
				from := bytes.LastIndexByte(b[:i], '\n') + 1
				to := i + bytes.IndexByte(b[i:], '\n')
				if to < i {
					to = len(b)
				}
				t.Errorf("%s holds %q: %s", path, needle, b[from:to])
			}
			return nil
		})
	}
	return files
}

// TestAutoSessionsKept: without --record a session goes to the state directory's sessions/,
// those last written over 30 days ago pruned, any number of recent ones kept; --no-save
// keeps none; a bad --redact is refused.
func TestAutoSessionsKept(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	dir := sessionsDir()
	os.MkdirAll(dir, 0o700)
	old := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 25; i++ {
		p := trace.SessionPath(dir, old.Add(time.Duration(i)*time.Minute), 1)
		os.WriteFile(p, []byte("{}\n"), 0o600)
		if i < 5 { // the first five last written 40 days ago
			os.Chtimes(p, time.Now().Add(-40*24*time.Hour), time.Now().Add(-40*24*time.Hour))
		}
	}
	os.WriteFile(filepath.Join(dir, "saved-by-name.jsonl"), []byte("{}\n"), 0o600)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	var rf recordFlags
	cfg := mcpclient.Config{Command: "srv", Args: []string{"--token", "abcdefghij0123456789"}}
	var stderr bytes.Buffer
	rec, err := rf.start(&cfg, logger, &stderr)
	if err != nil || rec.path() == "" || cfg.OnEvents == nil {
		t.Fatalf("start: %v %q", err, rec.path())
	}
	cfg.OnEvents([]mcpclient.Event{{Seq: 1, Time: time.Now(), Dir: mcpclient.Lifecycle, Kind: mcpclient.KindLifecycle, Life: &mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, PID: 7}}})
	rec.close(logger, &stderr)
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 22 || !strings.Contains(strings.Join(names, " "), filepath.Base(rec.path())) || !strings.Contains(strings.Join(names, " "), "saved-by-name.jsonl") {
		t.Errorf("after pruning: %d files %v", len(names), names)
	}
	if _, err := os.Stat(trace.SessionPath(dir, old, 1)); !os.IsNotExist(err) {
		t.Error("the oldest session was not pruned")
	}
	if !strings.Contains(stderr.String(), "session kept in "+rec.path()) {
		t.Errorf("stderr does not say where the session is: %q", stderr.String())
	}
	if got := strings.Join(rec.argv(&cfg), " "); got != "srv --token ***" {
		t.Errorf("argv for the log: %s", got)
	}
	tr, err := trace.Open(rec.path())
	if err != nil || tr.Len() != 1 || tr.Header.Tool != "mcp-inspect" || tr.Header.ToolVersion != Version() || tr.Header.Era != "legacy" {
		t.Fatalf("kept session: %v %+v", err, tr)
	}
	tr.Close()
	saved, err := rec.saveAs("../bug 42/repro")
	if err != nil || filepath.Dir(saved) != filepath.Join(state, "mcp-inspect", "saved") || filepath.Base(saved) != "..-bug 42-repro.jsonl" {
		t.Errorf("saveAs: %q %v", saved, err)
	}
	if tr, err := trace.Open(saved); err != nil || tr.Len() != 1 {
		t.Errorf("saved session: %v", err)
	} else {
		tr.Close()
	}

	rf = recordFlags{noSave: true}
	cfg = mcpclient.Config{Command: "srv"}
	if rec, err := rf.start(&cfg, logger, &stderr); err != nil || rec.path() != "" || cfg.OnEvents != nil {
		t.Errorf("--no-save: %v %q", err, rec.path())
	}
	rf = recordFlags{redact: []string{"("}}
	if _, err := rf.start(&cfg, logger, &stderr); err == nil {
		t.Error("a bad --redact pattern was accepted")
	}
}

// B25's secrets and the fake server's environment.
const (
	b25Token    = "ghp_FAKE_TOKEN_FOR_TESTS_0000"
	b25Password = "hunter2-fake"
	b25URLPass  = "pw-fake"
	b25Inherit  = "inherited-secret-value-42"
)

// TestTraceCommands runs record, trace cat/stats, replay and mock through the binary
// against the go-sdk everything-server: exit codes, the diff naming the path, --json,
// --ignore, --update, and the mock answering the recorded calls identically.
func TestTraceCommands(t *testing.T) {
	srv := testservers.GoEverything(t)
	fakeBin := fake.Binary(t)
	state := t.TempDir()
	dir := t.TempDir()
	tracePath := filepath.Join(dir, "session.jsonl")
	rec := traceRun(t, state, nil, append([]string{"call", "test_simple_text", "--json", "--record", tracePath, "--"}, srv...)...)
	wantCode(t, rec, 0)

	r := traceRun(t, state, nil, "trace", "cat", tracePath)
	wantCode(t, r, 0)
	for _, want := range []string{"# started pid", `> {"jsonrpc":"2.0","id":1,"method":"initialize"`, `< {"jsonrpc":"2.0","id":2,"result":`, "# server exited"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("trace cat lacks %q:\n%s", want, r.stdout)
		}
	}
	r = traceRun(t, state, nil, "trace", "stats", tracePath)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "tools/call") || !strings.Contains(r.stdout, "p50") {
		t.Errorf("trace stats:\n%s", r.stdout)
	}
	r = traceRun(t, state, nil, "trace", "stats", "--json", tracePath)
	var st struct {
		Header  trace.Header        `json:"header"`
		Methods []trace.MethodStats `json:"methods"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || len(st.Methods) == 0 || st.Header.Format != trace.FormatName {
		t.Errorf("trace stats --json: %v\n%s", err, r.stdout)
	}
	// The header names the version of the binary that recorded it, as --version prints it.
	r = traceRun(t, state, nil, "--version")
	wantCode(t, r, 0)
	if v := st.Header.ToolVersion; v == "" || r.stdout != "mcp-inspect version "+v+"\n" {
		t.Errorf("trace header toolVersion %q, --version prints %q", v, r.stdout)
	}

	// Replay: the same server matches; one that answers differently does not, and says where.
	r = traceRun(t, state, nil, append([]string{"replay", tracePath, "--"}, srv...)...)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "2 same, 0 differ") {
		t.Errorf("replay same:\n%s", r.stdout)
	}
	r = traceRun(t, state, nil, "replay", tracePath, "--", fakeBin, "--scenario", "minimal")
	wantCode(t, r, 1)
	for _, want := range []string{"DIFFERS  initialize", "$.result.serverInfo.name", "DIFFERS  tools/call test_simple_text", "$.error"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("replay against another server lacks %q:\n%s", want, r.stdout)
		}
	}
	r = traceRun(t, state, nil, "replay", "--json", tracePath, "--", fakeBin, "--scenario", "minimal")
	wantCode(t, r, 1)
	var rep trace.ReplayReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.Differs != 2 || rep.Items[0].Diffs == nil {
		t.Errorf("replay --json: %v %+v", err, rep)
	}
	r = traceRun(t, state, nil, "replay", "--ignore", "$.result", "--ignore", "$.error", tracePath, "--", fakeBin, "--scenario", "minimal")
	wantCode(t, r, 0)
	r = traceRun(t, state, nil, "replay", "--ignore", "$.[", tracePath, "--", fakeBin)
	wantCode(t, r, 2)
	r = traceRun(t, state, nil, "replay", tracePath, "--", filepath.Join(dir, "no-such-server"))
	wantCode(t, r, 2)
	r = traceRun(t, state, nil, "replay", filepath.Join(dir, "missing.jsonl"), "--", fakeBin)
	wantCode(t, r, 2)
	r = traceRun(t, state, nil, "replay", tracePath, "--") // TRACE alone replays the recorded server (TestReplayRecordedServer)
	wantCode(t, r, 2)

	// Mock: the recorded call through the mock gives the recorded result, with the
	// inspector itself as the client.
	self := testservers.BuildInspector(t)
	m := traceRun(t, state, nil, "call", "test_simple_text", "--json", "--", self, "mock", tracePath)
	wantCode(t, m, 0)
	var a, b struct {
		Result json.RawMessage `json:"result"`
		Server struct{ Name, Version string }
	}
	json.Unmarshal([]byte(rec.stdout), &a)
	json.Unmarshal([]byte(m.stdout), &b)
	if len(a.Result) == 0 || string(a.Result) != string(b.Result) || a.Server != b.Server {
		t.Errorf("mock result %s (%+v) != recorded %s (%+v)", b.Result, b.Server, a.Result, a.Server)
	}
	m = traceRun(t, state, nil, "call", "test_image_content", "--", self, "mock", tracePath)
	wantCode(t, m, 4)
	if !strings.Contains(m.stderr, "closest recorded request: tools/call") {
		t.Errorf("unmatched call through the mock: %q", m.stderr)
	}

	// --update takes the new server's answers; a second replay against it then matches.
	upd := filepath.Join(dir, "update.jsonl")
	data, _ := os.ReadFile(tracePath)
	os.WriteFile(upd, data, 0o600)
	r = traceRun(t, state, nil, "replay", "--update", upd, "--", fakeBin, "--scenario", "minimal")
	wantCode(t, r, 0)
	r = traceRun(t, state, nil, "replay", upd, "--", fakeBin, "--scenario", "minimal")
	wantCode(t, r, 0)
	tr, err := trace.Open(upd)
	if err != nil || !strings.Contains(tr.Header.Note, "updated by mcp-inspect replay") {
		t.Errorf("updated trace: %v %+v", err, tr)
	}
	tr.Close()
	if left, _ := filepath.Glob(filepath.Join(dir, ".update.jsonl.update-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
