package cmd

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

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
// bench call against the go-sdk server's test_tool_with_progress, which sends progress for
// a null token when the request carries none (bench's do not), prints three warnings and
// how many more frames had the problem, not one line per notification.
func TestBenchRepeatedWarnings(t *testing.T) {
	t.Parallel()
	r := inspect(t, nil, cmdline([]string{"bench", "call", "test_tool_with_progress", "-n", "5", "--warmup", "0"}, testservers.GoEverything(t))...)
	wantCode(t, r, 0)
	if n := strings.Count(r.stderr, "progress for token null"); n != repeatWarnings {
		t.Fatalf("%d warnings about one problem, want %d and a count:\n%s", n, repeatWarnings, r.stderr)
	}
	m := regexp.MustCompile(`warning: (\d+) more server frame\(s\) with the problem above \[unknown-progress-token\]`).FindStringSubmatch(r.stderr)
	if m == nil || m[1] == "0" {
		t.Fatalf("the repeats are not counted:\n%s", r.stderr)
	}
}
