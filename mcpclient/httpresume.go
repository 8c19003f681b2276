package mcpclient

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"time"
)

// Resumption of a Streamable HTTP stream (MCP 2025-11-25 basic/transports §Resumability and
// Redelivery): a request's stream that ended before its response, and the GET that resumes it.

// resume reconnects to a stream that ended before the response to f: GET with
// Last-Event-ID, after the server's retry delay (MCP 2025-11-25 basic/transports
// §Resumability and Redelivery). server-everything replays only what its event store holds
// and then keeps the GET open without the events that follow, so a resumed stream that
// stays quiet for a while is dropped and resumed again from the newest id. The request's
// own timeout ends the loop.
func (t *streamable) resume(pctx context.Context, f outFrame, last string, retry time.Duration) {
	for t.c.isPending(f.msg.ID) && pctx.Err() == nil {
		if last == "" {
			t.fail(f, fmt.Errorf("%s: the SSE stream ended before the response and gave no event id to resume from", f.label()))
			return
		}
		wait, from := retry, "the server's retry:"
		if wait < 0 {
			wait, from = defaultRetry, "no retry: field, the default"
		}
		t.c.note(fmt.Sprintf("%s: its stream ended before the response; resuming in %s (%s) with GET and Last-Event-ID %s", f.label(), wait, from, last))
		select {
		case <-time.After(wait):
		case <-pctx.Done():
			return
		}
		ctx, cancel := context.WithCancel(pctx)
		resp, err := t.get(ctx, last)
		if err != nil {
			cancel()
			t.fail(f, &ConnectError{Method: "GET", URL: t.url, Err: err})
			return
		}
		ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		if resp.StatusCode != http.StatusOK || ct != "text/event-stream" {
			body := t.drainBody(resp, true)
			resp.Body.Close()
			cancel()
			t.fail(f, &HTTPStatusError{Method: "GET", URL: t.url, StatusCode: resp.StatusCode, Status: resp.Status, Header: resp.Header, Sent: sentHeader(resp), Body: body, Request: f.label() + " (resuming its stream)"})
			return
		}
		quiet := max(2*wait, 2*time.Second)
		timer := time.AfterFunc(quiet, cancel)
		nl, nr, answered, _ := t.readSSE(ctx, resp.Body, f, func(busy bool) {
			if busy {
				timer.Stop()
			} else {
				timer.Reset(quiet)
			}
		})
		timer.Stop()
		t.c.emitEncoded(resp)
		resp.Body.Close()
		cancel()
		if answered {
			t.c.note(fmt.Sprintf("%s: answered on the stream resumed from event id %s", f.label(), last))
		}
		if nr >= 0 {
			retry = nr
		}
		if nl != "" {
			last = nl
		}
	}
}

// get opens a GET event stream, with Last-Event-ID when last is set.
func (t *streamable) get(ctx context.Context, last string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.url, nil)
	if err != nil {
		return nil, err
	}
	t.setCommon(req.Header, false)
	req.Header.Set("Accept", "text/event-stream")
	if last != "" {
		req.Header.Set(HeaderLastEventID, last)
	}
	return t.do(req, nil)
}
