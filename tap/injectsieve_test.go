package tap

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestSieveNamesResponse: a request no rule can match goes by unparsed (the sieve), yet a
// note on its response still names it.
func TestSieveNamesResponse(t *testing.T) {
	h := injectTap(t, "dir:in kind:error => drop")
	errResp := `{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"x"}}` + "\n"
	h.write([]byte(listReq + errResp + pingReq))
	got := h.waitHost(len(listReq)+len(pingReq), 10*time.Second)
	h.finish()
	if string(got) != listReq+pingReq {
		t.Fatalf("host got %q, want the echoed tools/list and ping, the error dropped", got)
	}
	_, evs := readTrace(t, h.trace)
	if n := notes(evs); len(n) != 1 || !strings.Contains(n[0], "dropped error response id 2 (tools/list) from the server") {
		t.Errorf("notes = %q, want the error named by its tools/list request", n)
	}
}

// TestSieveKeepsRequestForResponse: a request a rule's tool: term reads is remembered, so
// its response matches by the request's tool, while frames no rule can match pass unread.
func TestSieveKeepsRequestForResponse(t *testing.T) {
	h := injectTap(t, "dir:in tool:echo kind:response => drop")
	result := `{"jsonrpc":"2.0","id":7,"result":{"content":[]}}` + "\n"
	other := `{"jsonrpc":"2.0","id":2,"result":{"content":[]}}` + "\n"
	h.write([]byte(listReq + callReq + result + other))
	want := listReq + callReq + other
	got := h.waitHost(len(want), 10*time.Second)
	h.finish()
	if string(got) != want {
		t.Fatalf("host got %q, want %q (the response to tools/call echo dropped)", got, want)
	}
	_, evs := readTrace(t, h.trace)
	if n := notes(evs); len(n) != 1 || !strings.Contains(n[0], "dropped response id 7 (tools/call echo) from the server") {
		t.Errorf("notes = %q", n)
	}
	if c2s := string(stream(evs, mcpclient.ClientToServer)); c2s != listReq+callReq+result+other {
		t.Errorf("trace c2s = %q", c2s)
	}
}

// TestRecallWaitsForKeep: a response described while the other side has forwarded its
// request but not yet kept it (busy) is named once it is kept.
func TestRecallWaitsForKeep(t *testing.T) {
	var r recentFrames
	r.busy.Store(true)
	go func() {
		time.Sleep(5 * time.Millisecond)
		r.keep([]byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo"}}`))
		r.busy.Store(false)
	}()
	method, tool, ok := r.recall("4")
	if !ok || method != "tools/call" || tool != "echo" {
		t.Fatalf("recall = %q %q %v, want tools/call echo", method, tool, ok)
	}
	if _, _, ok := r.recall("5"); ok {
		t.Error("recall found an id never kept")
	}
}

// TestSieveIDReuse: a host that reuses a pending request's id (the spec forbids it) has the
// later request remembered in its place, as when every request was parsed: the answer is
// matched with the tools/call, not the tools/list.
func TestSieveIDReuse(t *testing.T) {
	in := newInjector(mustRules(t, "dir:in kind:response method:tools/list => drop"), time.Now(), false, nil)
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"x"}}`,
	} {
		if _, ok := in.match(mcpclient.ClientToServer, []byte(msg), []byte("\n")); ok {
			t.Fatalf("a rule matched the host's %s", msg)
		}
	}
	if out, ok := in.match(mcpclient.ServerToClient, []byte(`{"jsonrpc":"2.0","id":5,"result":{}}`), []byte("\n")); ok {
		t.Errorf("the answer was matched as one to tools/list: %s", out.note)
	}
}

// TestEscapedSlashMethod: a method written with JSON's \/ escape is the method (strconv,
// which read escaped methods before, rejects \/).
func TestEscapedSlashMethod(t *testing.T) {
	h := injectTap(t, "method:tools/call => drop")
	h.write([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools\/call","params":{"name":"x"}}` + "\n" + pingReq))
	got := h.waitHost(len(pingReq), 10*time.Second)
	h.finish()
	if string(got) != pingReq {
		t.Fatalf("host got %q, want only the ping (the tools/call dropped both ways)", got)
	}
}

// TestRecentFramesHoldBuffer: a request kept where the recorder's copy of its read is
// (keepRef) holds that buffer: the pool does not hand it out again, so what the forward
// loop reads next cannot overwrite it, until the slot is reused.
func TestRecentFramesHoldBuffer(t *testing.T) {
	pool := newChunkPool()
	var r recentFrames
	buf := pool.get()
	req := `{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"echo"}}`
	r.keepRef(buf.b[:copy(buf.b, req)], buf)
	buf.release() // the forward loop and the recorder are done with it
	next := pool.get()
	if next == buf {
		t.Fatal("the pool handed out a buffer a kept request refers to")
	}
	copy(next.b, strings.Repeat("x", len(req)))
	if m, tool, ok := r.recall("41"); !ok || m != "tools/call" || tool != "echo" {
		t.Fatalf("recall(41) = %q %q %v, want tools/call echo", m, tool, ok)
	}
	for i := range recentSlots {
		r.keep([]byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"ping"}`))
	}
	if got := pool.get(); got != buf {
		t.Error("the buffer did not go back to the pool once its slot was reused")
	}
	if _, _, ok := r.recall("41"); ok {
		t.Error("recall(41) still found the request after 16 others were kept")
	}
}

// TestReplacedRequestNamesResponse: the response to a request a rule replaced keeping its
// id is matched and named by the request the server got; one to a replacement with a new
// id is matched as an answer to an unknown request, unnamed (see sentInstead).
func TestReplacedRequestNamesResponse(t *testing.T) {
	for _, c := range []struct{ name, id, want string }{
		{"same id", "7", "delayed response id 7 (tools/call other) from the server"},
		{"new id", "44", "delayed response id 44 from the server"},
	} {
		t.Run(c.name, func(t *testing.T) {
			other := `{"jsonrpc":"2.0","id":` + c.id + `,"method":"tools/call","params":{"name":"other"}}`
			h := injectTap(t, "dir:out tool:echo => replace "+other, "dir:in kind:response tool:other => delay 1ms", "dir:in kind:response => delay 2ms")
			resp := `{"jsonrpc":"2.0","id":` + c.id + `,"result":{}}` + "\n"
			h.write([]byte(callReq))
			// cat sends the replaced request back, then the answer the host writes to it.
			h.waitHost(len(other)+1, 10*time.Second)
			h.write([]byte(resp))
			h.waitHost(len(other)+1+len(resp), 10*time.Second)
			h.finish()
			_, evs := readTrace(t, h.trace)
			if n := notes(evs); len(n) < 2 || !strings.Contains(n[1], c.want) {
				t.Errorf("notes = %q, want the second to say %q", n, c.want)
			}
		})
	}
}

// TestReplacedRequestTakenID: a request replaced by one with the id of another request
// still pending (here one the sieve let by unremembered) does not take that request's
// place: the answer with the id is named by, and matched as, the earlier request (a helper
// found a rule acting on the wrong answer).
func TestReplacedRequestTakenID(t *testing.T) {
	h := injectTap(t, `method:ping => replace {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"other"}}`,
		"dir:in kind:response tool:other => drop", "dir:in kind:response => delay 1ms")
	resp := `{"jsonrpc":"2.0","id":7,"result":{}}` + "\n"
	h.write([]byte(callReq + pingReq)) // tools/call echo id 7, then a ping that becomes tools/call other id 7
	other := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"other"}}` + "\n"
	h.waitHost(len(callReq)+len(other), 10*time.Second) // cat sends both back
	h.write([]byte(resp))
	got := h.waitHost(len(callReq)+len(other)+len(resp), 10*time.Second)
	h.finish()
	if !strings.HasSuffix(string(got), resp) {
		t.Errorf("host got %q, want the answer to tools/call echo forwarded, not dropped", got)
	}
	_, evs := readTrace(t, h.trace)
	if n := notes(evs); len(n) < 2 || !strings.Contains(n[1], "delayed response id 7 (tools/call echo)") {
		t.Errorf("notes = %q, want the answer named by the earlier request, tools/call echo", n)
	}
}
