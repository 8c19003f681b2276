package tap

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestInjectHTTPPrefilter: with rules that can match only what the host sends, a response
// streams through as without rules: an event stream whose frame spans two chunks reaches
// the host in the upstream's chunks, and the trace's messages and HTTP events are those of
// a tap without rules; a request a rule matches is still acted on.
func TestInjectHTTPPrefilter(t *testing.T) {
	answer := "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n" +
		"b\r\nevent: mess\r\n" + "3c\r\nage\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[]}}\n\n\r\n" + "0\r\n\r\n"
	upLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer upLn.Close()
	go func() {
		for {
			c, err := upLn.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					h, err := readHead(br)
					if err != nil {
						return
					}
					if _, err := io.CopyN(io.Discard, br, max(h.contentLength, 0)); err != nil {
						return
					}
					_, _ = c.Write([]byte(answer))
				}
			}()
		}
	}()
	u, _ := url.Parse("http://" + upLn.Addr().String() + "/mcp")
	// run serves the bodies through a tap with rules and returns what the host got and the
	// trace's events.
	run := func(rules []string, bodies ...string) ([]string, []mcpclient.Event) {
		rs := mustRules(t, rules...)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "t.jsonl")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			_, _ = RunHTTP(ctx, HTTPOptions{Listener: ln, Upstream: u, Trace: f, Stderr: io.Discard, SocketDir: "-", Header: trace.Header{Tool: "test"}, Inject: rs})
			close(done)
		}()
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(c)
		var got []string
		for _, body := range bodies {
			req := "POST /mcp HTTP/1.1\r\nHost: " + ln.Addr().String() + "\r\nContent-Type: application/json\r\nContent-Length: " + itoa(len(body)) + "\r\n\r\n" + body
			if _, err := c.Write([]byte(req)); err != nil {
				t.Fatal(err)
			}
			_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
			h, err := readHead(br)
			if err != nil {
				t.Fatal(err)
			}
			rest := make([]byte, max(h.contentLength, 0))
			if h.chunked {
				rest, _, err = readChunked(br, nil)
			} else {
				_, err = io.ReadFull(br, rest)
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, string(h.raw)+string(rest))
		}
		c.Close()
		cancel()
		<-done
		f.Close()
		_, evs := readTrace(t, path)
		return got, evs
	}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`
	plainGot, plainEvs := run(nil, call)
	got, evs := run([]string{"dir:out method:ping => error -32000 no", "dir:out tool:delete_* => drop"}, call, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if plainGot[0] != answer || got[0] != answer {
		t.Errorf("the host got\n%q\nwithout rules and\n%q\nwith them, want the upstream's bytes\n%q", plainGot[0], got[0], answer)
	}
	errBody := `{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"no"}}`
	if want := "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + itoa(len(errBody)) + "\r\n\r\n" + errBody; got[1] != want {
		t.Errorf("ping answered %q, want the rule's error", got[1])
	}
	// The first exchange's events, lifecycle notes aside, are the same with and without rules.
	wire := func(evs []mcpclient.Event) []string {
		var out []string
		for _, ev := range evs {
			if ev.Dir != mcpclient.Lifecycle && !bytes.Contains(ev.Raw, []byte("ping")) && !bytes.Contains(ev.Raw, []byte(`"message":"no"`)) {
				out = append(out, ev.Dir.String()+" "+ev.Kind.String()+" "+string(ev.Raw))
			}
		}
		return out
	}
	pw, w := wire(plainEvs), wire(evs)
	if len(pw) < 4 || len(pw) != len(w) {
		t.Fatalf("events without rules:\n%q\nwith them:\n%q", pw, w)
	}
	for i := range pw {
		if pw[i] != w[i] {
			t.Errorf("event %d: %q without rules, %q with them", i, pw[i], w[i])
		}
	}
}
