// Package fake gives tests in any package of the module the scriptable fake MCP servers of
// ./fakeserver: one binary whose behaviour is picked by scenario name, each scenario a case
// of shared/cases.md reproduced byte for byte.
//
// A test builds the binary once with Binary and spawns it like any stdio server:
//
//	bin := fake.Binary(t)
//	cmd := exec.Command(bin, "--scenario", "b01")            // or
//	cmd.Env = append(os.Environ(), fake.EnvScenario+"=b22")   // argv stays the test's own
//
// Scenarios (`fakeserver --list` prints them with a summary):
//
//	minimal        well-behaved: initialize, tools/list [echo], tools/call echo
//	b01, b01b      stray stdout lines: plain text / JSON that is not JSON-RPC
//	b02, b02b      initialize split in two writes 200 ms apart; two messages in one write;
//	               b02b writes the tools/call response one byte per write
//	b03            tools/call big {bytes:N} returns N x's; tools/list has 400 tools (~150 KB)
//	b05, b05s      tools/call snippet: raw bytes C7 D1 B1 DB / the escape abc\ud83d
//	b07, b07b      notifications/message / server.initialized before initialize
//	b09            stderr line and exit 2 without reading stdin
//	b09-exit0      exit 0, no output
//	b09-halfline   half a JSON line on stdout, then exit 1
//	b10            tools/call crash: SIGKILL self
//	b10-panic      tools/call crash: "panic: boom" on stderr, exit 1
//	b11, b11b      tools/call slow: progress + log every step; b11b uses an unknown token
//	b12, b12b      tools/call sleep: honours / ignores notifications/cancelled
//	b13            tools/call summarize sends sampling/createMessage id 1 and waits for it
//	b13-roots      … roots/list instead
//	b13-elicit     … elicitation/create instead
//	b15, b16, b16-recursive, b18, b19   schema oddities; tools/call echoes the arguments
//	b20            resource_link, embedded resource and an unknown block; resources/read
//	b22            tools/call whoami returns argv, DEMO_MODE and PATH_set
//	b23            terminal escape sequences in a description, result, log and stderr
//	hostile        every string (serverInfo, names, descriptions, results, keys, logs,
//	               stderr, errors) holds ESC/OSC, C1, bidi and invisible characters;
//	               FAKE_HOSTILE_VARIANT changes call results (for replay diffs)
//	b25            token on stderr and in tools/call leak; --fail exits 1 at startup
//	paging-stuck   every list page carries nextCursor "same" (tools, resources, templates, prompts)
//	paging-endless every list page carries a new nextCursor: the pages never end
//	paging-repeat  three pages of tools, resources and prompts; later pages repeat items
//	paging-empty-cursor  every list page carries "nextCursor": ""
//	id-zero-answer answers tools/list and tools/call with id 0
//	id-stringly    answers every request after initialize with its id as a string
//	drop-id-0      never answers a request with id 0
//	version-old, version-unknown, version-missing  initialize answers 2025-03-26,
//	               2099-01-01, or no protocolVersion; tool stats has an outputSchema
//	               and answers without structuredContent
//	tasks          modern (2026-07-28) server with the io.modelcontextprotocol/tasks extension:
//	               task_greet (working → input_required → completed inline), task_fail
//	               (failed, -32603 inline), task_slow (cancel it), echo; notifications/tasks
//	               via subscriptions/listen taskIds; FAKE_TASK_STEP_MS, FAKE_TASK_POLL_MS,
//	               FAKE_TASK_SLOW_MS tune it
//	tasks-undeclared  the same, but it answers with a task even when the request did not
//	               declare the extension (a violation)
//	slow-start     dual-era (the tasks server) silent and not reading stdin for FAKE_START_MS
//	probe-late-legacy  stderr banner; -32601 to server/discover after FAKE_DISCOVER_MS
//	probe-late-modern  stderr banner; DiscoverResult after FAKE_DISCOVER_MS (dual-era)
//	probe-silent   never answers server/discover, writes nothing unasked (legacy)
//	probe-banner-slow  stderr banner, silent FAKE_START_MS; dual-era that refuses initialize
//	               once it has answered server/discover (as the go-sdk does)
//	findings       tools with something to advise about: add (structuredContent not matching
//	               its outputSchema), nostruct, pick (union root), weather (steering text),
//	               fail (isError), pic (PNG + WAV); instructions with a hidden comment;
//	               tools/list ends in \r\n
//	poison         one tool, notes, whose markdown description hides steering text where
//	               a renderer drops it (an HTML comment, a hidden span, a link title, an
//	               unused reference definition) and asks for the user's API keys
//	linger         stays up after stdin ends, until SIGTERM
//	linger-kill    … and ignores SIGTERM: only SIGKILL ends it
//	single-copy    well-behaved, but holds a lock (FAKE_LOCK) for its life: a second copy
//	               started meanwhile exits 1 with the reason on stderr
//	lsp, lsp-out, lsp-silent, pretty   framings MCP does not allow (scenarios_framing.go);
//	               lsp-silent is the course's first server: it reads newline JSON as
//	               headers it does not know and says nothing
//	http-*         Streamable HTTP servers (httpserver.go: redirects R01…R04), served on
//	               FAKE_HTTP_ADDR (default 127.0.0.1:0); the URL to connect to is printed
package fake

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// Environment variables the fake server reads.
const (
	// EnvScenario selects the scenario when there is no --scenario flag.
	EnvScenario = "FAKE_SCENARIO"
	// EnvStepMS is b11's time between progress steps in milliseconds (default 5000).
	EnvStepMS = "FAKE_STEP_MS"
	// EnvSteps is b11's number of steps (default: the seconds argument / 5, so 18).
	EnvSteps = "FAKE_STEPS"
	// EnvSleepMS is how long b12's sleep tool sleeps in milliseconds (default 30000).
	EnvSleepMS = "FAKE_SLEEP_MS"
	// EnvWaitMS is how long b13 waits for the client's reply in milliseconds (default 30000).
	EnvWaitMS = "FAKE_WAIT_MS"
	// EnvStartMS is how long slow-start and probe-banner-slow stay silent before reading
	// stdin (default 4000).
	EnvStartMS = "FAKE_START_MS"
	// EnvDiscoverMS is how long probe-late-* wait before answering server/discover
	// (default 3300).
	EnvDiscoverMS = "FAKE_DISCOVER_MS"
	// EnvLock is single-copy's lock file (default: one per parent process in the temp
	// directory, so the copies one mcp-inspect starts share it).
	EnvLock = "FAKE_LOCK"
	// EnvBinary names a fake server already built for this system, which Binary then
	// returns instead of building one: test binaries compiled for Windows and run where
	// there is no go command (scripts/windows-smoke.sh, under wine) use it.
	EnvBinary = "MCP_INSPECT_FAKESERVER"
)

// ExitUsage is the fake server's exit code for an unknown scenario or a bad flag.
const ExitUsage = 64

const pkg = "github.com/mcp-inspect/mcp-inspect/internal/fake/fakeserver"

// build is the one Binary build per test process.
var build struct {
	once sync.Once
	path string
	err  error
}

// Binary builds the fake server once per test process (go build into a temp dir, sync.Once)
// and returns its path; it calls t.Fatal on failure. The temporary directory is not removed:
// the binary is shared by every test of the process, and no hook runs after the last one.
// Binary needs the go command (on PATH, or in runtime.GOROOT()/bin) and a working directory
// inside this module, which `go test` provides, unless $MCP_INSPECT_FAKESERVER (EnvBinary)
// names a fake server built already.
func Binary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(EnvBinary); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("fake.Binary: $%s: %v", EnvBinary, err)
		}
		return p
	}
	build.once.Do(func() {
		dir, err := os.MkdirTemp("", "mcp-inspect-fakeserver-")
		if err != nil {
			build.err = err
			return
		}
		path := filepath.Join(dir, "fakeserver")
		if runtime.GOOS == "windows" {
			path += ".exe"
		}
		noteSources()
		cmd := exec.Command(goTool(), "build", "-o", path, pkg)
		if out, err := cmd.CombinedOutput(); err != nil {
			build.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
			return
		}
		build.path = path
	})
	if build.err != nil {
		t.Fatalf("fake.Binary: %v", build.err)
	}
	return build.path
}

// BinaryAt copies the fake server to path (creating its directories, mode 0755) and returns
// path. Use it for B22, whose server lives in a directory with spaces in its name.
func BinaryAt(t testing.TB, path string) string {
	t.Helper()
	src := Binary(t)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatalf("fake.BinaryAt: %v", err)
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatalf("fake.BinaryAt: %v", err)
	}
	defer in.Close()
	out, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatalf("fake.BinaryAt: %v", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		t.Fatalf("fake.BinaryAt: %v", err)
	}
	if err := out.Close(); err != nil {
		t.Fatalf("fake.BinaryAt: %v", err)
	}
	return path
}

// noteSources stats the fake server's source files. The go command's test cache records the
// files a test looks at, so this is what makes an edit of ./fakeserver (which the tests use
// only as a built binary, never as an import) invalidate cached test results in every
// package that calls Binary.
func noteSources() {
	_, self, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(self) {
		return // built with -trimpath: nothing to note
	}
	here := filepath.Dir(self)
	for _, dir := range []string{filepath.Join(here, "fakeserver"), filepath.Join(here, "..", "stdioserver")} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if filepath.Ext(e.Name()) == ".go" {
				_, _ = os.Stat(filepath.Join(dir, e.Name()))
			}
		}
	}
}

func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}
