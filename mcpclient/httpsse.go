package mcpclient

// The deprecated HTTP+SSE transport (MCP 2024-11-05 basic/transports §HTTP with SSE): GET the
// SSE endpoint; its first `endpoint` event names the URL to POST every message to; the
// server's messages arrive on the GET stream as `message` events.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sync"
)

type legacySSE struct {
	c      *Client
	url    string
	hc     *http.Client
	header http.Header

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	ready   chan struct{} // closed once postURL is known or the stream failed
	postURL string
	err     error

	out     *outQueue
	sendEnd chan struct{}
}

func newLegacySSE(c *Client) *legacySSE {
	t := &legacySSE{c: c, url: c.cfg.URL, hc: newHTTPClient(c), header: c.cfg.Header, ready: make(chan struct{}), sendEnd: make(chan struct{})}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	t.out = newOutQueue()
	t.wg.Add(1)
	go t.listen()
	go t.sender()
	return t
}

func (t *legacySSE) send(f outFrame) {
	t.out.push(f)
}

func (t *legacySSE) close() {
	t.out.close()
	t.cancel()
	<-t.sendEnd
	t.wg.Wait()
}

// listen holds the GET stream for the whole session.
func (t *legacySSE) listen() {
	defer t.wg.Done()
	once := sync.OnceFunc(func() { close(t.ready) })
	defer once()
	req, err := http.NewRequestWithContext(t.ctx, http.MethodGet, t.url, nil)
	if err != nil {
		t.err = err
		return
	}
	for k, vs := range t.header {
		req.Header[k] = append([]string(nil), vs...)
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := t.hc.Do(req)
	if err != nil {
		t.err = &ConnectError{Method: "GET", URL: t.url, Err: err}
		return
	}
	defer resp.Body.Close()
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode != http.StatusOK || ct != "text/event-stream" {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		if len(body) > 0 {
			t.c.emitHTTP(Event{Dir: HTTPIn, Kind: KindHTTPBody, Raw: body, Size: int64(len(body)), Pair: exchangeOf(resp.Body)})
		}
		t.err = &HTTPStatusError{Method: "GET", URL: t.url, StatusCode: resp.StatusCode, Status: resp.Status, Header: resp.Header, Sent: sentHeader(resp), Body: body}
		return
	}
	r := NewSSEReader(resp.Body)
	for {
		fr, err := r.Next()
		t.c.waitRoomHTTP(t.ctx, &fr)
		if len(fr.Raw) > 0 {
			t.c.emitHTTP(Event{Dir: HTTPIn, Kind: KindSSEFrame, Raw: fr.Raw, Size: int64(len(fr.Raw)), Offset: fr.Offset, Pair: exchangeOf(resp.Body)})
		}
		if fr.Dispatches() {
			switch fr.Event {
			case "endpoint":
				if t.postURL == "" {
					base, _ := url.Parse(t.url)
					if u, perr := base.Parse(fr.Data); perr == nil {
						t.postURL = u.String()
					} else {
						t.err = fmt.Errorf("the endpoint event's data %q is not a URL: %v", fr.Data, perr)
					}
					once()
				}
			case "", "message":
				if fr.Data != "" {
					if t.postURL == "" {
						t.c.problem(Problem{Warning, CodeHTTPStatus, "a message arrived before the endpoint event; HTTP+SSE servers send endpoint first"})
					}
					t.c.handleBody([]byte(fr.Data), exchangeOf(resp.Body))
				}
			}
		}
		if err != nil {
			break
		}
	}
	if t.ctx.Err() == nil {
		t.c.note("the server closed the HTTP+SSE event stream; no more answers can arrive")
		t.c.failAllPending(errors.New("the server closed the HTTP+SSE event stream"))
	}
}

func (t *legacySSE) sender() {
	defer close(t.sendEnd)
	for {
		batch := t.out.take()
		if batch == nil {
			return
		}
		select {
		case <-t.ready:
		case <-t.ctx.Done():
			return
		}
		for _, f := range batch {
			t.post(f)
		}
	}
}

func (t *legacySSE) fail(f outFrame, err error) {
	if f.kind == KindRequest && f.msg != nil {
		t.c.failRequest(f.msg.ID, err)
		return
	}
	t.c.note("sending " + f.kind.String() + " failed: " + err.Error())
}

func (t *legacySSE) post(f outFrame) {
	if t.postURL == "" {
		err := t.err
		if err == nil {
			err = errors.New("the event stream gave no endpoint event")
		}
		t.fail(f, err)
		return
	}
	req, err := http.NewRequestWithContext(carrying(t.ctx, f.seq, t.postURL), http.MethodPost, t.postURL, bytes.NewReader(f.body))
	if err != nil {
		t.fail(f, err)
		return
	}
	for k, vs := range t.header {
		req.Header[k] = append([]string(nil), vs...)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := t.hc.Do(req)
	if err != nil {
		if t.ctx.Err() == nil {
			t.fail(f, &ConnectError{Method: "POST", URL: t.postURL, Err: err})
		}
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode/100 != 2 {
		if len(body) > 0 {
			t.c.emitHTTP(Event{Dir: HTTPIn, Kind: KindHTTPBody, Raw: body, Size: int64(len(body)), Pair: exchangeOf(resp.Body)})
		}
		t.fail(f, &HTTPStatusError{Method: "POST", URL: t.postURL, StatusCode: resp.StatusCode, Status: resp.Status, Header: resp.Header, Sent: sentHeader(resp), Body: body, Request: f.label()})
	}
}
