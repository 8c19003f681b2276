// Command fakeserver is a scriptable stdio MCP server that misbehaves on purpose, for tests.
// Each scenario reproduces one case of ../../../../shared/cases.md (the project's bug
// reports, B01 … B25) byte for byte, plus a well-behaved "minimal" server for benchmarks.
//
// Usage:
//
//	fakeserver --scenario NAME [ARGS...]   (or FAKE_SCENARIO=NAME fakeserver [ARGS...])
//	fakeserver --list                      print "NAME<TAB>summary" for every scenario
//
// The flag wins over the environment. Scenario b22 echoes its argv, so pass its name through
// FAKE_SCENARIO to keep argv exactly what the test gave; the --scenario flag is removed from
// the echoed argv either way. Timing knobs, all in milliseconds or counts:
//
//	FAKE_STEP_MS   b11, b11b: time between progress steps (default 5000)
//	FAKE_STEPS     b11, b11b: number of steps (default: the seconds argument / 5, i.e. 18)
//	FAKE_SLEEP_MS  b12, b12b: how long the sleep tool sleeps (default: its seconds argument, 30)
//	FAKE_WAIT_MS   b13*: how long to wait for the client's reply (default 30000)
//	FAKE_LOCK      single-copy: the lock file (default $TMPDIR/fakeserver-single-copy-PPID.lock)
//
// Unless a scenario says otherwise the server answers initialize with the requested
// protocolVersion (2025-11-25 for one it does not know), capabilities {"tools":{}} and serverInfo demo-server 0.0.1; answers ping
// with {}; lists and runs an echo tool; answers unknown methods with -32601, unknown tools
// with -32602 and unparsable lines with -32700 (id null); and exits 0 when stdin reaches EOF.
// Every frame goes out in one write(2) on the unbuffered stdout, except where a scenario
// splits it on purpose. Exit code 64 means a usage error (unknown scenario).
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/stdioserver"
)

const exitUsage = 64

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

// run is main without the process: it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	name, rest, ok := scenarioFlag(args)
	if !ok {
		fmt.Fprintln(stderr, "fakeserver: --scenario needs a value")
		return exitUsage
	}
	if name == "" {
		name = getenv("FAKE_SCENARIO")
	}
	all := scenarios()
	for _, more := range []func() map[string]*scenario{
		pagingScenarios, floodScenarios, batchScenarios, tasksScenarios, probeScenarios,
		framingScenarios, hostileScenarios, listsScenarios, findingsScenarios, checkScenarios, peopleScenarios,
		copiesScenarios,
	} {
		maps.Copy(all, more())
	}
	if name == "" && slices.Contains(rest, "--list") {
		lines := map[string]string{}
		for n, sc := range all {
			lines[n] = sc.summary
		}
		for _, n := range fake.HTTPScenarios {
			lines[n] = "Streamable HTTP on $FAKE_HTTP_ADDR (default 127.0.0.1:0), the URL printed first (internal/fake/httpserver.go)"
		}
		for _, n := range slices.Sorted(maps.Keys(lines)) {
			fmt.Fprintf(stdout, "%s\t%s\n", n, lines[n])
		}
		return 0
	}
	if strings.HasPrefix(name, "http-") {
		return serveHTTP(name, getenv("FAKE_HTTP_ADDR"), stdout, stderr)
	}
	sc, found := all[name]
	if !found {
		fmt.Fprintf(stderr, "fakeserver: unknown scenario %q; known: %s\n", name, strings.Join(scenarioNames(all), " "))
		return exitUsage
	}
	s := &server{
		sc:       sc,
		args:     rest,
		getenv:   getenv,
		stdout:   stdout,
		out:      stdioserver.NewWriter(stdout),
		stderr:   stderr,
		inflight: map[string]chan struct{}{},
		waiters:  map[string]chan *stdioserver.Message{},
	}
	if sc.startup != nil {
		if code := sc.startup(s); code >= 0 {
			return code
		}
	}
	r := bufio.NewReaderSize(stdin, 64<<10)
	if sc.framing == framingLSPSilent {
		return s.serveLSPSilent(r)
	}
	if sc.framing == framingLSP {
		return s.serveLSP(r)
	}
	for {
		line, err := stdioserver.ReadLine(r)
		if err != nil {
			if sc.onEOF != nil {
				sc.onEOF(s)
			}
			return 0 // EOF (or a broken stdin): exit as a server should
		}
		s.handleLine(line)
	}
}

// scenarioFlag removes "--scenario NAME" or "--scenario=NAME" from args. ok is false when
// the flag has no value.
func scenarioFlag(args []string) (name string, rest []string, ok bool) {
	rest = []string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--scenario":
			if i+1 >= len(args) {
				return "", nil, false
			}
			name = args[i+1]
			i++
		case strings.HasPrefix(a, "--scenario="):
			name = strings.TrimPrefix(a, "--scenario=")
		default:
			rest = append(rest, a)
		}
	}
	return name, rest, true
}

func scenarioNames(all map[string]*scenario) []string {
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// scenario is what one fake server does. Zero fields mean the default behaviour.
type scenario struct {
	summary string
	// startup runs before stdin is read. It returns an exit code to stop there, or -1.
	startup func(s *server) int
	// capabilities is the raw JSON of the initialize result's capabilities.
	capabilities string
	// initialize writes the initialize response itself (e.g. in pieces).
	initialize func(s *server, m *stdioserver.Message)
	// initialized runs on notifications/initialized.
	initialized func(s *server)
	// tools is the raw JSON of the tools/list result.
	tools string
	// listTools writes the tools/list response itself.
	listTools func(s *server, m *stdioserver.Message)
	// calls implement tools/call by tool name.
	calls map[string]toolFunc
	// methods handle other request methods (resources/read …) before the defaults.
	methods map[string]func(s *server, m *stdioserver.Message)
	// framing is "" (newline JSON) or one of the framings of scenarios_framing.go.
	framing string
	// onEOF runs when stdin ends, before the exit (a server that lingers blocks in it).
	onEOF func(s *server)
	// garbage handles a line that is not JSON instead of the -32700.
	garbage func(s *server, line []byte)
	// notification runs first on every notification but initialized.
	notification func(s *server, m *stdioserver.Message)
	// unknown answers a request method nothing else handles instead of the -32601.
	unknown func(s *server, m *stdioserver.Message)
	// stringID handles a request whose id is a string instead of the usual answer.
	stringID func(s *server, m *stdioserver.Message)
}

// toolFunc answers one tools/call. args are the exact bytes of params.arguments (nil if
// absent). It runs on the read loop; long-running tools start their own goroutine.
type toolFunc func(s *server, m *stdioserver.Message, args json.RawMessage)

// server is one fake server process.
type server struct {
	sc     *scenario
	args   []string // argv after the program name, without --scenario
	getenv func(string) string
	stdout io.Writer // raw, for scenarios that split frames
	out    *stdioserver.Writer
	stderr io.Writer

	mu        sync.Mutex
	inflight  map[string]chan struct{}             // request id → closed on notifications/cancelled
	waiters   map[string]chan *stdioserver.Message // server→client request id → reply
	nextOutID int                                  // last id of a server→client request
	dropZero  bool                                 // drop-id-0: requests with id 0 go unanswered
	lock      *os.File                             // single-copy: the lock held for the process's life
}

// write sends one frame in one write call.
func (s *server) write(frame string) {
	if err := s.out.WriteFrame([]byte(s.frameOut(frame))); err != nil {
		fmt.Fprintf(s.stderr, "fakeserver: write: %v\n", err)
	}
}

// quote returns v as a JSON string literal, without HTML escaping.
func quote(v string) string {
	b, err := stdioserver.Encode(v)
	if err != nil {
		panic(err) // a Go string always encodes
	}
	return string(bytes.TrimSuffix(b, []byte("\n")))
}

func respLine(id json.RawMessage, result string) string {
	return `{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + result + "}\n"
}

func errLine(id json.RawMessage, code int, message string) string {
	if id == nil {
		id = json.RawMessage("null")
	}
	return `{"jsonrpc":"2.0","id":` + string(id) + `,"error":{"code":` + strconv.Itoa(code) + `,"message":` + quote(message) + "}}\n"
}

func textResult(text string) string {
	return `{"content":[{"type":"text","text":` + quote(text) + `}]}`
}

func toolError(text string) string {
	return `{"content":[{"type":"text","text":` + quote(text) + `}],"isError":true}`
}

func (s *server) result(id json.RawMessage, result string) { s.write(respLine(id, result)) }

func (s *server) fail(id json.RawMessage, code int, message string) {
	s.write(errLine(id, code, message))
}

func (s *server) logf(format string, args ...any) {
	fmt.Fprintf(s.stderr, format+"\n", args...)
}

// envInt reads a non-negative integer knob from the environment; ok is false if it is unset
// or malformed (which is reported on stderr).
func (s *server) envInt(name string) (int, bool) {
	v := s.getenv(name)
	if v == "" {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		s.logf("fakeserver: ignoring %s=%q: not a non-negative integer", name, v)
		return 0, false
	}
	return n, true
}

func (s *server) handleLine(line []byte) {
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	m, err := stdioserver.Parse(line)
	if err != nil {
		if s.sc.garbage != nil {
			s.sc.garbage(s, line)
			return
		}
		s.fail(nil, stdioserver.CodeParseError, "Parse error")
		return
	}
	switch {
	case m.IsRequest():
		s.handleRequest(m)
	case m.IsNotification():
		s.handleNotification(m)
	case m.IsResponse():
		key := stdioserver.IDKey(m.ID)
		s.mu.Lock()
		ch, ok := s.waiters[key]
		delete(s.waiters, key)
		s.mu.Unlock()
		if !ok {
			s.logf("fakeserver: response to an unknown request id %s", key)
			return
		}
		ch <- m
	default:
		s.fail(m.ID, stdioserver.CodeInvalidRequest, "Invalid Request")
	}
}

func (s *server) handleNotification(m *stdioserver.Message) {
	if s.sc.notification != nil && m.Method != "notifications/initialized" {
		s.sc.notification(s, m)
	}
	switch m.Method {
	case "notifications/initialized":
		if s.sc.initialized != nil {
			s.sc.initialized(s)
		}
	case "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(m.Params, &p) != nil || p.RequestID == nil {
			return
		}
		key := stdioserver.IDKey(p.RequestID)
		s.mu.Lock()
		ch, ok := s.inflight[key]
		delete(s.inflight, key)
		s.mu.Unlock()
		if ok {
			close(ch)
		}
	}
}

// track registers a long-running request so notifications/cancelled can reach it. The
// returned channel is closed on cancel; done must be called when the request ends.
func (s *server) track(id json.RawMessage) (cancelled <-chan struct{}, done func()) {
	key := stdioserver.IDKey(id)
	ch := make(chan struct{})
	s.mu.Lock()
	s.inflight[key] = ch
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		if s.inflight[key] == ch {
			delete(s.inflight, key)
		}
		s.mu.Unlock()
	}
}

func (s *server) handleRequest(m *stdioserver.Message) {
	if s.dropZero && string(m.ID) == "0" {
		return
	}
	if s.sc.stringID != nil && len(m.ID) > 0 && m.ID[0] == '"' {
		s.sc.stringID(s, m)
		return
	}
	if h, ok := s.sc.methods[m.Method]; ok {
		h(s, m)
		return
	}
	switch m.Method {
	case "initialize":
		if s.sc.initialize != nil {
			s.sc.initialize(s, m)
			return
		}
		s.write(s.initializeLine(m))
	case "ping":
		s.result(m.ID, "{}")
	case "tools/list":
		if s.sc.listTools != nil {
			s.sc.listTools(s, m)
			return
		}
		s.result(m.ID, s.toolsJSON())
	case "tools/call":
		var p struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(m.Params, &p)
		calls := s.sc.calls
		if calls == nil {
			calls = map[string]toolFunc{"echo": callEcho}
		}
		call, ok := calls[p.Name]
		if !ok {
			s.fail(m.ID, stdioserver.CodeInvalidParams, "Unknown tool: "+p.Name)
			return
		}
		call(s, m, p.Arguments)
	default:
		if s.sc.unknown != nil {
			s.sc.unknown(s, m)
			return
		}
		s.fail(m.ID, stdioserver.CodeMethodNotFound, "Method not found")
	}
}

// requestedVersion is the protocolVersion the client asked for when it is a revision the
// fake server supports, else 2025-11-25, its latest (MCP basic/lifecycle §Version
// Negotiation; scenario check-echo-version echoes any version instead).
func requestedVersion(m *stdioserver.Message) string {
	v := askedVersion(m)
	switch v {
	case "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28":
		return v
	}
	return "2025-11-25"
}

// askedVersion is the protocolVersion the client asked for, "" when none.
func askedVersion(m *stdioserver.Message) string {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(m.Params, &p)
	return p.ProtocolVersion
}

// initializeLine is the default initialize response of cases.md.
func (s *server) initializeLine(m *stdioserver.Message) string {
	caps := s.sc.capabilities
	if caps == "" {
		caps = `{"tools":{}}`
	}
	return respLine(m.ID, `{"protocolVersion":`+quote(requestedVersion(m))+`,"capabilities":`+caps+
		`,"serverInfo":{"name":"demo-server","version":"0.0.1"}}`)
}

func (s *server) toolsJSON() string {
	if s.sc.tools != "" {
		return s.sc.tools
	}
	return `{"tools":[` + echoTool + `]}`
}

// sleep waits for d or until cancelled is closed; it reports whether d elapsed.
func sleep(d time.Duration, cancelled <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-cancelled:
		return false
	}
}
