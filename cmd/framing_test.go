package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// The issue #14 framings, headless: --framing content-length talks to a Content-Length
// server; without it the run fails at once with the framing error (not a timeout: the
// timeout is five minutes and the run's own limit one); auto follows the server; a
// pretty-printed server works with a warning.
func TestHeadlessFraming(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, scenario string
		args           []string
		code           int
		stdout, stderr []string // substrings
	}{
		{name: "content-length", scenario: "lsp", args: []string{"tools", "--framing", "content-length"}, stdout: []string{"echo"}},
		{name: "default fails fast", scenario: "lsp", args: []string{"tools", "--timeout", "5m"}, code: exitProtocol,
			stderr: []string{"request id 1 (initialize)", "wrote a Content-Length header", "MCP stdio is newline-delimited JSON", "run again with --framing content-length"}},
		{name: "newline in, headers out", scenario: "lsp-out", args: []string{"tools", "--timeout", "5m"}, code: exitProtocol,
			stderr: []string{"answered a JSON line with a Content-Length framed message", "run again with --framing auto"}},
		{name: "content-length to a newline server", scenario: "minimal", args: []string{"tools", "--framing", "content-length", "--timeout", "5m"}, code: exitProtocol,
			stderr: []string{"answered with newline-delimited JSON", "run again without --framing content-length"}},
		{name: "auto", scenario: "lsp", args: []string{"tools", "--framing", "auto"}, stdout: []string{"echo"}, stderr: []string{"LSP-style Content-Length framing", "--framing auto: the server writes Content-Length framing", "switched to Content-Length framing both ways; re-sending 1 pending request(s)"}},
		{name: "bench", scenario: "lsp", args: []string{"bench", "call", "echo", "-a", "text=x", "-n", "50", "--warmup", "2", "--framing", "content-length"}, stdout: []string{"p50"}},
		{name: "pretty", scenario: "pretty", args: []string{"tools"}, stdout: []string{"echo"}, stderr: []string{"pretty-printed over"}},
		{name: "bad value", scenario: "lsp", args: []string{"tools", "--framing", "lsp"}, code: exitUsage, stderr: []string{"--framing", "want newline, content-length or auto"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := inspect(t, nil, cmdline(tc.args, fakeArgv(t, tc.scenario))...)
			wantCode(t, r, tc.code)
			for _, s := range tc.stdout {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
				}
			}
			for _, s := range tc.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
			if strings.Contains(r.stderr, "no response after") {
				t.Errorf("a framing failure reported as a timeout:\n%s", r.stderr)
			}
		})
	}
	r := inspect(t, nil, cmdline([]string{"tools", "--json", "--timeout", "5m"}, fakeArgv(t, "lsp"))...)
	wantCode(t, r, exitProtocol)
	var doc struct {
		Error struct{ Kind, Message string } `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || doc.Error.Kind != "framing" || !strings.Contains(doc.Error.Message, "--framing content-length") {
		t.Errorf("--json error %+v (%v):\n%s", doc.Error, err, r.stdout)
	}
}

// TestCourseServerEndToEnd: the Python server a course would have students write
// (Content-Length framing, stdlib only), with --framing content-length: list, call (a
// result, an isError result, a -32602 error), record, read the trace back (trace cat,
// trace stats), replay it (with the trace's framing), and mock it (the mock speaks
// Content-Length too, and a newline client is told so at once).
func TestCourseServerEndToEnd(t *testing.T) {
	t.Parallel()
	srv := testservers.CourseServer(t)
	state := t.TempDir()
	dir := t.TempDir()
	cl := []string{"--framing", "content-length"}

	r := traceRun(t, state, nil, cmdline(append([]string{"tools"}, cl...), srv)...)
	wantCode(t, r, 0)
	for _, tool := range []string{"add", "echo", "divide", "lookup"} {
		if !strings.Contains(r.stdout, tool) {
			t.Errorf("tools lacks %s:\n%s", tool, r.stdout)
		}
	}
	r = traceRun(t, state, nil, cmdline([]string{"tools", "--timeout", "5m"}, srv)...)
	wantCode(t, r, exitProtocol)
	if !strings.Contains(r.stderr, "--framing content-length") {
		t.Errorf("without --framing:\n%s", r.stderr)
	}
	r = traceRun(t, state, nil, cmdline(append([]string{"call", "divide", "-a", "a=1", "-a", "b=0"}, cl...), srv)...)
	wantCode(t, r, exitToolError)
	r = traceRun(t, state, nil, cmdline(append([]string{"call", "lookup", "-a", "key=nope"}, cl...), srv)...)
	wantCode(t, r, exitProtocol)
	if !strings.Contains(r.stderr, "-32602") || !strings.Contains(r.stderr, "unknown key: nope") {
		t.Errorf("lookup of an unknown key:\n%s", r.stderr)
	}

	tracePath := filepath.Join(dir, "course.jsonl")
	r = traceRun(t, state, nil, cmdline(append([]string{"call", "add", "-a", "a=2", "-a", "b=40", "--record", tracePath}, cl...), srv)...)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "42") {
		t.Errorf("call add:\n%s", r.stdout)
	}
	tr, err := trace.Open(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Header.Framing != trace.FramingContentLength {
		t.Errorf("trace header framing %q", tr.Header.Framing)
	}
	tr.Close()

	r = traceRun(t, state, nil, "trace", "cat", tracePath)
	wantCode(t, r, 0)
	for _, want := range []string{`> Content-Length: `, `{"jsonrpc":"2.0","id":1,"method":"initialize"`, `< Content-Length: `, `"serverInfo": {"name": "course-server"`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("trace cat lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "no newline at the end") {
		t.Errorf("trace cat calls a Content-Length frame unterminated:\n%s", r.stdout)
	}
	r = traceRun(t, state, nil, "trace", "stats", tracePath)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "tools/call") {
		t.Errorf("trace stats:\n%s", r.stdout)
	}

	r = traceRun(t, state, nil, cmdline([]string{"replay", tracePath}, srv)...)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, " same, 0 differ") {
		t.Errorf("replay:\n%s", r.stdout)
	}

	bin := testservers.BuildInspector(t)
	mock := []string{bin, "mock", tracePath}
	r = traceRun(t, state, nil, cmdline(append([]string{"call", "add", "-a", "a=2", "-a", "b=40"}, cl...), mock)...)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "42") {
		t.Errorf("call add on the mock:\n%s", r.stdout)
	}
	r = traceRun(t, state, nil, cmdline([]string{"call", "add", "-a", "a=2", "-a", "b=40", "--timeout", "5m"}, mock)...)
	wantCode(t, r, exitProtocol)
	if !strings.Contains(r.stderr, "--framing content-length") {
		t.Errorf("newline client on the Content-Length mock:\n%s", r.stderr)
	}
	if _, err := os.Stat(tracePath); err != nil {
		t.Fatal(err)
	}
}

// TestTapContentLength: a tap between a Content-Length host and server forwards and
// records the frames whole, keeps --framing in the trace's header, and replay re-runs the
// tapped session with it.
func TestTapContentLength(t *testing.T) {
	t.Parallel()
	env := tapEnv(t)
	bin := testservers.BuildInspector(t)
	tracePath := filepath.Join(t.TempDir(), "tap.jsonl")
	server := fakeArgv(t, "lsp")
	argv := append([]string{bin, "tools", "--framing", "content-length", "--", bin, "tap", "--framing", "content-length", "--record", tracePath, "--"}, server...)
	stdout, stderr, code := runHost(t, env, argv...)
	if code != 0 || !strings.Contains(stdout, "echo") {
		t.Fatalf("tools through the tap: exit %d\n%s\n%s", code, stdout, stderr)
	}
	tr, err := trace.Open(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	framing := tr.Header.Framing
	tr.Close()
	if framing != trace.FramingContentLength {
		t.Errorf("tap trace framing %q", framing)
	}
	msgs := 0
	for _, ev := range traceEvents(t, tracePath) {
		if ev.Dir != mcpclient.ServerToClient && ev.Dir != mcpclient.ClientToServer {
			continue
		}
		msgs++
		if !ev.Kind.IsMessage() || !strings.HasPrefix(string(ev.Raw), "Content-Length: ") {
			t.Errorf("tapped frame %v %q", ev.Kind, ev.Raw)
		}
	}
	if msgs != 5 {
		t.Errorf("%d tapped messages, want 5", msgs)
	}
	r := traceRun(t, t.TempDir(), nil, cmdline([]string{"replay", tracePath}, server)...)
	wantCode(t, r, 0)
}
