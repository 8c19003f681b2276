package tap

import (
	"io"
	"os"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/trace"
)

// benchExchange is one tools/call over Streamable HTTP as the go-sdk everything-server
// answers it: a POST with a JSON body, and a chunked event stream with one event.
var benchExchange = struct{ req, body, head, sse string }{
	req:  "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:40000\r\nUser-Agent: Go-http-client/1.1\r\nContent-Length: 101\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nMcp-Protocol-Version: 2025-11-25\r\nMcp-Session-Id: 5GQ3ZJ4XNKU4V2B7ZQXJ3W3M2A\r\nAccept-Encoding: gzip\r\n\r\n",
	body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_simple_text","arguments":{}}}`,
	head: "HTTP/1.1 200 OK\r\nCache-Control: no-cache, no-transform\r\nConnection: keep-alive\r\nContent-Type: text/event-stream\r\nDate: Tue, 01 Dec 2026 22:00:00 GMT\r\nTransfer-Encoding: chunked\r\n\r\n",
	sse:  "event: message\nid: 1_0\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"This is a simple text response for testing.\"}]}}\n\n",
}

// BenchmarkHTTPRecord is the recorder's work for one exchange (default redaction, the
// trace written to io.Discard, no viewer): what the HTTP tap spends per tools/call off the
// forward path.
func BenchmarkHTTPRecord(b *testing.B) {
	red, err := trace.NewRedactor(trace.RedactConfig{Inherited: os.Environ(), Argv: []string{"http://127.0.0.1:40000/mcp"}})
	if err != nil {
		b.Fatal(err)
	}
	opt := Options{Argv: []string{"http://127.0.0.1:40000/mcp"}, Trace: io.Discard, Redactor: red, SocketDir: "-", Signals: []os.Signal{}}
	opt.defaults()
	s := &session{opt: opt, log: opt.Logger, q: newFIFO()}
	if err := s.openTrace(time.Now()); err != nil {
		b.Fatal(err)
	}
	s.tee.batching = true
	t := &httpTap{s: s, maxFrame: opt.MaxMessage}
	ex := benchExchange
	req := []byte(ex.req + ex.body)
	b.ReportAllocs()
	for range b.N {
		now := time.Now()
		st := &respStream{sse: true}
		for _, it := range []httpItem{
			{t: now, kind: itemOut, raw: req, body: req[len(ex.req):]},
			{t: now, kind: itemHead, raw: []byte(ex.head), stream: st},
			{t: now, kind: itemBody, raw: []byte(ex.sse), stream: st},
			{t: now, kind: itemEnd, stream: st},
		} {
			t.recordItem(it)
		}
		t.s.flushTrace()
	}
}
