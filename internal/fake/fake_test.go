package fake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// tested are the scenarios this file covers; TestListMatchesTests keeps it in step with
// the binary.
var tested = []string{
	"minimal", "b01", "b01b", "b02", "b02b", "b03", "b05", "b05s", "b07", "b07b",
	"b09", "b09-exit0", "b09-halfline", "b10", "b10-panic", "b11", "b11b", "b12", "b12b",
	"b13", "b13-roots", "b13-elicit", "b15", "b16", "b16-recursive", "b18", "b19", "b20",
	"b22", "b23", "b25", "paging-stuck", "paging-endless",
	"flood-notify", "flood-stderr", "batch", "tasks", "tasks-undeclared",
	"slow-start", "probe-late-legacy", "probe-late-modern", "probe-silent", "probe-banner-slow", "hostile",
	// issue #14 §2: lists, ids and versions (paging_test.go)
	"paging-repeat", "paging-empty-cursor", "id-zero-answer", "id-stringly", "drop-id-0",
	"version-old", "version-unknown", "version-missing",
	// issue #14 §3: findings everywhere, the shutdown step
	"findings", "linger", "linger-kill",
	// issue 27: markdown that hides steering text (findings_test.go)
	"poison",
	// issue #17: servers that break one rule of mcp-inspect check each (check_test.go)
	"check-echo-version", "check-silent-init", "check-bom", "check-early-notify", "check-dies-on-garbage",
	"check-answers-notifications", "check-wrong-codes", "check-bad-listings", "check-bad-discover", "check-ping-object",
	// issue 25: a string id that kills the server or goes unanswered (one failure each)
	"check-dies-on-string-id", "check-ignores-string-id",
	// a server that cannot run twice at once (copies_test.go)
	"single-copy",
	// issue 24: servers as people write them (people_test.go)
	"nan", "reply-to-notification", "buffered", "stderr-progress", "union",
}

// breaksCommon are the check scenarios TestCommonBehaviour leaves out: each breaks one of
// the defaults it checks on purpose (check_test.go covers them).
var breaksCommon = []string{"check-silent-init", "check-bom", "check-dies-on-garbage", "check-wrong-codes", "check-ping-object", "buffered", "check-dies-on-string-id", "check-ignores-string-id"}

func listScenarios(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command(Binary(t), "--list").Output()
	if err != nil {
		t.Fatalf("--list: %v", err)
	}
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, summary, ok := strings.Cut(l, "\t")
		if !ok || summary == "" {
			t.Errorf("--list line without a summary: %q", l)
		}
		names = append(names, name)
	}
	return names
}

func TestListMatchesTests(t *testing.T) {
	got := listScenarios(t)
	// The HTTP scenarios are tested where the client is: mcpclient's httpredirect, httpencoding
	// and httpsession tests, cmd's headless_remote tests.
	want := append(append(slices.Clone(tested), framingTested...), HTTPScenarios...)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("--list = %v\nthe tests cover %v", got, want)
	}
}

func TestUnknownScenario(t *testing.T) {
	for _, args := range [][]string{{"--scenario", "nope"}, {}, {"--scenario"}} {
		p := run(t, args)
		e := p.wait(true)
		if e.code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, e.code, ExitUsage)
		}
		if !strings.HasPrefix(p.stderr.String(), "fakeserver: ") {
			t.Errorf("%v: stderr %q", args, p.stderr.String())
		}
	}
}

// TestCommonBehaviour checks, for every scenario that gets through initialize, the
// defaults: ping, unknown method, unparsable line, exit 0 on stdin EOF. It reads past the
// stray lines some scenarios add.
func TestCommonBehaviour(t *testing.T) {
	for _, name := range tested {
		if strings.HasPrefix(name, "b09") || strings.HasPrefix(name, "linger") || slices.Contains(breaksCommon, name) {
			continue // exits before reading stdin; stays up after stdin ends (findings_test.go); breaks a default on purpose
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env := []string{}
			if name == "b25" {
				env = append(env, "GITHUB_PERSONAL_ACCESS_TOKEN=ghp_FAKE_TOKEN_FOR_TESTS_0000")
			}
			if name == "slow-start" || name == "probe-banner-slow" {
				env = append(env, EnvStartMS+"=50")
			}
			p := run(t, nil, append(env, EnvScenario+"="+name)...) // the env var selects too
			p.send(initReq)
			init := p.responseTo(`1`)
			if name != "b20" && !strings.HasPrefix(name, "paging") && !strings.HasPrefix(name, "version-") && name != "flood-notify" && name != "batch" && name != "hostile" && name != "findings" && name != "check-early-notify" && name != "check-bad-listings" && init != defaultInit+"\n" {
				t.Errorf("initialize:\n got %q\nwant %q", init, defaultInit+"\n")
			}
			p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			p.send(`{"jsonrpc":"2.0","id":"p-1","method":"ping"}`)
			if got := p.responseTo(`"p-1"`); got != `{"jsonrpc":"2.0","id":"p-1","result":{}}`+"\n" {
				t.Errorf("ping: %q", got)
			}
			p.send(`{"jsonrpc":"2.0","id":7,"method":"no/such/method","params":{}}`)
			if got := p.responseTo(`7`); got != `{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found"}}`+"\n" {
				t.Errorf("unknown method: %q", got)
			}
			p.send(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`)
			if got := p.responseTo(`8`); got != `{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"Unknown tool: no_such_tool"}}`+"\n" {
				t.Errorf("unknown tool: %q", got)
			}
			p.send(`{"jsonrpc":"2.0","id":9,"method":"tools/li`)
			if got := p.responseTo(`null`); got != `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`+"\n" {
				t.Errorf("parse error: %q", got)
			}
			if e := p.wait(true); e.code != 0 {
				t.Errorf("exit %d after stdin EOF, want 0", e.code)
			}
		})
	}
}

// responseTo reads lines until the response with the given raw id, skipping anything else.
func (p *proc) responseTo(id string) string {
	p.t.Helper()
	prefix := `{"jsonrpc":"2.0","id":` + id + `,`
	for {
		if l := p.line(); strings.HasPrefix(l, prefix) {
			return l
		}
	}
}

func TestMinimal(t *testing.T) {
	t.Parallel()
	p := scenario(t, "minimal")
	p.handshake()
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","description":"Echo text back","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}]}}`)
	p.exchange(`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"echo","arguments":{"text":"a \"quoted\" <b>"}}}`,
		`{"jsonrpc":"2.0","id":"c","result":{"content":[{"type":"text","text":"a \"quoted\" <b>"}]}}`)
	if e := p.wait(true); e.code != 0 || e.stdout != "" || p.stderr.String() != "" {
		t.Errorf("exit %+v stderr %q", e, p.stderr.String())
	}
}

func TestInitializeWithoutVersion(t *testing.T) {
	t.Parallel()
	p := scenario(t, "minimal")
	p.exchange(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"demo-server","version":"0.0.1"}}}`)
}

func TestB01BannerAndStrayLines(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b01")
	p.expect("Demo MCP Server v1.0.0 started successfully") // before any input
	p.handshake()
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		"[MCP] list_tools requested",
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","description":"Echo text back","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}]}}`)
	p.exchange(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
		"[MCP] call_tool requested",
		`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hi"}]}}`)
}

func TestB01bJSONThatIsNotJSONRPC(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b01b")
	p.expect(`{"level":"info","msg":"Demo MCP Server v1.0.0 started successfully","time":"2025-01-01T00:00:00.000Z"}`)
	p.handshake()
	p.expect(`{"level":"info","msg":"client initialized","time":"2025-01-01T00:00:00.000Z"}`)
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"level":"debug","msg":"list_tools requested","time":"2025-01-01T00:00:00.000Z"}`,
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","description":"Echo text back","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}]}}`)
}

func TestB02SplitAndCoalescedWrites(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b02")
	sent := time.Now()
	p.send(initReq)
	first := p.chunk()
	if string(first.b) != defaultInit[:40] {
		t.Fatalf("first write: got %q, want the first 40 bytes %q", first.b, defaultInit[:40])
	}
	second := p.chunk()
	if string(second.b) != defaultInit[40:]+"\n" {
		t.Fatalf("second write: %q", second.b)
	}
	// The server sleeps 200 ms between the halves, so the second cannot come sooner after
	// the request was sent. (The gap between the two reads is no bound: a busy machine
	// may deliver the first half late.)
	if d := second.at.Sub(sent); d < 200*time.Millisecond {
		t.Errorf("the second half came %v after the request, want at least the server's 200 ms pause", d)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if c := p.chunk(); string(c.b) != `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`+"\n" {
		t.Fatalf("tools/list: want both messages in one read, got %q", c.b)
	}
	p.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`)
	if c := p.chunk(); string(c.b) != "debug: echo called\n"+`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hi"}]}}`+"\n" {
		t.Fatalf("tools/call: want the log line and the response in one read, got %q", c.b)
	}
}

func TestB02bBytePerWrite(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b02b")
	p.handshake()
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`)
	p.exchange(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hi"}]}}`)
	// A longer text makes a longer byte-by-byte response; it must come out whole.
	long := strings.Repeat("abcdefgh", 512)
	p.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + long + `"}}}`)
	reads := 0
	var got []byte
	for !strings.HasSuffix(string(got), "\n") {
		got = append(got, p.chunk().b...)
		reads++
	}
	if want := `{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"` + long + `"}]}}` + "\n"; string(got) != want {
		t.Fatalf("byte-by-byte response differs: %d bytes, want %d", len(got), len(want))
	}
	t.Logf("%d-byte response arrived in %d reads", len(got), reads)
}

func TestB03LongLines(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b03")
	p.handshake()
	for i, n := range []int{65400, 65536 + 100, 1 << 20, 5 << 20} {
		id := i + 10
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"big","arguments":{"bytes":%d}}}`, id, n))
		prefix := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"`, id)
		suffix := `"}]}}` + "\n"
		l := p.line()
		if len(l) != len(prefix)+n+len(suffix) || !strings.HasPrefix(l, prefix) || !strings.HasSuffix(l, suffix) ||
			strings.Trim(l[len(prefix):len(l)-len(suffix)], "x") != "" {
			t.Fatalf("big %d: a %d-byte line that is not the expected one: %.100q", n, len(l), l)
		}
	}
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	l := p.line()
	if len(l) < 120_000 {
		t.Errorf("tools/list line is %d bytes, want about 150 KB", len(l))
	}
	var resp struct {
		Result struct {
			Tools []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(l), &resp); err != nil {
		t.Fatal(err)
	}
	if len(resp.Result.Tools) != 400 || resp.Result.Tools[0].Name != "big" {
		t.Fatalf("%d tools, first %q", len(resp.Result.Tools), resp.Result.Tools[0].Name)
	}
	for _, tl := range resp.Result.Tools {
		if n := utf8.RuneCountInString(tl.Description); n != 300 {
			t.Errorf("%s: description of %d characters", tl.Name, n)
		}
	}
	p.exchange(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"big","arguments":{"bytes":-1}}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bytes must be an integer from 0 to 1073741824"}}`)
}

func TestB05InvalidUTF8(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b05")
	p.handshake()
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"snippet","arguments":{}}}`)
	l := p.line()
	want := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"` + "\xC7\xD1\xB1\xDB" + `"}]}}` + "\n"
	if l != want {
		t.Fatalf("got % x\nwant % x", l, want)
	}
	if utf8.ValidString(l) {
		t.Fatal("the line is valid UTF-8")
	}
}

func TestB05sLoneSurrogate(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b05s")
	p.handshake()
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"snippet"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"abc\ud83d"}]}}`)
}

func TestB07MessageBeforeInitialize(t *testing.T) {
	t.Parallel()
	for name, first := range map[string]string{
		"b07":  `{"method":"notifications/message","params":{"level":"info","data":"Demo server running on stdio with 21/21 tools available"},"jsonrpc":"2.0"}`,
		"b07b": `{"jsonrpc":"2.0","method":"server.initialized","params":{"serverInfo":{"name":"demo-server","version":"0.0.1"}}}`,
	} {
		p := scenario(t, name)
		p.expect(first) // written before the server reads anything
		p.handshake()
		p.exchange(`{"jsonrpc":"2.0","id":2,"method":"ping"}`, `{"jsonrpc":"2.0","id":2,"result":{}}`)
	}
}

func TestB09ExitAtStartup(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, stdout, stderr string
		code                 int
	}{
		{"b09", "", "error: required environment variable DEMO_API_KEY is not set\n", 2},
		{"b09-exit0", "", "", 0},
		{"b09-halfline", `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","da`, "", 1},
	}
	for _, c := range cases {
		p := scenario(t, c.name)
		start := time.Now()
		e := p.wait(false) // the server must exit without any input and without EOF on stdin
		if e.code != c.code || e.stdout != c.stdout || p.stderr.String() != c.stderr {
			t.Errorf("%s: exit %d stdout %q stderr %q; want %d %q %q", c.name, e.code, e.stdout, p.stderr.String(), c.code, c.stdout, c.stderr)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %v to exit", c.name, d)
		}
	}
}

func TestB10CrashBySIGKILL(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b10")
	p.handshake()
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if l := p.line(); !strings.Contains(l, `{"name":"crash","description":"Kills the server","inputSchema":{"type":"object","properties":{}}}`) {
		t.Fatalf("tools/list: %s", l)
	}
	p.exchange(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"still fine"}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"still fine"}]}}`)
	p.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"crash","arguments":{}}}`)
	e := p.wait(false)
	// Killed: SIGKILL on Unix; on Windows os.Process.Kill (TerminateProcess) leaves code 1.
	killed := e.signal == "KILL"
	if runtime.GOOS == "windows" {
		killed = e.code == 1 && e.signal == ""
	}
	if !killed || e.stdout != "" || p.stderr.String() != "" {
		t.Errorf("crash: %+v stderr %q; want killed and no output", e, p.stderr.String())
	}
}

func TestB10Panic(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b10-panic")
	p.handshake()
	p.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"crash","arguments":{}}}`)
	e := p.wait(false)
	if e.code != 1 || e.stdout != "" || p.stderr.String() != "panic: boom\n" {
		t.Errorf("%+v stderr %q; want exit 1 and panic: boom", e, p.stderr.String())
	}
}

func b11Lines(token string, steps int) []string {
	var want []string
	for k := 1; k <= steps; k++ {
		if token != "" {
			want = append(want, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%s,"progress":%d,"total":%d,"message":"step %d"}}`, token, k, steps, k))
		}
		want = append(want, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working %d/%d"}}`, k, steps))
	}
	return want
}

func TestB11Progress(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b11", EnvStepMS+"=20", EnvSteps+"=3")
	p.handshake()
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"seconds":90},"_meta":{"progressToken":"tok-2"}}}`)
	// Pings are answered while the tool runs.
	p.exchange(`{"jsonrpc":"2.0","id":3,"method":"ping"}`, `{"jsonrpc":"2.0","id":3,"result":{}}`)
	for _, w := range b11Lines(`"tok-2"`, 3) {
		p.expect(w)
	}
	p.expect(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"done"}]}}`)
	// Without a token: log lines only. An integer token is echoed as an integer.
	p.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"slow","arguments":{}}}`)
	for _, w := range b11Lines("", 3) {
		p.expect(w)
	}
	p.expect(`{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"done"}]}}`)
	p.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":77}}}`)
	for _, w := range b11Lines(`77`, 3) {
		p.expect(w)
	}
	p.expect(`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"done"}]}}`)
}

func TestB11StepsFromSeconds(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b11", EnvStepMS+"=5")
	p.handshake()
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"seconds":10},"_meta":{"progressToken":1}}}`)
	for _, w := range b11Lines(`1`, 2) { // 10 s in 5-second steps
		p.expect(w)
	}
	p.expect(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"done"}]}}`)
}

func TestB11bUnknownToken(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b11b", EnvStepMS+"=10", EnvSteps+"=2")
	p.handshake()
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"mine"}}}`)
	for _, w := range b11Lines(`"fake-unknown-token"`, 2) {
		p.expect(w)
	}
	p.expect(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"done"}]}}`)
}

func TestB11Cancel(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b11", EnvStepMS+"=60000")
	p.handshake()
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"t"}}}`)
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"test"}}`)
	p.waitStderr("cancelled request 2\n")
	if e := p.wait(true); e.stdout != "" {
		t.Errorf("output after cancel: %q", e.stdout)
	}
}

func TestB12CancelStopsSleep(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b12", EnvSleepMS+"=60000")
	p.handshake()
	p.send(`{"jsonrpc":"2.0","id":"s-1","method":"tools/call","params":{"name":"sleep","arguments":{"seconds":30}}}`)
	// A cancel for another id, or of the wrong type, changes nothing.
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s-2"}}`)
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s-1","reason":"user cancelled"}}`)
	p.waitStderr(`cancelled request "s-1"` + "\n")
	p.exchange(`{"jsonrpc":"2.0","id":3,"method":"ping"}`, `{"jsonrpc":"2.0","id":3,"result":{}}`)
	e := p.wait(true)
	if e.code != 0 || e.stdout != "" {
		t.Errorf("%+v: want exit 0 and no response to the cancelled call", e)
	}
	if p.stderr.String() != `cancelled request "s-1"`+"\n" {
		t.Errorf("stderr %q", p.stderr.String())
	}
}

func TestB12SleepCompletes(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b12", EnvSleepMS+"=50")
	p.handshake()
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sleep"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"slept"}]}}`)
}

func TestB12bIgnoresCancel(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b12b", EnvSleepMS+"=400")
	p.handshake()
	start := time.Now()
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sleep","arguments":{"seconds":30}}}`)
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	p.waitStderr("ignoring cancellation of request 2\n")
	p.expect(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"slept"}]}}`)
	if d := time.Since(start); d < 350*time.Millisecond {
		t.Errorf("answered after %v, want the full 400 ms sleep", d)
	}
}

func TestB13ServerToClientRequests(t *testing.T) {
	t.Parallel()
	cases := []struct {
		scenario, request, reply, result string
	}{
		{
			"b13",
			`{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Say hi"}}],"maxTokens":50}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"hi there"},"model":"test","stopReason":"endTurn"}}`,
			`{"content":[{"type":"text","text":"hi there"}]}`,
		},
		{
			"b13",
			`{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Say hi"}}],"maxTokens":50}}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`,
			`{"content":[{"type":"text","text":"Method not found"}],"isError":true}`,
		},
		{
			"b13-roots",
			`{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"roots":[{"uri":"file:///work","name":"work"}]}}`,
			`{"content":[{"type":"text","text":"{\"roots\":[{\"uri\":\"file:///work\",\"name\":\"work\"}]}"}]}`,
		},
		{
			"b13-elicit",
			`{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"name":"Ada"}}}`,
			`{"content":[{"type":"text","text":"{\"action\":\"accept\",\"content\":{\"name\":\"Ada\"}}"}]}`,
		},
	}
	for _, c := range cases {
		p := scenario(t, c.scenario)
		p.handshake()
		// The client's own id 1 was initialize; the server's id 1 is a different request.
		p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"summarize","arguments":{"text":"x"}}}`, c.request)
		// While the server waits, it still answers the client.
		p.exchange(`{"jsonrpc":"2.0","id":3,"method":"ping"}`, `{"jsonrpc":"2.0","id":3,"result":{}}`)
		p.exchange(c.reply, `{"jsonrpc":"2.0","id":2,"result":`+c.result+`}`)
		// A second call uses the next server-side id.
		p.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"summarize"}}`)
		if l := p.line(); !strings.HasPrefix(l, `{"jsonrpc":"2.0","id":2,"method":`) {
			t.Errorf("%s: second server request %q", c.scenario, l)
		}
	}
}

func TestB13Timeout(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b13", EnvWaitMS+"=100")
	p.handshake()
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"summarize"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Say hi"}}],"maxTokens":50}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"no reply to sampling/createMessage (id 1) within 100 ms"}],"isError":true}}`)
	// A reply after the timeout is reported on stderr and otherwise ignored.
	p.send(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	p.waitStderr("fakeserver: response to an unknown request id 1\n")
}

func TestSchemaScenarios(t *testing.T) {
	t.Parallel()
	cases := []struct{ scenario, tools, tool, args, result string }{
		{
			"b15",
			`{"tools":[{"name":"set_direction","description":"Set transfer direction","inputSchema":{"type":"object","properties":{"direction":{"anyOf":[{"type":"string","enum":["send","receive"]},{"type":"null"}]},"retries":{"type":["integer","null"],"enum":[1,2,3,null]},"mode":{"type":["string","null"],"enum":["fast"]}}}}]}`,
			"set_direction", `{"direction": null, "retries": 2}`, `{"direction":null,"retries":2}`,
		},
		{
			"b16",
			`{"tools":[{"name":"list_schedules","description":"List on-call schedules","inputSchema":{"$defs":{"ScheduleQuery":{"type":"object","properties":{"query":{"type":"string","default":null},"team_ids":{"type":"array","default":null},"limit":{"type":"integer","default":20}}}},"type":"object","properties":{"query_model":{"$ref":"#/$defs/ScheduleQuery"}},"required":["query_model"]}}]}`,
			"list_schedules", `{"query_model":{"limit":20}}`, `{"query_model":{"limit":20}}`,
		},
		{
			"b16-recursive",
			`{"tools":[{"name":"build_tree","description":"Build a tree of named nodes","inputSchema":{"$defs":{"node":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}},"$ref":"#/$defs/node"}}]}`,
			"build_tree", `{"name":"root","children":[{"name":"leaf"}]}`, `{"name":"root","children":[{"name":"leaf"}]}`,
		},
		{
			"b18",
			`{"tools":[{"name":"send_request","inputSchema":{"type":"object","properties":{"raw":{"type":"string"},"ids":{"type":["null","array"],"items":{"type":"string"}},"tls":{"type":["null","boolean"]},"value":{"type":["string","number","boolean"]}},"required":["raw"]}}]}`,
			// b18 echoes the exact bytes, spaces included.
			"send_request", `{"raw": "GET / HTTP/1.1", "tls": true, "ids": ["1","2"]}`, `{"raw": "GET / HTTP/1.1", "tls": true, "ids": ["1","2"]}`,
		},
	}
	for _, c := range cases {
		p := scenario(t, c.scenario)
		p.handshake()
		p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":2,"result":`+c.tools+`}`)
		quoted, _ := json.Marshal(c.result)
		p.exchange(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"`+c.tool+`","arguments":`+c.args+`}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":`+string(quoted)+`}]}}`)
	}
	// b18: arguments cut off mid-value do not parse: -32700.
	p := scenario(t, "b18")
	p.handshake()
	p.exchange(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"send_request","arguments":{"raw":"GET","tls":`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)
}

func TestB19StrictValidation(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b19")
	p.handshake()
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"grep_record","inputSchema":{"type":"object","properties":{"query":{"type":"string","minLength":1},"page":{"type":"number"},"page_size":{"type":"integer","default":50},"zip":{"type":"string"},"filters":{"type":"object","properties":{"since":{"type":"string","format":"date-time"}}}},"required":["query"]}}]}}`)
	cases := []struct{ args, err string }{
		{`{"query":"heart"}`, ""},
		{`{"query":"heart","page":1.5,"page_size":20,"zip":"02134","filters":{"since":"2025-01-01T00:00:00Z"}}`, ""},
		{`{"query":"heart","page_size":2.0}`, ""},
		{`{"query":"heart","page":null,"page_size":null}`, "page: expected number, received null"},
		{`{"query":"heart","page":"2"}`, "page: expected number, received string"},
		{`{"query":"heart","page_size":2.5}`, "page_size: expected integer, received number"},
		{`{"query":"heart","page_size":null}`, "page_size: expected integer, received null"},
		{`{"query":"heart","zip":2134}`, "zip: expected string, received number"},
		{`{"query":"heart","filters":"{\"since\":\"x\"}"}`, "filters: expected object, received string"},
		{`{"query":"heart","filters":{"since":"yesterday"}}`, `filters.since: expected date-time, received "yesterday"`},
		{`{"query":""}`, "query: expected string of at least 1 character, received empty string"},
		{`{"page":1}`, "query: expected string, received undefined"},
		{`{"query":null}`, "query: expected string, received null"},
		{`"query=heart"`, "arguments: expected object, received string"},
	}
	for i, c := range cases {
		id := i + 10
		req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"grep_record","arguments":%s}}`, id, c.args)
		var want string
		if c.err == "" {
			var b bytes.Buffer
			_ = json.Compact(&b, []byte(c.args))
			q, _ := json.Marshal(b.String())
			want = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":%s}]}}`, id, q)
		} else {
			q, _ := json.Marshal("Invalid arguments: " + c.err)
			want = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":{"code":-32602,"message":%s}}`, id, q)
		}
		p.exchange(req, want)
	}
}

func TestB20ResourceLink(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b20")
	p.exchange(initReq, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{},"resources":{}},"serverInfo":{"name":"demo-server","version":"0.0.1"}}}`)
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"find_docs","arguments":{"query":"readme"}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Found 1 document"},{"type":"resource_link","uri":"file:///workspace/README.md","name":"README.md","description":"Project readme","mimeType":"text/markdown"},{"type":"resource","resource":{"uri":"file:///workspace/notes.txt","mimeType":"text/plain","text":"hello"}},{"type":"future_block","payload":42}]}}`)
	p.exchange(`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"file:///workspace/README.md"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"contents":[{"uri":"file:///workspace/README.md","mimeType":"text/markdown","text":"# Workspace\n\nThe README of the fake workspace.\n"}]}}`)
	p.exchange(`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"file:///etc/passwd"}}`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32002,"message":"Resource not found"}}`)
	p.exchange(`{"jsonrpc":"2.0","id":5,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":5,"result":{"resources":[{"uri":"file:///workspace/README.md","name":"README.md","description":"Project readme","mimeType":"text/markdown"}]}}`)
}

func TestB22ArgvAndEnv(t *testing.T) {
	t.Parallel()
	// The binary sits in a directory with spaces, as in the bug report.
	bin := BinaryAt(t, filepath.Join(t.TempDir(), "mcp inspect fixtures", "demo server"))
	args := []string{"--root", "/data/My Projects/demo", "--name=a b"}
	want := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"argv\":[\"--root\",\"/data/My Projects/demo\",\"--name=a b\"],\"DEMO_MODE\":\"x y\",\"PATH_set\":true}"}]}}`
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami","arguments":{}}}`

	p := runBinary(t, bin, args, EnvScenario+"=b22", "DEMO_MODE=x y")
	p.handshake()
	p.exchange(call, want)

	// With the flag instead of the variable, the flag is left out of argv.
	p = runBinary(t, bin, append([]string{"--scenario=b22"}, args...), "DEMO_MODE=x y")
	p.handshake()
	p.exchange(call, want)

	// No DEMO_MODE, no PATH, no arguments.
	cmd := exec.Command(bin)
	cmd.Env = []string{EnvScenario + "=b22"}
	p = start(t, cmd)
	p.handshake()
	p.exchange(call, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"argv\":[],\"DEMO_MODE\":null,\"PATH_set\":false}"}]}}`)
}

func TestB23EscapeSequences(t *testing.T) {
	t.Parallel()
	p := scenario(t, "b23")
	p.handshake()
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"headers","description":"Fetch headers\u001b[2J\u001b]0;owned\u0007","inputSchema":{"type":"object","properties":{}}}]}}`)
	const escaped = `Server: Apache\u001b[2J\u001b]0;PWNED\u0007 \u001b]8;;http://attacker.invalid/\u0007click\u001b]8;;\u0007 \u001b[31mred\u001b[0m \u202eevil\u202c`
	p.exchange(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"headers","arguments":{}}}`,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","data":"`+escaped+`"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"`+escaped+`"}]}}`)
	raw := "Server: Apache\x1b[2J\x1b]0;PWNED\x07 \x1b]8;;http://attacker.invalid/\x07click\x1b]8;;\x07 \x1b[31mred\x1b[0m \u202eevil\u202c\n"
	p.waitStderr(raw)
	if p.stderr.String() != raw {
		t.Errorf("stderr %q, want %q", p.stderr.String(), raw)
	}
}

func TestB25Secrets(t *testing.T) {
	t.Parallel()
	env := []string{
		"GITHUB_PERSONAL_ACCESS_TOKEN=ghp_FAKE_TOKEN_FOR_TESTS_0000",
		"DEMO_PASSWORD=hunter2-fake",
		"DEMO_URL=https://user:pw-fake@example.invalid/",
	}
	p := scenario(t, "b25", env...)
	p.waitStderr("using token ghp_FAKE_TOKEN_FOR_TESTS_0000\n")
	p.handshake()
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"leak","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"ghp_FAKE_TOKEN_FOR_TESTS_0000"}]}}`)

	p = run(t, []string{"--scenario", "b25", "--fail"}, env...)
	e := p.wait(false)
	if e.code != 1 || e.stdout != "" || p.stderr.String() != "using token ghp_FAKE_TOKEN_FOR_TESTS_0000\n" {
		t.Errorf("--fail: %+v stderr %q", e, p.stderr.String())
	}
}
