package fake

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// framingTested are the scenarios of another framing than MCP's, covered here (the common
// behaviour of TestCommonBehaviour is newline JSON, which they do not speak).
var framingTested = []string{"lsp", "lsp-out", "pretty", "lsp-silent"}

func lspFrame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// TestLSPScenario: Content-Length framing both ways; a JSON line gets a framed -32700.
func TestLSPScenario(t *testing.T) {
	t.Parallel()
	p := scenario(t, "lsp")
	p.send(initReq)
	want := lspFrame(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: expected a Content-Length header"}}`)
	if got := p.read(len(want)); got != want {
		t.Fatalf("answer to a JSON line:\n got %q\nwant %q", got, want)
	}
	if _, err := io.WriteString(p.stdin, lspFrame(initReq)); err != nil {
		t.Fatal(err)
	}
	want = lspFrame(defaultInit)
	if got := p.read(len(want)); got != want {
		t.Fatalf("initialize:\n got %q\nwant %q", got, want)
	}
	if _, err := io.WriteString(p.stdin, lspFrame(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)); err != nil {
		t.Fatal(err)
	}
	want = lspFrame(`{"jsonrpc":"2.0","id":2,"result":{}}`)
	if got := p.read(len(want)); got != want {
		t.Fatalf("ping:\n got %q\nwant %q", got, want)
	}
	if e := p.wait(true); e.code != 0 || e.stdout != "" {
		t.Fatalf("exit %d, stdout left %q", e.code, e.stdout)
	}
}

// TestLSPSilentScenario: a JSON line is read as a header and gets nothing; a framed
// message after it is answered, framed.
func TestLSPSilentScenario(t *testing.T) {
	t.Parallel()
	p := scenario(t, "lsp-silent")
	p.send(initReq)
	select {
	case c := <-p.chunks:
		t.Fatalf("the server answered a JSON line: %q", c.b)
	case <-time.After(300 * time.Millisecond):
	}
	if _, err := io.WriteString(p.stdin, lspFrame(initReq)); err != nil {
		t.Fatal(err)
	}
	want := lspFrame(defaultInit)
	if got := p.read(len(want)); got != want {
		t.Fatalf("initialize:\n got %q\nwant %q", got, want)
	}
	if e := p.wait(true); e.code != 0 {
		t.Fatalf("exit %d", e.code)
	}
}

// TestLSPOutScenario: newline JSON in, Content-Length frames out.
func TestLSPOutScenario(t *testing.T) {
	t.Parallel()
	p := scenario(t, "lsp-out")
	p.send(initReq)
	want := lspFrame(defaultInit)
	if got := p.read(len(want)); got != want {
		t.Fatalf("initialize:\n got %q\nwant %q", got, want)
	}
	if e := p.wait(true); e.code != 0 {
		t.Fatalf("exit %d", e.code)
	}
}

// TestPrettyScenario: each message pretty-printed over several lines.
func TestPrettyScenario(t *testing.T) {
	t.Parallel()
	p := scenario(t, "pretty")
	p.send(initReq)
	for _, want := range []string{"{\n", `  "jsonrpc": "2.0",` + "\n", `  "id": 1,` + "\n", `  "result": {` + "\n"} {
		if got := p.line(); got != want {
			t.Fatalf("line %q, want %q", got, want)
		}
	}
	rest := p.wait(true).stdout
	if !strings.HasSuffix(rest, "  }\n}\n") || !strings.Contains(rest, `"name": "demo-server"`) {
		t.Fatalf("rest of the initialize answer: %q", rest)
	}
}

// read returns the next n bytes of stdout.
func (p *proc) read(n int) string {
	p.t.Helper()
	deadline := time.After(timeout)
	for len(p.buf) < n {
		select {
		case c, ok := <-p.chunks:
			if !ok {
				p.t.Fatalf("stdout closed; pending %q", p.buf)
			}
			p.buf = append(p.buf, c.b...)
		case <-deadline:
			p.t.Fatalf("timed out waiting for %d bytes; pending %q", n, p.buf)
		}
	}
	s := string(p.buf[:n])
	p.buf = p.buf[n:]
	return s
}
