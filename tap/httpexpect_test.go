package tap

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestHTTPTapExpectContinue sends requests with Expect: 100-continue through the tap to a
// net/http server (which answers 100 Continue once its handler reads the body): the host
// gets the server's 100 before it sends the body, then the answer, for a sized and a
// chunked body, and the connection goes on carrying requests. The trace has each request
// with its body before the 100 and the answer.
func TestHTTPTapExpectContinue(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/deny" { // a final answer without reading the body: no 100
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"result":{"got":%d}}`, len(b))
	}))
	defer upstream.Close()
	addr, trace, stop := runTap(t, upstream.URL+"/mcp")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// A guard against a hang, not a speed check: without the 100 the host waits forever.
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	br := bufio.NewReader(c)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big"}}`
	exchange := func(head, sendBody, wantGot string, wait100 bool) {
		t.Helper()
		if _, err := io.WriteString(c, head); err != nil {
			t.Fatal(err)
		}
		if wait100 {
			line, err := br.ReadString('\n')
			blank, _ := br.ReadString('\n')
			if err != nil || line != "HTTP/1.1 100 Continue\r\n" || blank != "\r\n" {
				t.Fatalf("waiting for 100 Continue before the body: %q %q %v", line, blank, err)
			}
		}
		if _, err := io.WriteString(c, sendBody); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(got), `"got":`+wantGot) {
			t.Fatalf("answer %s %s, want got %s", resp.Status, got, wantGot)
		}
	}
	sized := "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: " + itoa(len(body)) + "\r\n\r\n"
	exchange(sized, body, itoa(len(body)), true)
	chunked := "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nexpect: 100-Continue\r\n\r\n"
	exchange(chunked, fmt.Sprintf("%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n", 10, body[:10], len(body)-10, body[10:]), itoa(len(body)), true)
	plain := "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n"
	exchange(plain, "{}", "2", false)
	// Refused before the body: the host gets the final answer without a 100 and need not
	// send the body.
	d, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	_ = d.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.WriteString(d, strings.Replace(sized, "/mcp", "/deny", 1)); err != nil {
		t.Fatal(err)
	}
	if resp, err := http.ReadResponse(bufio.NewReader(d), nil); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("refused request: %v %v", resp, err)
	}
	c.Close()
	stop()
	tr := strings.ReplaceAll(trace.String(), `\u003e`, ">")
	msg := strings.ReplaceAll(body, `"`, `\"`)
	for i := 0; i < 2; i++ {
		req := strings.Index(tr, `"dir":"c2s","raw":"`+msg)
		cont := strings.Index(tr, `HTTP/1.1 100 Continue`)
		if req < 0 || cont < 0 || req > cont {
			t.Fatalf("request %d: the trace lacks the request (%d) before the 100 (%d):\n%s", i+1, req, cont, tr)
		}
		tr = tr[cont+len(`HTTP/1.1 100 Continue`):]
	}
}
