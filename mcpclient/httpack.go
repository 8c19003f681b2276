package mcpclient

import (
	"bytes"
	"fmt"
	"net/http"
)

// ackAnswer takes a 2xx other than 202 to a notification or a response: an acknowledgement
// the spec gives as 202 Accepted, with no body (basic/transports §Sending Messages to the
// Server). It is noted once per status; a body that echoes what was sent is not a server
// message; any other JSON-RPC message in it is handled as one.
func (t *streamable) ackAnswer(f outFrame, resp *http.Response) {
	body := t.drainBody(resp, true)
	t.mu.Lock()
	if t.acks == nil {
		t.acks = map[int]bool{}
	}
	seen := t.acks[resp.StatusCode]
	t.acks[resp.StatusCode] = true
	t.mu.Unlock()
	tb := bytes.TrimSpace(body)
	echo := len(tb) > 0 && bytes.Equal(tb, bytes.TrimSpace(f.body))
	if !seen {
		what := "no body"
		switch {
		case echo:
			what = "a body that echoes what was sent"
		case len(tb) > 0:
			what = "a body"
		}
		t.c.problem(Problem{Warning, CodeHTTPStatus, fmt.Sprintf("the server acknowledges a %s POST with %s and %s; MCP says 202 Accepted (noted once)", f.kind, resp.Status, what)})
	}
	if len(tb) == 0 || echo {
		return
	}
	if k, _, _ := Classify(append(append([]byte(nil), tb...), '\n')); k.IsMessage() || k == KindBatch {
		t.c.handleBody(body, exchangeOf(resp.Body))
	}
}
