package mcpclient

// The recording HTTP layer: every request and response head as exact bytes on the wire
// pane. Connections are wrapped so the bytes written for a request and the bytes read up to
// the end of the response head are captured as they went over the socket (HTTP/1.1 only:
// the client never negotiates HTTP/2, so the head is text). Bodies are read by the
// transport from the response (chunked encoding removed) and shown as JSON-RPC messages or
// SSE frames.

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"sort"
	"strconv"
	"sync"
	"time"
)

// maxHeadCapture bounds the captured bytes of one request (head and body) or response head.
const maxHeadCapture = 1 << 20

// tapConn is a connection whose traffic is copied while a request is armed on it.
type tapConn struct {
	net.Conn
	mu    sync.Mutex
	armed bool
	wdone bool // the request's bytes were taken
	// onWritten, set once net/http has finished writing a request into its buffer, is
	// called after the next Write: the flush that puts the request's last bytes out.
	onWritten func()
	w, r      []byte
}

func (t *tapConn) Write(b []byte) (int, error) {
	n, err := t.Conn.Write(b)
	t.mu.Lock()
	if t.armed && !t.wdone && len(t.w)+n <= maxHeadCapture {
		t.w = append(t.w, b[:n]...)
	}
	done := t.onWritten
	t.onWritten = nil
	t.mu.Unlock()
	if done != nil {
		done()
	}
	return n, err
}

func (t *tapConn) Read(b []byte) (int, error) {
	n, err := t.Conn.Read(b)
	t.mu.Lock()
	if t.armed && n > 0 && len(t.r) < maxHeadCapture && bytes.Index(t.r, []byte("\r\n\r\n")) < 0 {
		t.r = append(t.r, b[:n]...)
	}
	t.mu.Unlock()
	return n, err
}

func (t *tapConn) arm() {
	t.mu.Lock()
	t.armed, t.wdone, t.w, t.r = true, false, nil, nil
	t.mu.Unlock()
}

// takeWritten returns what was written since arm; later writes are not kept.
func (t *tapConn) takeWritten() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	w := t.w
	t.w, t.wdone = nil, true
	return w
}

// takeRead ends the capture and returns what was read since arm.
func (t *tapConn) takeRead() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.r
	t.armed, t.w, t.r, t.onWritten = false, nil, nil, nil
	return r
}

// newTapTransport is an HTTP/1.1 transport whose connections are tapConns.
func newTapTransport() *http.Transport {
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy: http.ProxyFromEnvironment,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &tapConn{Conn: c}, nil
		},
		DialTLSContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			host, _, _ := net.SplitHostPort(addr)
			tc := tls.Client(c, &tls.Config{ServerName: host, NextProtos: []string{"http/1.1"}})
			if err := tc.HandshakeContext(ctx); err != nil {
				c.Close()
				return nil, err
			}
			return &tapConn{Conn: tc}, nil
		},
		// The exact bytes are the point: no transparent gzip, no HTTP/2.
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     90 * time.Second,
	}
}

// recordingTransport emits an HTTPOut event for every request and an HTTPIn event for every
// response head. It is the innermost RoundTripper: an authorization layer wraps it, so
// every hop, credentials included, is recorded (and redacted in traces).
type recordingTransport struct {
	c    *Client
	next http.RoundTripper
}

func (rt *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var mu sync.Mutex
	var tc *tapConn
	var reqSeq uint64
	sentDone := false
	// The request is shown as soon as it is written, before any answer: a long-lived GET
	// stream or a slow server still shows what was asked.
	emitSent := func() {
		mu.Lock()
		defer mu.Unlock()
		if sentDone {
			return
		}
		sentDone = true
		var w []byte
		if tc != nil {
			w = tc.takeWritten()
		}
		if len(w) == 0 {
			w = requestBytes(req)
		}
		reqSeq = rt.c.emitHTTP(Event{Dir: HTTPOut, Kind: KindHTTPRequest, Raw: w, Size: int64(len(w)), Exchange: carried(req)})
	}
	trace := &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			if c, ok := info.Conn.(*tapConn); ok {
				c.arm()
				mu.Lock()
				tc = c
				mu.Unlock()
			}
		},
		WroteRequest: func(httptrace.WroteRequestInfo) {
			mu.Lock()
			c := tc
			mu.Unlock()
			if c != nil {
				c.mu.Lock()
				c.onWritten = emitSent
				c.mu.Unlock()
			}
		},
		GotFirstResponseByte: emitSent,
	}
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
	resp, err := rt.next.RoundTrip(req)
	emitSent()
	mu.Lock()
	c := tc
	mu.Unlock()
	var r []byte
	if c != nil {
		r = c.takeRead()
	}
	if err != nil {
		return nil, err
	}
	var head []byte
	if i := bytes.Index(r, []byte("\r\n\r\n")); i >= 0 {
		head = r[:i+4]
	} else {
		head = ResponseHead(resp)
	}
	mu.Lock()
	seq := reqSeq
	mu.Unlock()
	rt.c.emitHTTP(Event{Dir: HTTPIn, Kind: KindHTTPResponse, Raw: head, Size: int64(len(head)), Pair: seq})
	decodeBody(resp, rt.c.cfg.MaxMessage)
	if resp.Body != nil && resp.Body != http.NoBody {
		resp.Body = &exchangeBody{ReadCloser: resp.Body, seq: seq}
	}
	return resp, nil
}

// requestBytes rebuilds a request's bytes when the connection was not tapped.
func requestBytes(req *http.Request) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", req.Method, req.URL.RequestURI(), req.URL.Host)
	if req.ContentLength > 0 && req.Header.Get("Content-Length") == "" {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", req.ContentLength) // as net/http sends it
	}
	WriteSortedHeader(&b, req.Header)
	b.WriteString("\r\n")
	if req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			_, _ = io.Copy(&b, io.LimitReader(body, maxHeadCapture))
			body.Close()
		}
	}
	return b.Bytes()
}

// ResponseHead is resp's status line and headers (sorted by name), ending in the blank line:
// the bytes a response head event holds when the connection itself was not tapped.
func ResponseHead(resp *http.Response) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s\r\n", resp.Proto, resp.Status)
	WriteSortedHeader(&b, resp.Header)
	b.WriteString("\r\n")
	return b.Bytes()
}

// WriteSortedHeader writes h as "Name: value\r\n" lines, names sorted, values in order.
func WriteSortedHeader(b *bytes.Buffer, h http.Header) {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			b.WriteString(k + ": " + v + "\r\n")
		}
	}
}

// statusLine gives "HTTP/1.1 200 OK" for a response, for messages.
func statusLine(resp *http.Response) string {
	return resp.Proto + " " + strconv.Itoa(resp.StatusCode) + " " + http.StatusText(resp.StatusCode)
}

// exchangeBody is a response body that knows its HTTP exchange: the Seq of its request's
// event, to which the events of the body (its bytes, SSE frames, encoded form) pair, since
// concurrent exchanges (a GET stream, several POSTs) interleave on the wire.
type exchangeBody struct {
	io.ReadCloser
	seq uint64
}

// exchangeOf is the Seq of the request whose response body r is (0 when not known).
func exchangeOf(r io.Reader) uint64 {
	if b, ok := r.(*exchangeBody); ok {
		return b.seq
	}
	return 0
}

// encodedOf is the content-encoded body under r, nil when r is not one.
func encodedOf(r io.Reader) *encodedBody {
	if b, ok := r.(*exchangeBody); ok {
		r = b.ReadCloser
	}
	e, _ := r.(*encodedBody)
	return e
}

// carriedKey is the context key of the JSON-RPC message a POST carries (carrying).
type carriedKey struct{}

// carriedMsg is the Seq of the message a POST to url carries.
type carriedMsg struct {
	seq uint64
	url string
}

// carrying marks ctx as that of the POST to url carrying the message event seq, so the
// recorded HTTP request links to it (Event.Exchange). The URL keeps the link off the
// authorization's own requests, made with the same context.
func carrying(ctx context.Context, seq uint64, url string) context.Context {
	if seq == 0 {
		return ctx
	}
	return context.WithValue(ctx, carriedKey{}, carriedMsg{seq, url})
}

// carryOn is the context of a redirect hop of req to url: it carries what req carried.
func carryOn(req *http.Request, url string) context.Context {
	if c, ok := req.Context().Value(carriedKey{}).(carriedMsg); ok && c.url == req.URL.String() {
		return carrying(req.Context(), c.seq, url)
	}
	return req.Context()
}

// carried is the Seq of the message req's body carries, 0 for none.
func carried(req *http.Request) uint64 {
	if c, ok := req.Context().Value(carriedKey{}).(carriedMsg); ok && c.url == req.URL.String() && req.Method == http.MethodPost {
		return c.seq
	}
	return 0
}
