package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// A remote server that goes away during bench call ends the run with what happened (it
// cannot be reached, and the connection error), not with tens of thousands of failed calls
// until --duration.
func TestBenchUnreachableServer(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	var srv *httptest.Server
	srv = testservers.FakeHTTP(t, func(w http.ResponseWriter, r *http.Request, m testservers.RPC) {
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		result := `{"content":[{"type":"text","text":"x"}]}`
		switch m.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"x","version":"1"}}`
		case "tools/call":
			if calls.Add(1) == 50 {
				go srv.Close() // the server goes away: later connections are refused
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + result + `}`))
	})
	r := inspect(t, nil, "bench", "call", "echo", "--duration", "30s", "-n", "0", "--warmup", "0", "--json", srv.URL)
	wantCode(t, r, exitNoServer)
	if !strings.Contains(r.stdout, `"stopped": "the server is unreachable: 3 calls in a row could not connect"`) {
		t.Fatalf("a server gone mid-run does not end it:\n%s\n%s", r.stdout, r.stderr)
	}
	if m := regexp.MustCompile(`"connect": (\d+)`).FindStringSubmatch(r.stdout); m == nil || len(m[1]) > 1 {
		t.Fatalf("the failed connections are not counted, or go on past the stop:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "connect") || !strings.Contains(r.stdout, `"error"`) {
		t.Fatalf("the connection error is not reported:\n%s", r.stdout)
	}
}

// A server that breaks one rule on every call is warned about a few times, then counted:
// bench call against the fake b11b, which sends each call's progress under a token no
// request carries, prints three warnings and how many more frames had the problem, not
// one line per notification.
func TestBenchRepeatedWarnings(t *testing.T) {
	t.Parallel()
	args := []string{"bench", "call", "slow", "-a", "seconds=1", "-n", "2", "--warmup", "0", "-e", fake.EnvStepMS + "=10", "-e", fake.EnvSteps + "=5"}
	r := inspect(t, nil, cmdline(args, fakeArgv(t, "b11b"))...)
	wantCode(t, r, 0)
	if n := strings.Count(r.stderr, `progress for token "fake-unknown-token"`); n != repeatWarnings {
		t.Fatalf("%d warnings about one problem, want %d and a count:\n%s", n, repeatWarnings, r.stderr)
	}
	m := regexp.MustCompile(`warning: (\d+) more server frame\(s\) with the problem above \[unknown-progress-token\]`).FindStringSubmatch(r.stderr)
	if m == nil || m[1] == "0" {
		t.Fatalf("the repeats are not counted:\n%s", r.stderr)
	}
}

// cases.md B11 for bench call: its calls carry a progress token, so a tool that reports
// progress runs past --timeout (each notification resets it), as it does with call.
func TestBenchProgressKeepsCallAlive(t *testing.T) {
	t.Parallel()
	args := []string{"bench", "call", "slow", "-a", "seconds=1", "-n", "2", "--warmup", "0", "--timeout", "400ms", "--json",
		"-e", fake.EnvStepMS + "=150", "-e", fake.EnvSteps + "=5"}
	r := inspect(t, nil, cmdline(args, fakeArgv(t, "b11"))...)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, `"errors": 0`) {
		t.Fatalf("calls of a tool reporting progress timed out:\n%s\n%s", r.stdout, r.stderr)
	}
}

// A run whose last calls time out made every call it was asked for (-n), or used all its
// time (--duration: the third call starts inside the window and times out after it):
// nothing stopped early, though the exit code and the error say calls timed out.
func TestBenchLastCallsTimeOut(t *testing.T) {
	t.Parallel()
	r := inspect(t, nil, cmdline([]string{"bench", "call", "sleep", "-a", "seconds=100", "-n", "6", "-c", "2", "--timeout", "200ms", "--warmup", "0", "--json"}, fakeArgv(t, "b12"))...)
	wantCode(t, r, exitTimeout)
	if strings.Contains(r.stdout, `"stopped"`) || !strings.Contains(r.stdout, `"calls": 6,`) || !strings.Contains(r.stdout, `"timeout": 6`) {
		t.Fatalf("all 6 calls were made, yet the run says it stopped early:\n%s\n%s", r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "no response after 200ms (timeout; --timeout changes it)") {
		t.Fatalf("the timeouts are not explained:\n%s\n%s", r.stdout, r.stderr)
	}
	r = inspect(t, nil, cmdline([]string{"bench", "call", "sleep", "-a", "seconds=100", "-n", "0", "--duration", "450ms", "--timeout", "200ms", "--warmup", "0"}, fakeArgv(t, "b12"))...)
	wantCode(t, r, exitTimeout)
	if strings.Contains(r.stdout, "stopped early") {
		t.Fatalf("the window was used up, yet the run says it stopped early:\n%s\n%s", r.stdout, r.stderr)
	}
}

// A server that exits during the last call asked for stopped the run: that is said, with
// what happened, as when calls are left.
func TestBenchServerExitsOnLastCall(t *testing.T) {
	t.Parallel()
	r := inspect(t, nil, cmdline([]string{"bench", "call", "crash", "-n", "1", "--warmup", "0", "--json"}, fakeArgv(t, "b10"))...)
	wantCode(t, r, exitNoServer)
	if !strings.Contains(r.stdout, `"stopped": "server exited"`) || !strings.Contains(r.stdout, `"error"`) {
		t.Fatalf("the server's exit on the last call is not reported:\n%s\n%s", r.stdout, r.stderr)
	}
}

// An interrupt cuts the call in flight short: the run stops, and that call is neither an
// answered call nor a failed one.
func TestBenchInterruptedCallNotCounted(t *testing.T) {
	t.Parallel()
	b, err := newBench(connectFake(t, "b12"), "sleep", json.RawMessage(`{"seconds":0.2}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel) // during the third call
	st, err := b.run(ctx, 100, 1, 0)
	if !errors.Is(err, context.Canceled) || st.Stopped != "interrupted" {
		t.Fatalf("run ended with %v, stopped %q; want the interrupt", err, st.Stopped)
	}
	if st.Errors != 0 || len(st.ErrorKinds) != 0 || st.Calls < 1 || st.Calls > 3 {
		t.Fatalf("the interrupted call is counted: %d calls, %d errors %v", st.Calls, st.Errors, st.ErrorKinds)
	}
}
