package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// ran is one run of the real binary.
type ran struct {
	stdout, stderr string
	code           int
}

// inspect runs the mcp-inspect binary (built once per test process) with args and extra
// environment, and waits at most a minute.
func inspect(t *testing.T, env []string, args ...string) ran {
	t.Helper()
	bin := testservers.BuildInspector(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(append(os.Environ(), "XDG_STATE_HOME="+t.TempDir()), env...)
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

// volatile matches the parts of a JSON document that change from run to run.
var volatile = regexp.MustCompile(`"(pid|connectMs|requestMs|totalMs|durationMs|callsPerSec|min|p50|p90|p99|max|mean)": [0-9.e+-]+`)

// mask zeroes timings and pids so a document can be compared with a golden file.
func mask(s string) string {
	return volatile.ReplaceAllString(s, `"$1": 0`)
}

// wantCode fails unless the run exited with code.
func wantCode(t *testing.T, r ran, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
}

// oneDocument checks that stdout holds exactly one JSON document and nothing else, and
// returns it masked.
func oneDocument(t *testing.T, r ran) string {
	t.Helper()
	if !utf8.ValidString(r.stdout) {
		t.Fatalf("stdout is not UTF-8, so not JSON (RFC 8259 §8.1):\n%q", r.stdout)
	}
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("stdout is not a JSON document: %v\n%s\nstderr:\n%s", err, r.stdout, r.stderr)
	}
	var extra json.RawMessage
	if err := dec.Decode(&extra); err == nil {
		t.Fatalf("stdout has more than one JSON document:\n%s", r.stdout)
	}
	if got := int(doc["exitCode"].(float64)); got != r.code {
		t.Fatalf("document exitCode %d, process exit code %d", got, r.code)
	}
	return mask(r.stdout)
}

func fakeArgv(t *testing.T, scenario string) []string {
	return []string{fake.Binary(t), "--scenario", scenario}
}

// cmdline is args, "--", and the server's argv.
func cmdline(args []string, argv []string) []string {
	return append(append(append([]string{}, args...), "--"), argv...)
}

func TestHeadlessFake(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		scenario string
		env      []string
		args     []string
		code     int
		stderr   string // a substring stderr must hold
	}{
		{name: "tools", scenario: "minimal", args: []string{"tools", "--json"}},
		{name: "call_echo", scenario: "minimal", args: []string{"call", "echo", "-a", "text=007", "--json"}},
		// B05: the server's invalid UTF-8 becomes U+FFFD in the document; the warning names the bytes.
		{name: "call_b05_invalid_utf8", scenario: "b05", args: []string{"call", "snippet", "--json"}, stderr: "invalid UTF-8"},
		// --args goes out exactly as written (member order, a null the schema does not allow),
		// with a warning for what the inputSchema refuses (#24 §7).
		{name: "call_args_raw", scenario: "b15", args: []string{"call", "set_direction", "--args", `{"z": 1, "direction": null, "retries": "2"}`, "--json"}, stderr: "arguments: retries: must be an integer or null, not a string"},
		// -a by the schema: number, integer, a string of digits, an object as JSON.
		{name: "call_coerce_b19", scenario: "b19", args: []string{"call", "grep_record", "-a", "query=x", "-a", "page=2", "-a", "page_size=10", "-a", "zip=02134", "-a", `filters={"since":"2024-01-01T00:00:00Z"}`, "--json"}},
		// a nullable array, null for a nullable boolean, a string|number|boolean union, := as written.
		{name: "call_coerce_b18", scenario: "b18", args: []string{"call", "send_request", "-a", "raw=a b", "-a", `ids=["1"]`, "-a", "tls=null", "-a", "value=42", "-a", `extra:={"k":[1]}`, "--json"}},
		// enum values keep their JSON type (retries is 2, not "2"); -a over --args.
		{name: "call_coerce_b15", scenario: "b15", args: []string{"call", "set_direction", "--args", `{"mode":"fast","retries":1}`, "-a", "retries=2", "-a", "direction=send", "--json"}},
		{name: "crash_b10", scenario: "b10", args: []string{"call", "crash", "--json"}, code: exitNoServer, stderr: "killed by signal KILL while request id 2 (tools/call crash) was pending"},
		{name: "exit_before_initialize_b09", scenario: "b09", args: []string{"tools", "--json"}, code: exitNoServer, stderr: "DEMO_API_KEY is not set"},
		{name: "timeout_b12", scenario: "b12", env: []string{"FAKE_SLEEP_MS=5000"}, args: []string{"call", "sleep", "--timeout", "300ms", "--json"}, code: exitTimeout, stderr: "no response after 300ms"},
		{name: "method_not_found", scenario: "minimal", args: []string{"prompts", "--json"}, code: exitProtocol, stderr: "-32601"},
		{name: "unknown_tool", scenario: "minimal", args: []string{"call", "nope", "--json"}, code: exitProtocol, stderr: "-32602"},
		{name: "is_error_b13", scenario: "b13", env: []string{"FAKE_WAIT_MS=3000"}, args: []string{"call", "summarize", "--json"}, code: exitToolError, stderr: "returned an error result (isError)"},
		{name: "stray_stdout_b01", scenario: "b01", args: []string{"call", "echo", "-a", "text=hi", "--json"}, stderr: "not a JSON-RPC message"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := inspect(t, tc.env, cmdline(tc.args, fakeArgv(t, tc.scenario))...)
			wantCode(t, r, tc.code)
			if !strings.Contains(r.stderr, tc.stderr) {
				t.Fatalf("stderr does not say %q:\n%s", tc.stderr, r.stderr)
			}
			golden.RequireEqual(t, oneDocument(t, r))
		})
	}
}

func TestHeadlessHumanOutput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		scenario string
		args     []string
		code     int
	}{
		{name: "tools_b03_400", scenario: "b03", args: []string{"tools"}},
		{name: "call_b20_blocks", scenario: "b20", args: []string{"call", "find_docs"}},
		{name: "read_b20", scenario: "b20", args: []string{"read", "file:///workspace/README.md"}},
		{name: "ping", scenario: "minimal", args: []string{"ping"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := inspect(t, nil, cmdline(tc.args, fakeArgv(t, tc.scenario))...)
			wantCode(t, r, tc.code)
			out := regexp.MustCompile(`in [0-9.]+ ms`).ReplaceAllString(r.stdout, "in 0 ms")
			golden.RequireEqual(t, out)
		})
	}
}

func TestHeadlessStderrAndQuiet(t *testing.T) {
	t.Parallel()
	argv := fakeArgv(t, "b09")
	loud := inspect(t, nil, cmdline([]string{"ping"}, argv)...)
	wantCode(t, loud, exitNoServer)
	if strings.Count(loud.stderr, "error: required environment variable DEMO_API_KEY is not set") != 2 {
		t.Fatalf("the server's stderr line should be copied, then quoted in the error:\n%s", loud.stderr)
	}
	quiet := inspect(t, nil, cmdline([]string{"ping", "-q"}, argv)...)
	wantCode(t, quiet, exitNoServer)
	if strings.Count(quiet.stderr, "DEMO_API_KEY") != 1 || !strings.HasPrefix(quiet.stderr, "mcp-inspect: server exited with code 2") {
		t.Fatalf("--quiet keeps only our error message:\n%s", quiet.stderr)
	}
	if loud.stdout != "" || quiet.stdout != "" {
		t.Fatalf("stdout must stay empty on failure without --json: %q %q", loud.stdout, quiet.stdout)
	}
}

func TestHeadlessUsage(t *testing.T) {
	t.Parallel()
	minimal := fakeArgv(t, "minimal")
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no command", []string{"tools"}, "no server command given"},
		{"no tool", []string{"call"}, "call needs a TOOL name"},
		{"two before dash", cmdline([]string{"call", "a", "b"}, minimal), "want 1 argument(s) before --"},
		{"bad -a", cmdline([]string{"call", "echo", "-a", "novalue"}, minimal), "want KEY=VALUE"},
		{"bad --args", cmdline([]string{"call", "echo", "--args", "{nope"}, minimal), "not valid JSON"},
		{"bad era", cmdline([]string{"tools", "--era", "future"}, minimal), "--era: era \"future\""},
		{"number field", cmdline([]string{"call", "grep_record", "-a", "query=q", "-a", "page=two"}, fakeArgv(t, "b19")), "-a page: /page: must be a number"},
		{"enum value", cmdline([]string{"call", "set_direction", "-a", "direction=up"}, fakeArgv(t, "b15")), `-a direction: must be one of "send", "receive"`},
		{"server without config", cmdline([]string{"tools", "--server", "x"}, minimal), "--server \"x\" needs --config"},
		{"config and command", cmdline([]string{"tools", "--config", "x.json"}, minimal), "not both"},
		{"ping modern", cmdline([]string{"ping", "--era", "modern"}, []string{testservers.GoEverything(t)[0]}), "ping does not exist in the modern era"},
		{"discover legacy", cmdline([]string{"discover", "--era", "legacy"}, minimal), "use --era modern"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := inspect(t, nil, tc.args...)
			wantCode(t, r, exitUsage)
			if !strings.Contains(r.stderr, tc.stderr) {
				t.Fatalf("stderr does not say %q:\n%s", tc.stderr, r.stderr)
			}
		})
	}
}

func TestHeadlessSpawnFailure(t *testing.T) {
	t.Parallel()
	r := inspect(t, nil, "tools", "--json", "--", filepath.Join(t.TempDir(), "no such server"))
	wantCode(t, r, exitNoServer)
	doc := oneDocument(t, r)
	if !strings.Contains(doc, `"kind": "spawn"`) || !strings.Contains(r.stderr, "cannot start server") {
		t.Fatalf("spawn failure:\n%s\n%s", doc, r.stderr)
	}
}

// TestHeadlessServerEverything runs the commands against @modelcontextprotocol/server-everything.
func TestHeadlessServerEverything(t *testing.T) {
	t.Parallel()
	argv := testservers.ServerEverything(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"tools", []string{"tools", "--json", "-q"}, 0},
		{"resources", []string{"resources", "--json", "-q"}, 0},
		{"templates", []string{"templates", "--json", "-q"}, 0},
		{"prompts", []string{"prompts", "--json", "-q"}, 0},
		// -a by the schema: a and b are numbers; 007 stays the string "007".
		{"call_get_sum", []string{"call", "get-sum", "-a", "a=2", "-a", "b=3.5", "--json", "-q"}, 0},
		{"call_echo_string", []string{"call", "echo", "-a", "message=007", "--json", "-q"}, 0},
		{"call_enum_boolean", []string{"call", "get-annotated-message", "-a", "messageType=success", "-a", "includeImage=false", "--json", "-q"}, 0},
		{"read", []string{"read", "demo://resource/static/document/architecture.md", "-q"}, 0},
		{"prompt", []string{"prompt", "args-prompt", "-a", "city=Lisbon", "-a", "state=PT", "--json", "-q"}, 0},
		{"complete", []string{"complete", "--prompt", "completable-prompt", "--arg", "department", "--value", "E", "-q"}, 0},
		{"complete_context", []string{"complete", "--prompt", "completable-prompt", "--arg", "name", "--context", "department=Engineering", "--json", "-q"}, 0},
		// b is required: the schema finding is a warning, the call goes out anyway, and the
		// server's isError answer decides the exit code.
		{"call_missing_arg", []string{"call", "get-sum", "-a", "a=2", "--json", "-q"}, exitToolError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := inspect(t, nil, cmdline(tc.args, argv)...)
			out := r.stdout
			if strings.Contains(strings.Join(tc.args, " "), "--json") {
				out = oneDocument(t, r)
			}
			wantCode(t, r, tc.code)
			golden.RequireEqual(t, out)
		})
	}
	t.Run("stderr", func(t *testing.T) {
		t.Parallel()
		r := inspect(t, nil, cmdline([]string{"ping"}, argv)...)
		wantCode(t, r, 0)
		if !strings.Contains(r.stderr, "Starting default (STDIO) server...") || !strings.HasPrefix(r.stdout, "pong from mcp-servers/everything") {
			t.Fatalf("stdout %q stderr %q", r.stdout, r.stderr)
		}
	})
}

// TestHeadlessGoEverything runs the commands against the go-sdk everything-server, in both eras.
func TestHeadlessGoEverything(t *testing.T) {
	t.Parallel()
	argv := testservers.GoEverything(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"tools", []string{"tools", "--json"}, 0},
		{"tools_modern", []string{"tools", "--json", "--era", "modern"}, 0},
		{"resources", []string{"resources", "--json"}, 0},
		{"templates_auto", []string{"templates", "--json", "--era", "auto"}, 0},
		{"prompts", []string{"prompts", "--json"}, 0},
		{"discover", []string{"discover", "--json"}, 0},
		{"call_simple_text", []string{"call", "test_simple_text", "--json"}, 0},
		{"call_is_error", []string{"call", "test_error_handling", "--json"}, exitToolError},
		{"call_image", []string{"call", "test_image_content"}, 0},
		{"call_integer_nested", []string{"call", "json_schema_2020_12_tool", "-a", "name=Ana", "-a", "address.city=Porto", "-a", "contactMethod=email", "-a", "email=ana@example.test", "--json"}, 0},
		{"read_modern", []string{"read", "test://static-text", "--era", "modern", "--json"}, 0},
		{"prompt_modern", []string{"prompt", "test_prompt_with_arguments", "-a", "arg1=1", "-a", "arg2=two", "--era", "modern"}, 0},
		{"complete", []string{"complete", "--prompt", "test_prompt_with_arguments", "--arg", "arg1", "--value", "x", "--json"}, 0},
		{"ping", []string{"ping", "--json"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := inspect(t, nil, cmdline(tc.args, argv)...)
			wantCode(t, r, tc.code)
			out := r.stdout
			if strings.Contains(strings.Join(tc.args, " "), "--json") {
				out = oneDocument(t, r)
			}
			golden.RequireEqual(t, out)
		})
	}
}

// TestHeadlessConfig opens servers from host config files: a VS Code file whose server lives
// in a directory with spaces and takes its scenario and a variable from the file's env.
func TestHeadlessConfig(t *testing.T) {
	t.Parallel()
	ws := filepath.Join(t.TempDir(), "my project")
	bin := fake.BinaryAt(t, filepath.Join(ws, "bin dir", "fake server"))
	vscode := filepath.Join(ws, ".vscode", "mcp.json")
	writeFile(t, vscode, `{
  // JSONC, as VS Code writes it
  "inputs": [{"type": "promptString", "id": "key", "password": true}],
  "servers": {
    "whoami": {
      "type": "stdio",
      "command": "${workspaceFolder}/bin dir/fake server",
      "args": ["one arg", "${env:MCP_INSPECT_TEST_ARG}"],
      "env": {"FAKE_SCENARIO": "b22", "DEMO_MODE": "${input:key}"},
    },
    "remote": {"type": "http", "url": "http://127.0.0.1:1/mcp"},
    "ws": {"type": "ws", "url": "ws://127.0.0.1:1/mcp"},
  },
}`)
	r := inspect(t, []string{"MCP_INSPECT_TEST_ARG=from env"}, "call", "whoami", "--json", "--config", vscode, "--server", "whoami")
	wantCode(t, r, 0)
	doc := oneDocument(t, r)
	var whoami struct {
		Argv     []string `json:"argv"`
		DemoMode string   `json:"DEMO_MODE"`
	}
	var d struct {
		Result struct {
			Content []struct{ Text string } `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil || len(d.Result.Content) != 1 {
		t.Fatalf("%v\n%s", err, doc)
	}
	if err := json.Unmarshal([]byte(d.Result.Content[0].Text), &whoami); err != nil {
		t.Fatalf("%v: %s", err, d.Result.Content[0].Text)
	}
	// The server started from a path with spaces, and got its arguments one by one.
	if len(whoami.Argv) != 2 || whoami.Argv[0] != "one arg" || whoami.Argv[1] != "from env" {
		t.Fatalf("argv %q", whoami.Argv)
	}
	if whoami.DemoMode != "${input:key}" || !strings.Contains(r.stderr, `${input:key} is an input the host would prompt for`) {
		t.Fatalf("DEMO_MODE %q; stderr:\n%s", whoami.DemoMode, r.stderr)
	}
	// -e wins over the file's env.
	r = inspect(t, nil, "call", "whoami", "-e", "DEMO_MODE=cli", "--config", vscode, "--server", "whoami")
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, `"DEMO_MODE":"cli"`) {
		t.Fatalf("-e over config env: %s", r.stdout)
	}
	// An http entry is reached at its URL (issue 13); nothing listens on port 1.
	r = inspect(t, nil, "tools", "--config", vscode, "--server", "remote")
	wantCode(t, r, exitNoServer)
	if !strings.Contains(r.stderr, "POST http://127.0.0.1:1/mcp") || !strings.Contains(r.stderr, "is the server running") {
		t.Fatalf("http entry: %s", r.stderr)
	}
	r = inspect(t, nil, "tools", "--config", vscode)
	wantCode(t, r, exitUsage)
	if !strings.Contains(r.stderr, "say which server with --server NAME") || !strings.Contains(r.stderr, "whoami, remote, ws") {
		t.Fatalf("no --server: %s", r.stderr)
	}

	claude := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	writeFile(t, claude, `{"mcpServers": {
  "minimal": {"command": "`+fake.Binary(t)+`", "args": ["--scenario", "minimal"]},
  "old": {"command": "`+fake.Binary(t)+`", "args": ["--scenario", "minimal"], "disabled": true},
  "spaces": {"command": "`+bin+`", "env": {"FAKE_SCENARIO": "minimal"}}
}}`)
	r = inspect(t, nil, "tools", "--config", claude, "--server", "old")
	wantCode(t, r, 0)
	if !strings.Contains(r.stderr, `server "old" is disabled`) || !strings.HasPrefix(r.stdout, "echo(text: string)") {
		t.Fatalf("disabled entry: %q %q", r.stdout, r.stderr)
	}
	// The same flags pick the TUI's server; these fail before any terminal is touched.
	r = inspect(t, nil, "--config", vscode, "--server", "ws")
	wantCode(t, r, exitUsage)
	if !strings.Contains(r.stderr, "mcp-inspect reaches stdio servers and http") {
		t.Fatalf("TUI on a ws entry: %s", r.stderr)
	}
	r = inspect(t, nil, "--server", "whoami")
	wantCode(t, r, exitUsage)
	if !strings.Contains(r.stderr, "needs --config FILE") {
		t.Fatalf("TUI --server without --config: %s", r.stderr)
	}
	r = inspect(t, nil, "servers", "--config", claude)
	wantCode(t, r, 0)
	out := strings.ReplaceAll(strings.ReplaceAll(r.stdout, bin, "BIN_WITH_SPACES"), fake.Binary(t), "FAKE")
	golden.RequireEqual(t, out)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBenchCommand(t *testing.T) {
	t.Parallel()
	r := inspect(t, nil, cmdline([]string{"bench", "call", "echo", "-a", "text=x", "-n", "300", "-c", "3", "--json"}, fakeArgv(t, "minimal"))...)
	wantCode(t, r, 0)
	golden.RequireEqual(t, oneDocument(t, r))

	r = inspect(t, nil, cmdline([]string{"bench", "call", "echo", "-a", "text=x", "--duration", "300ms"}, fakeArgv(t, "minimal"))...)
	wantCode(t, r, 0)
	if !regexp.MustCompile(`(?m)^throughput: [0-9.]+ calls/s$`).MatchString(r.stdout) || !strings.Contains(r.stdout, "errors:     0; isError results: 0") {
		t.Fatalf("human bench output:\n%s", r.stdout)
	}

	trace := filepath.Join(t.TempDir(), "bench.jsonl")
	r = inspect(t, nil, cmdline([]string{"bench", "call", "echo", "-a", "text=x", "-n", "100", "--warmup", "0", "--record", trace}, fakeArgv(t, "minimal"))...)
	wantCode(t, r, 0)
	if b, err := os.ReadFile(trace); err != nil || bytes.Count(b, []byte(`tools/call`)) != 100 {
		t.Fatalf("--record keeps every call of the bench: %v, %d calls", err, bytes.Count(b, []byte(`tools/call`)))
	} else {
		for _, line := range bytes.Split(b, []byte("\n")) {
			if bytes.Contains(line, []byte(`"c2s"`)) && bytes.Contains(line, []byte(`tools/call`)) && !bytes.Contains(line, []byte(`progressToken`)) {
				t.Fatalf("a bench call's request carries no progress token (cases.md B11): %s", line)
			}
		}
	}

	r = inspect(t, nil, cmdline([]string{"bench", "call", "crash", "-n", "10", "--warmup", "0"}, fakeArgv(t, "b10"))...)
	wantCode(t, r, exitNoServer)
	if !strings.Contains(r.stdout, "stopped early: server exited") {
		t.Fatalf("the numbers so far are printed:\n%s\n%s", r.stdout, r.stderr)
	}

	// A server that stops answering ends the run after 3 rounds of timeouts in a row
	// (not one --timeout per remaining call; the other caller's call in flight still
	// times out); the exit code is the timeout's.
	r = inspect(t, nil, cmdline([]string{"bench", "call", "sleep", "-a", "seconds=100", "-n", "1000", "-c", "2", "--timeout", "200ms", "--warmup", "0", "--json"}, fakeArgv(t, "b12"))...)
	wantCode(t, r, exitTimeout)
	// The other caller's call in flight at the stop times out too: the streak said is the
	// one counted.
	streak := regexp.MustCompile(`"stopped": "(\d+) calls in a row timed out \(the server stopped answering, or the tool takes longer than --timeout without reporting progress\)"`).FindStringSubmatch(r.stdout)
	if streak == nil || (streak[1] != "6" && streak[1] != "7") || !strings.Contains(r.stdout, `"timeout": `+streak[1]+"\n") {
		t.Fatalf("a hung server stops the run, and the streak said is the timeouts counted:\n%s\n%s", r.stdout, r.stderr)
	}
	// Timed-out calls are not answered calls: they make no latency and no throughput.
	if !strings.Contains(r.stdout, `"callsPerSec": 0,`) || !strings.Contains(r.stdout, `"max": 0,`) {
		t.Fatalf("timed-out calls are counted as answered:\n%s", r.stdout)
	}

	r = inspect(t, nil, cmdline([]string{"bench", "call", "test_error_handling", "-n", "5", "--json"}, testservers.GoEverything(t))...)
	wantCode(t, r, exitToolError)
	if !strings.Contains(r.stdout, `"toolErrors": 5`) {
		t.Fatalf("isError results are counted:\n%s", r.stdout)
	}
}

func TestManAndCompletion(t *testing.T) {
	t.Parallel()
	r := inspect(t, nil, "man")
	wantCode(t, r, 0)
	if !strings.HasPrefix(r.stdout, ".nh") && !strings.Contains(r.stdout, ".TH \"MCP-INSPECT\" \"1\"") {
		t.Fatalf("not a man page:\n%s", r.stdout[:min(400, len(r.stdout))])
	}
	// The keys (generated from ui/keys.go) and the filter language, before EXIT STATUS.
	for _, want := range []string{".SH KEYS", ".SS 3 Wire", ".B \"N\"\nprevious match", ".SH FILTER EXPRESSIONS", ".B is:tool-error\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the man page lacks %q", want)
		}
	}
	if strings.Index(r.stdout, ".SH KEYS") > strings.Index(r.stdout, ".SH EXIT STATUS") {
		t.Error("KEYS comes after EXIT STATUS")
	}
	dir := t.TempDir()
	r = inspect(t, nil, "man", "--dir", dir)
	wantCode(t, r, 0)
	for _, page := range []string{"mcp-inspect.1", "mcp-inspect-call.1", "mcp-inspect-bench-call.1", "mcp-inspect-servers.1", "mcp-inspect-check.1"} {
		b, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil || !bytes.Contains(b, []byte(".SH NAME")) {
			t.Fatalf("%s: %v", page, err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "mcp-inspect-call.1"))
	if !bytes.Contains(b, []byte("4  protocol error")) {
		t.Fatal("the call page documents the exit codes")
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		r = inspect(t, nil, "completion", shell)
		wantCode(t, r, 0)
		if !strings.Contains(r.stdout, "mcp-inspect") || len(r.stdout) < 1000 {
			t.Fatalf("%s completion:\n%s", shell, r.stdout)
		}
	}
	r = inspect(t, nil, "__complete", "bench", "")
	if !strings.Contains(r.stdout, "call") {
		t.Fatalf("dynamic completion of bench: %q", r.stdout)
	}
}
