package trace_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// recordLSP records a --framing content-length session with the Content-Length fake server.
func recordLSP(t *testing.T) (string, []mcpclient.Event) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lsp.jsonl")
	w, err := trace.Create(path, trace.Header{Tool: "mcp-inspect-test", Framing: trace.FramingContentLength}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := fakeConfig(t, "lsp")
	cfg.Framing = mcpclient.FramingContentLength
	cfg.ShutdownGrace = 500 * time.Millisecond
	var mu sync.Mutex
	var live []mcpclient.Event
	cfg.OnEvent = func(ev mcpclient.Event) {
		w.Observe(ev)
		mu.Lock()
		live = append(live, ev)
		mu.Unlock()
	}
	c, err := mcpclient.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for range c.Events() {
		}
	}()
	ctx := context.Background()
	if _, err := c.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.CallTool(ctx, "echo", json.RawMessage(`{"text":"framed"}`)); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return path, live
}

// TestContentLengthTraceRoundTrip: a Content-Length session's trace keeps its framing in
// the header and its frames whole (headers included), and reads back with the live
// session's kinds and problems: messages, not partial lines; lsp-framing a Warning once.
func TestContentLengthTraceRoundTrip(t *testing.T) {
	t.Parallel()
	path, live := recordLSP(t)
	tr := openTrace(t, path)
	if tr.Header.Framing != trace.FramingContentLength {
		t.Fatalf("header framing %q", tr.Header.Framing)
	}
	bySeq := map[uint64]mcpclient.Event{}
	for _, ev := range live {
		bySeq[ev.Seq] = ev
	}
	frames, warnings := 0, 0
	for _, ev := range loadEvents(t, tr) {
		if ev.Dir != mcpclient.ServerToClient && ev.Dir != mcpclient.ClientToServer {
			continue
		}
		frames++
		lv := bySeq[ev.Seq]
		if string(ev.Raw) != string(lv.Raw) || !strings.HasPrefix(string(ev.Raw), "Content-Length: ") {
			t.Errorf("#%d raw %q, live %q", ev.Seq, ev.Raw, lv.Raw)
		}
		if !ev.Kind.IsMessage() || ev.Kind != lv.Kind || ev.Pair != lv.Pair {
			t.Errorf("#%d read back as %v pair %d, live %v pair %d", ev.Seq, ev.Kind, ev.Pair, lv.Kind, lv.Pair)
		}
		if ev.Dir == mcpclient.ServerToClient && fmt.Sprint(ev.Problems) != fmt.Sprint(lv.Problems) {
			t.Errorf("#%d problems %+v, live %+v", ev.Seq, ev.Problems, lv.Problems)
		}
		for _, p := range ev.Problems {
			if p.Code == mcpclient.CodePartial {
				t.Errorf("#%d read back as partial", ev.Seq)
			}
			if p.Severity == mcpclient.Warning {
				warnings++
			}
		}
	}
	if frames != 5 || warnings != 1 {
		t.Fatalf("%d frames, %d warnings; want 5 (initialize, its answer, initialized, call, its answer) and 1", frames, warnings)
	}
}

// TestMockContentLength: the mock of a Content-Length trace answers in Content-Length
// framing, whichever framing the request came in.
func TestMockContentLength(t *testing.T) {
	t.Parallel()
	path, _ := recordLSP(t)
	m, err := trace.NewMock(openTrace(t, path))
	if err != nil {
		t.Fatal(err)
	}
	if !m.ContentLength {
		t.Fatal("the mock of a Content-Length trace does not speak it")
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		_ = m.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	out := bufio.NewReader(outR)
	frame := func(body string) string { return "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body }
	for _, in := range []string{
		frame(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo","arguments":{"text":"framed"}}}`),
		`{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"echo","arguments":{"text":"framed"}}}` + "\n",
	} {
		if _, err := io.WriteString(inW, in); err != nil {
			t.Fatal(err)
		}
		got := readLSPFrame(t, out)
		var msg struct {
			ID     string `json:"id"`
			Result struct {
				Content []struct{ Text string } `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(got), &msg); err != nil || len(msg.Result.Content) != 1 || msg.Result.Content[0].Text != "framed" || !strings.Contains(in, `"id":"`+msg.ID+`"`) {
			t.Errorf("answer to %q: %s (%v)", in, got, err)
		}
	}
}

// readLSPFrame reads one Content-Length frame and returns its body.
func readLSPFrame(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	type res struct {
		body string
		err  error
	}
	ch := make(chan res, 1)
	go func() {
		line, err := r.ReadString('\n')
		if err != nil {
			ch <- res{err: err}
			return
		}
		n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "Content-Length:")))
		if err != nil {
			ch <- res{err: fmt.Errorf("header %q: %v", line, err)}
			return
		}
		if blank, err := r.ReadString('\n'); err != nil || blank != "\r\n" {
			ch <- res{err: fmt.Errorf("no blank line after the header: %q %v", blank, err)}
			return
		}
		b := make([]byte, n)
		_, err = io.ReadFull(r, b)
		ch <- res{string(b), err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.body
	case <-time.After(10 * time.Second):
		t.Fatal("the mock said nothing")
	}
	return ""
}
