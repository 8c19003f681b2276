package trace_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// The test binary doubles as two helper processes, chosen by RECORDER_TEST_HELPER:
//
//	proxy     runs the argv in RECORDER_PROXY_ARGV (separated by \x1f) and relays stdio, replacing
//	          RECORDER_PROXY_FROM with RECORDER_PROXY_TO in what the server writes: a server
//	          that "changes one field".
//	recorder  records a session against the fake b11 server (progress every few ms) to the
//	          file in RECORDER_TRACE, printing "seq N" on stdout after each event's Write
//	          returned; the crash test kills it with SIGKILL.
//	mock      serves the trace in RECORDER_TRACE with trace.Mock on stdio (the binary's
//	          `mcp-inspect mock` is tested end to end in cmd).
//	session   records a session into the sessions directory RECORDER_SESSIONS and prunes it,
//	          as a second mcp-inspect process does (sessionMain).
func TestMain(m *testing.M) {
	switch os.Getenv("RECORDER_TEST_HELPER") {
	case "proxy":
		os.Exit(proxyMain())
	case "recorder":
		os.Exit(recorderMain())
	case "mock":
		os.Exit(mockMain())
	case "session":
		os.Exit(sessionMain())
	}
	os.Exit(m.Run())
}

func mockMain() int {
	tr, err := trace.Open(os.Getenv("RECORDER_TRACE"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 70
	}
	m, err := trace.NewMock(tr)
	if err != nil {
		return 70
	}
	err = m.Serve(context.Background(), os.Stdin, os.Stdout)
	if ex, ok := err.(*trace.MockExit); ok {
		return ex.Code & 0xff
	}
	if err != nil {
		return 1
	}
	return 0
}

// helperConfig runs the test binary as a helper process.
func helperConfig(mode string, env ...string) mcpclient.Config {
	return mcpclient.Config{Command: os.Args[0], Args: []string{"-test.run=^$"}, Env: append([]string{"RECORDER_TEST_HELPER=" + mode}, env...)}
}

// proxyConfig is a server that runs argv but rewrites from into to in everything it writes.
func proxyConfig(argv []string, from, to string) mcpclient.Config {
	return helperConfig("proxy", "RECORDER_PROXY_ARGV="+strings.Join(argv, "\x1f"), "RECORDER_PROXY_FROM="+from, "RECORDER_PROXY_TO="+to)
}

func proxyMain() int {
	argv := strings.Split(os.Getenv("RECORDER_PROXY_ARGV"), "\x1f")
	from, to := []byte(os.Getenv("RECORDER_PROXY_FROM")), []byte(os.Getenv("RECORDER_PROXY_TO"))
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = os.Stdin
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 70
	}
	if err := cmd.Start(); err != nil {
		return 70
	}
	r := bufio.NewReaderSize(out, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			os.Stdout.Write(bytes.ReplaceAll(line, from, to))
		}
		if err != nil {
			break
		}
	}
	if err := cmd.Wait(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		return 70
	}
	return 0
}

func recorderMain() int {
	w, err := trace.Create(os.Getenv("RECORDER_TRACE"), trace.Header{Tool: "recorder-helper"}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 70
	}
	var mu sync.Mutex
	cfg := mcpclient.Config{
		Command: os.Getenv("RECORDER_FAKE"),
		Env:     []string{fake.EnvScenario + "=b11", fake.EnvStepMS + "=5", fake.EnvSteps + "=100000"},
		OnEvent: func(ev mcpclient.Event) {
			if err := w.Write(ev); err != nil {
				os.Exit(71)
			}
			mu.Lock()
			fmt.Printf("seq %d\n", ev.Seq)
			mu.Unlock()
		},
	}
	c, err := mcpclient.Start(cfg)
	if err != nil {
		return 70
	}
	ctx := context.Background()
	if _, err := c.Initialize(ctx); err != nil {
		return 70
	}
	_, _, _ = c.CallTool(ctx, "slow", []byte(`{"seconds":900}`))
	return 0
}

// session is a recorded live session: the trace file and the events as the client emitted
// them.
type session struct {
	path string
	live []mcpclient.Event
}

// record runs drive against the server of cfg with a Writer on OnEvent, closes the client,
// and returns the trace with the live events. red may be nil.
func record(t *testing.T, cfg mcpclient.Config, red *trace.Redactor, drive func(ctx context.Context, c *mcpclient.Client)) *session {
	t.Helper()
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	w, err := trace.Create(path, trace.Header{Tool: "mcp-inspect-test", Argv: append([]string{cfg.Command}, cfg.Args...), Env: cfg.Env}, red)
	if err != nil {
		t.Fatal(err)
	}
	s := &session{path: path}
	var mu sync.Mutex
	cfg.OnEvent = func(ev mcpclient.Event) {
		w.Observe(ev)
		mu.Lock()
		s.live = append(s.live, ev)
		mu.Unlock()
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.ShutdownGrace == 0 {
		cfg.ShutdownGrace = 500 * time.Millisecond
	}
	c, err := mcpclient.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for range c.Events() {
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	drive(ctx, c)
	c.Close()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return s
}

// fakeConfig runs the fake server with a scenario.
func fakeConfig(t testing.TB, scenario string, env ...string) mcpclient.Config {
	return mcpclient.Config{Command: fake.Binary(t), Env: append([]string{fake.EnvScenario + "=" + scenario}, env...)}
}

// openTrace opens a trace and closes it with the test.
func openTrace(t testing.TB, path string) *trace.Trace {
	t.Helper()
	tr, err := trace.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

// loadEvents reads every event of a trace, failing on unreadable lines.
func loadEvents(t testing.TB, tr *trace.Trace) []mcpclient.Event {
	t.Helper()
	var evs []mcpclient.Event
	for ev, err := range tr.Events() {
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	return evs
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// lines splits text into lines without the newline.
func lines(b []byte) []string {
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}
