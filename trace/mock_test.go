package trace_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// mockConn is a client talking to an in-process Mock over pipes.
type mockConn struct {
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func serveMock(t *testing.T, path string) *mockConn {
	t.Helper()
	m, err := trace.NewMock(openTrace(t, path))
	if err != nil {
		t.Fatal(err)
	}
	m.Wait = 2 * time.Second
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &mockConn{in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		err := m.Serve(context.Background(), inR, outW)
		outW.Close()
		c.done <- err
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return c
}

func (c *mockConn) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// next reads one line, failing after a timeout.
func (c *mockConn) next(t *testing.T) map[string]any {
	t.Helper()
	type res struct {
		line string
		err  error
	}
	ch := make(chan res, 1)
	go func() {
		l, err := c.out.ReadString('\n')
		ch <- res{l, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("reading the mock: %v", r.err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(r.line), &m); err != nil {
			t.Fatalf("mock wrote %q: %v", r.line, err)
		}
		return m
	case <-time.After(5 * time.Second):
		t.Fatal("the mock said nothing")
	}
	return nil
}

func TestMockMatching(t *testing.T) {
	t.Parallel()
	s := record(t, fakeConfig(t, "b11", fake.EnvStepMS+"=5", fake.EnvSteps+"=3"), nil, func(ctx context.Context, c *mcpclient.Client) {
		c.Initialize(ctx)
		c.ListTools(ctx)
		c.CallTool(ctx, "slow", json.RawMessage(`{"seconds":15}`))
		c.CallTool(ctx, "echo", json.RawMessage(`{"text":"first"}`))
		c.CallTool(ctx, "echo", json.RawMessage(`{"text":"hi"}`))
	})
	c := serveMock(t, s.path)
	// Any client's initialize is answered, with its own id (a string here).
	c.send(t, `{"jsonrpc":"2.0","id":"init-1","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{"roots":{}},"clientInfo":{"name":"other","version":"9"}}}`)
	if r := c.next(t); r["id"] != "init-1" || r["result"].(map[string]any)["serverInfo"] == nil {
		t.Fatalf("initialize: %v", r)
	}
	// No reply to notifications: the next line answers the ping.
	c.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(t, `{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if r := c.next(t); r["id"] != float64(7) {
		t.Fatalf("ping: %v", r)
	}
	// _meta and member order do not matter; the caller's progress token is used.
	c.send(t, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"_meta":{"progressToken":"tok"},"arguments":{"seconds":15},"name":"slow"}}`)
	var progress int
	for {
		r := c.next(t)
		if r["method"] == "notifications/progress" {
			if r["params"].(map[string]any)["progressToken"] != "tok" {
				t.Errorf("progress not rewritten to the caller's token: %v", r)
			}
			progress++
			continue
		}
		if r["method"] != nil {
			continue // log messages sent during the call
		}
		if r["id"] != float64(8) || r["result"] == nil {
			t.Fatalf("slow: %v", r)
		}
		break
	}
	if progress != 3 {
		t.Errorf("%d progress notifications, want 3", progress)
	}
	// A call without a token gets no progress.
	c.send(t, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"slow","arguments":{"seconds":15}}}`)
	for {
		r := c.next(t)
		if r["method"] == "notifications/progress" {
			t.Fatal("progress sent to a caller that did not ask for it")
		}
		if r["id"] == float64(9) {
			break
		}
	}
	c.send(t, `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`)
	// b11 has no echo tool: the recorded answer is an error, replayed as such.
	r := c.next(t)
	if e, _ := r["error"].(map[string]any); r["id"] != float64(10) || e == nil || !strings.Contains(e["message"].(string), "echo") {
		t.Errorf("echo hi answered with %v", r)
	}
	// Unmatched: the error names the closest recorded request.
	c.send(t, `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hj"}}}`)
	r = c.next(t)
	e, _ := r["error"].(map[string]any)
	msg, _ := e["message"].(string)
	if r["id"] != float64(11) || e["code"] != float64(-32602) || !strings.Contains(msg, `closest recorded request: tools/call {"arguments":{"text":"hi"},"name":"echo"}`) {
		t.Errorf("unmatched call: %v", r)
	}
	c.send(t, `{"jsonrpc":"2.0","id":12,"method":"resources/list"}`)
	r = c.next(t)
	e, _ = r["error"].(map[string]any)
	if e["code"] != float64(-32601) || !strings.Contains(e["message"].(string), "recorded methods: initialize, tools/call, tools/list") {
		t.Errorf("unknown method: %v", r)
	}
	c.send(t, `this is not json`)
	if r := c.next(t); r["error"].(map[string]any)["code"] != float64(-32700) || r["id"] != nil {
		t.Errorf("bad line: %v", r)
	}
	c.in.Close()
	if err := <-c.done; err != nil {
		t.Errorf("Serve after EOF: %v", err)
	}
}

// TestMockServerRequestsAndDeath: the mock asks what the recorded server asked (B13) and dies
// the way the recorded server died (B10).
func TestMockServerRequestsAndDeath(t *testing.T) {
	t.Parallel()
	s := record(t, fakeConfig(t, "b13", fake.EnvWaitMS+"=5000"), nil, func(ctx context.Context, c *mcpclient.Client) {
		c.Initialize(ctx)
		c.CallTool(ctx, "summarize", json.RawMessage(`{}`))
	})
	c := serveMock(t, s.path)
	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	c.next(t)
	c.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"summarize","arguments":{}}}`)
	ask := c.next(t)
	if ask["method"] != "sampling/createMessage" || !strings.HasPrefix(ask["id"].(string), "mock-") {
		t.Fatalf("expected the recorded sampling request: %v", ask)
	}
	c.send(t, `{"jsonrpc":"2.0","id":"`+ask["id"].(string)+`","result":{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}}`)
	if r := c.next(t); r["id"] != float64(2) {
		t.Fatalf("summarize: %v", r)
	}

	s = record(t, fakeConfig(t, "b10"), nil, func(ctx context.Context, c *mcpclient.Client) {
		c.Initialize(ctx)
		c.CallTool(ctx, "crash", json.RawMessage(`{}`))
	})
	c = serveMock(t, s.path)
	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	c.next(t)
	c.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"crash","arguments":{}}}`)
	select {
	case err := <-c.done:
		var ex *trace.MockExit
		// The recorded death: SIGKILL on Unix; exit code 1 on Windows (TerminateProcess).
		died := errors.As(err, &ex) && ex.Signal == "KILL"
		if runtime.GOOS == "windows" {
			died = errors.As(err, &ex) && ex.Signal == "" && ex.Code == 1
		}
		if !died {
			t.Errorf("Serve: %v, want a MockExit as the recorded server died", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the mock did not die with the recorded server")
	}
}

// TestReplayFakeCases: a crash is reproduced (B10: same), a cancelled request is skipped
// (B12), server requests get the recorded answers (B13), and a server that stops answering
// is a difference.
func TestReplayFakeCases(t *testing.T) {
	t.Parallel()
	t.Run("b10-crash-reproduced", func(t *testing.T) {
		t.Parallel()
		s := record(t, fakeConfig(t, "b10"), nil, func(ctx context.Context, c *mcpclient.Client) {
			c.Initialize(ctx)
			c.CallTool(ctx, "crash", json.RawMessage(`{}`))
		})
		rep := replay(t, openTrace(t, s.path), fakeConfig(t, "b10"))
		if !rep.OK() || !strings.Contains(reportText(rep), "server was killed by signal KILL") {
			t.Errorf("B10 replay:\n%s", reportText(rep))
		}
		// Against a server that does not crash, the crash is missing.
		rep = replay(t, openTrace(t, s.path), fakeConfig(t, "b15"))
		if rep.OK() {
			t.Errorf("a server that does not crash replayed as the same:\n%s", reportText(rep))
		}
	})
	t.Run("b12-cancel-skipped", func(t *testing.T) {
		t.Parallel()
		s := record(t, fakeConfig(t, "b12", fake.EnvSleepMS+"=2000"), nil, func(ctx context.Context, c *mcpclient.Client) {
			c.Initialize(ctx)
			cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
			c.CallTool(cctx, "sleep", json.RawMessage(`{"seconds":2}`))
			cancel()
			c.CallTool(ctx, "echo", json.RawMessage(`{"text":"after"}`))
		})
		rep := replay(t, openTrace(t, s.path), fakeConfig(t, "b12", fake.EnvSleepMS+"=2000"))
		if !rep.OK() || rep.Skipped != 1 {
			t.Errorf("B12 replay: %d skipped\n%s", rep.Skipped, reportText(rep))
		}
	})
	t.Run("b13-recorded-answers", func(t *testing.T) {
		t.Parallel()
		cfg := fakeConfig(t, "b13", fake.EnvWaitMS+"=5000")
		cfg.Capabilities = json.RawMessage(`{"sampling":{}}`)
		cfg.OnServerRequest = answerSampling
		s := record(t, cfg, nil, func(ctx context.Context, c *mcpclient.Client) {
			c.Initialize(ctx)
			c.CallTool(ctx, "summarize", json.RawMessage(`{}`))
		})
		rep := replay(t, openTrace(t, s.path), fakeConfig(t, "b13", fake.EnvWaitMS+"=5000"))
		if !rep.OK() {
			t.Errorf("B13 replay:\n%s", reportText(rep))
		}
		// The answer in the replay is the recorded one, read back from the server's result.
		if !strings.Contains(string(readFile(t, s.path)), "hi from the test client") {
			t.Error("the recorded answer is not in the trace")
		}
		// A server that asks something else: the recorded request is missing, the new one
		// unanswerable.
		rep = replay(t, openTrace(t, s.path), fakeConfig(t, "b13-roots", fake.EnvWaitMS+"=500"))
		if rep.OK() {
			t.Errorf("b13-roots replayed as the same:\n%s", reportText(rep))
		}
	})
}
