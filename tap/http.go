package tap

// The HTTP tap: a reverse proxy on loopback in front of one Streamable HTTP (or HTTP+SSE)
// server. It speaks HTTP/1.1 at the byte level rather than through net/http, so what the
// host sends reaches the server as sent (only the Host header is set to the upstream's, and
// the tap's own token taken out), and what the server answers reaches the host as sent:
// the same status line, header names, order and case, chunk sizes, SSE frames as they
// arrive. Each host connection has its own upstream connection, so keep-alive and
// long-lived streams map one to one. Requests the listener's guard refuses (a foreign Host
// or Origin, no token) never reach the upstream (httpguard.go).
//
// The forward path copies; once a write to the host is done and before it waits for more
// bytes, it records what went by (record): frames it into the events a client trace has
// (c2s/s2c messages, http> requests, http< heads, bodies and SSE frames), writes the trace
// and feeds attach viewers. Recording on the forward goroutine, after the host has the
// bytes, costs an exchange nothing on the wire; handing the same work to a recording
// goroutine woke a second thread per exchange, which on a busy machine added more latency
// (about 60 µs at p50) than the work itself.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/listenguard"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// maxHTTPHead bounds one request or response head.
const maxHTTPHead = 1 << 20

// HTTPOptions configure an HTTP tap. Zero values take the defaults named on each field.
type HTTPOptions struct {
	// Listener is where hosts connect; the caller makes it (on loopback).
	Listener net.Listener
	// Upstream is the server's endpoint (http or https).
	Upstream *url.URL
	// Name names the tap for `attach NAME`; default DefaultName of the URL.
	Name string
	// Trace, TracePath, Header, Redactor, MaxMessage, SocketDir, ViewerBuffer,
	// MemoryHistory, NoFileReason, Stderr and Logger are as in Options.
	Trace         io.Writer
	TracePath     string
	MemoryHistory int64
	NoFileReason  string
	Header        trace.Header
	Redactor      *trace.Redactor
	MaxMessage    int
	SocketDir     string
	ViewerBuffer  int
	Stderr        io.Writer
	Logger        *slog.Logger
	// OnStart, when set, is called once the tap listens and is published (tests use it).
	OnStart func(socket string)
	// Inject are the --inject rules, as in Options.
	Inject []Rule
	// Guard decides which requests are served (Host, Origin, the per-run token); nil
	// checks Host and Origin against Listener's address and asks for no token.
	Guard *listenguard.Guard
	// Observe is as in Options.
	Observe func(mcpclient.Event)
}

// httpItem is one thing the forward path saw, for the trace.
type httpItem struct {
	t      time.Time
	kind   int // itemOut, itemHead, itemBody, itemEnd, itemLife
	raw    []byte
	body   []byte // itemOut: the request body (de-chunked)
	stream *respStream
	life   *mcpclient.LifeInfo
	dir    mcpclient.Direction // itemMsg's direction
	// written marks an itemMsg, or the message an itemOut's body carries, that the tap
	// wrote itself (mcpclient.Event.Written).
	written mcpclient.NoteCond
	// msgRecorded: an itemOut's message is in the trace already (recorded before a note).
	msgRecorded bool
}

const (
	itemOut = iota
	itemHead
	itemBody
	itemEnd
	itemLife
	itemMsg // a JSON-RPC message alone (--inject: an original, or what the tap sent instead)
)

// respStream is the recorder's state for one response body.
type respStream struct {
	sse  bool
	json bool
	buf  []byte
}

type httpTap struct {
	s      *session
	up     *url.URL
	upHost string     // host:port to dial
	recMu  sync.Mutex // held while a batch is recorded: batches are recorded whole, in turn
	// sseIn and sseBuf are reused (under recMu) to parse each SSE frame: NewSSEReader keeps a
	// *bufio.Reader that is large enough, where it would allocate 4 KiB per frame.
	sseIn    bytes.Reader
	sseBuf   *bufio.Reader
	wg       sync.WaitGroup
	off      [2]int64
	line     [2]int64
	conns    map[net.Conn]struct{}
	connsMu  sync.Mutex
	maxFrame int
	guard    *listenguard.Guard
	refused  atomic.Int64 // requests the guard refused
	inj      *injector    // the --inject rules; nil without
}

// RunHTTP runs an HTTP tap until ctx ends; then it closes the listener and every
// connection, finishes the trace and returns.
func RunHTTP(ctx context.Context, o HTTPOptions) (Result, error) {
	if o.Listener == nil || o.Upstream == nil {
		return Result{}, errors.New("tap: no listener or no upstream")
	}
	if o.Upstream.Scheme != "http" && o.Upstream.Scheme != "https" {
		return Result{}, fmt.Errorf("tap: --upstream %s: not an http or https URL", o.Upstream.Redacted())
	}
	opt := Options{
		Argv: []string{o.Upstream.String()}, Name: o.Name, Trace: o.Trace, TracePath: o.TracePath,
		Header: o.Header, Redactor: o.Redactor, MaxMessage: o.MaxMessage, SocketDir: o.SocketDir,
		ViewerBuffer: o.ViewerBuffer, Stderr: o.Stderr, Signals: []os.Signal{}, Logger: o.Logger,
		MemoryHistory: o.MemoryHistory, NoFileReason: o.NoFileReason, Observe: o.Observe,
	}
	opt.defaults()
	if opt.Header.Transport == "" {
		opt.Header.Transport = "http"
	}
	if opt.Header.URL == "" {
		opt.Header.URL = o.Upstream.String()
	}
	if opt.Header.Note == "" {
		opt.Header.Note = "recorded by mcp-inspect tap " + opt.Name + " on http://" + o.Listener.Addr().String()
	}
	s := &session{opt: opt, log: opt.Logger, q: newFIFO(), waitDone: make(chan struct{}), stopReason: make(chan string, 1), shutdownDone: make(chan struct{})}
	start := time.Now()
	if err := s.openTrace(start); err != nil {
		return Result{}, err
	}
	host := o.Upstream.Host
	if o.Upstream.Port() == "" {
		if o.Upstream.Scheme == "https" {
			host = net.JoinHostPort(o.Upstream.Hostname(), "443")
		} else {
			host = net.JoinHostPort(o.Upstream.Hostname(), "80")
		}
	}
	g := o.Guard
	if g == nil {
		var err error
		if g, err = listenguard.New(listenguard.Options{Who: "mcp-inspect tap", Addr: o.Listener.Addr().String()}); err != nil {
			return Result{}, err
		}
	}
	t := &httpTap{s: s, up: o.Upstream, upHost: host, conns: map[net.Conn]struct{}{}, maxFrame: opt.MaxMessage, guard: g}
	t.inj = newInjector(o.Inject, start, opt.SocketDir != "-", t.life)
	if t.inj != nil && t.inj.holds != nil {
		t.inj.holds.noAnswerIn = true
	}
	s.inj = t.inj
	s.tee.batching = true // one write per batch (see record)
	t.life(mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, Text: fmt.Sprintf("tap %q: forwarding http://%s to %s", opt.Name, o.Listener.Addr(), o.Upstream.Redacted())})
	t.injectNotes(false)
	s.hub = s.publish(start)
	if o.OnStart != nil {
		sock := ""
		if s.hub != nil {
			sock = s.hub.path
		}
		o.OnStart(sock)
	}
	go func() {
		<-ctx.Done()
		t.inj.endHolds() // held exchanges go on unchanged, then the connections close
		o.Listener.Close()
		t.connsMu.Lock()
		for c := range t.conns {
			c.Close()
		}
		t.connsMu.Unlock()
	}()
	for {
		c, err := o.Listener.Accept()
		if err != nil {
			if ctx.Err() == nil {
				var ne net.Error
				if errors.As(err, &ne) && ne.Timeout() {
					continue
				}
			}
			break
		}
		t.track(c, true)
		t.wg.Add(1)
		go t.serve(c)
	}
	t.wg.Wait()
	t.refusedTotal()
	t.injectNotes(true)
	t.life(mcpclient.LifeInfo{Kind: mcpclient.LifeExited, Text: "HTTP tap ended"})
	s.finishRecording()
	return Result{Events: s.events.Load()}, nil
}

func (t *httpTap) track(c net.Conn, add bool) {
	t.connsMu.Lock()
	defer t.connsMu.Unlock()
	if add {
		t.conns[c] = struct{}{}
	} else {
		delete(t.conns, c)
	}
}

func (t *httpTap) life(l mcpclient.LifeInfo) {
	t.record([]httpItem{{t: time.Now(), kind: itemLife, life: &l}})
}

// dial opens a connection to the upstream (HTTP/1.1 only over TLS).
func (t *httpTap) dial() (net.Conn, error) {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if t.up.Scheme == "https" {
		return tls.DialWithDialer(d, "tcp", t.upHost, &tls.Config{ServerName: t.up.Hostname(), NextProtos: []string{"http/1.1"}})
	}
	c, err := d.Dial("tcp", t.upHost)
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
	return c, err
}

// head is a parsed request or response head.
type head struct {
	raw           []byte
	first         string
	contentLength int64 // -1 when absent
	chunked       bool
	closeConn     bool
	contentType   string
	// expectContinue: a request that waits for 100 Continue before its body.
	expectContinue bool
	// What the listener's guard looks at (requests only): the Host header's values, the
	// Origin, Mcp-Inspect-Token and Authorization ones.
	hosts, origin, token, auth []string
}

// responseStream is a response head's status code (0 when the status line has none) and
// the stream its body is read as: an event stream, else a JSON body.
func (h *head) responseStream() (int, *respStream) {
	status := 0
	if f := strings.Fields(h.first); len(f) >= 2 {
		status, _ = strconv.Atoi(f[1])
	}
	st := &respStream{sse: strings.HasPrefix(h.contentType, "text/event-stream")}
	st.json = !st.sse
	return status, st
}

// readHead reads one head (up to and including the blank line) exactly. It parses the
// lines as bytes: every request and response goes through it, and a string per line was
// most of the forward path's allocations.
func readHead(br *bufio.Reader) (*head, error) {
	// One allocation for a usual head, not one per doubling as its lines come.
	h := &head{contentLength: -1, raw: make([]byte, 0, min(max(br.Buffered(), 512), 4096))}
	lineStart := 0 // where the current line starts in h.raw
	for {
		line, err := br.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			if len(h.raw) > 0 || len(line) > 0 {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		h.raw = append(h.raw, line...)
		if len(h.raw) > maxHTTPHead {
			return nil, errors.New("head too large")
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		l := bytes.TrimRight(h.raw[lineStart:], "\r\n")
		isFirst := lineStart == 0
		lineStart = len(h.raw)
		if isFirst {
			if len(l) == 0 { // a stray blank line before a request
				h.raw, lineStart = h.raw[:0], 0
				continue
			}
			h.first = string(l)
			continue
		}
		if len(l) == 0 {
			return h, nil
		}
		name, value, ok := bytes.Cut(l, []byte(":"))
		if !ok {
			continue
		}
		name, value = bytes.TrimSpace(name), bytes.TrimSpace(value)
		switch {
		case asciiEqualFold(name, "content-length"):
			if n, err := strconv.ParseInt(string(value), 10, 64); err == nil {
				h.contentLength = n
			}
		case asciiEqualFold(name, "transfer-encoding"):
			h.chunked = containsFold(value, "chunked")
		case asciiEqualFold(name, "connection"):
			h.closeConn = containsFold(value, "close")
		case asciiEqualFold(name, "content-type"):
			h.contentType = strings.ToLower(string(value))
		case asciiEqualFold(name, "expect"):
			h.expectContinue = asciiEqualFold(value, "100-continue")
		case asciiEqualFold(name, "host"):
			h.hosts = append(h.hosts, string(value))
		case asciiEqualFold(name, "origin"):
			h.origin = append(h.origin, string(value))
		case asciiEqualFold(name, "mcp-inspect-token"):
			h.token = append(h.token, string(value))
		case asciiEqualFold(name, "authorization"):
			h.auth = append(h.auth, string(value))
		}
	}
}

// asciiEqualFold reports whether b is s (lower-case ASCII) in any case.
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// containsFold reports whether b holds s (lower-case ASCII) in any case.
func containsFold(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		if asciiEqualFold(b[i:i+len(s)], s) {
			return true
		}
	}
	return false
}

// withHost returns the head with its Host header's value set to host.
func withHost(raw []byte, host string) []byte {
	i := bytes.Index(raw, []byte("\n")) + 1
	for i > 0 && i < len(raw) {
		j := bytes.IndexByte(raw[i:], '\n')
		if j < 0 {
			break
		}
		line := raw[i : i+j+1]
		if len(line) > 5 && strings.EqualFold(string(line[:5]), "host:") {
			out := make([]byte, 0, len(raw)+len(host))
			out = append(out, raw[:i]...)
			out = append(out, "Host: "...)
			out = append(out, host...)
			out = append(out, "\r\n"...)
			return append(out, raw[i+j+1:]...)
		}
		i += j + 1
	}
	return raw
}

// readChunked reads a chunked body, returning its exact bytes and the de-chunked body.
// each, when set, gets every piece of exact bytes as it is read (data: the chunk data in
// it; last: the body ends with this piece).
func readChunked(br *bufio.Reader, each func(raw, data []byte, last bool) error) (raw, data []byte, err error) {
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return raw, data, err
		}
		sizeText, _, _ := strings.Cut(strings.TrimSpace(string(line)), ";")
		n, perr := strconv.ParseInt(sizeText, 16, 64)
		if perr != nil || n < 0 {
			return raw, data, fmt.Errorf("bad chunk size %q", sizeText)
		}
		if each != nil {
			if err := each(line, nil, false); err != nil {
				return raw, data, err
			}
		} else {
			raw = append(raw, line...)
		}
		if n == 0 {
			// Trailers, then the blank line.
			for {
				l, err := br.ReadSlice('\n')
				if err != nil {
					return raw, data, err
				}
				end := len(bytes.TrimRight(l, "\r\n")) == 0
				if each != nil {
					if err := each(l, nil, end); err != nil {
						return raw, data, err
					}
				} else {
					raw = append(raw, l...)
				}
				if end {
					return raw, data, nil
				}
			}
		}
		for n > 0 {
			p, err := br.Peek(min(int(n), max(br.Buffered(), 1)))
			if len(p) == 0 && err != nil {
				return raw, data, err
			}
			if each != nil {
				if err := each(p, p, false); err != nil {
					return raw, data, err
				}
			} else {
				raw = append(raw, p...)
				data = append(data, p...)
			}
			n -= int64(len(p))
			_, _ = br.Discard(len(p))
		}
		l, err := br.ReadSlice('\n') // the CRLF after the data
		if err != nil {
			return raw, data, err
		}
		if each != nil {
			if err := each(l, nil, false); err != nil {
				return raw, data, err
			}
		} else {
			raw = append(raw, l...)
		}
	}
}

// serve forwards the requests of one host connection, one at a time, on one upstream
// connection.
func (t *httpTap) serve(c net.Conn) {
	defer t.wg.Done()
	defer t.track(c, false)
	defer c.Close()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
	br := bufio.NewReaderSize(c, 32<<10)
	cw := bufio.NewWriterSize(c, 32<<10)
	var up net.Conn
	var ubr *bufio.Reader
	defer func() {
		if up != nil {
			t.track(up, false)
			up.Close()
		}
	}()
	for {
		rh, err := readHead(br)
		if err != nil {
			return
		}
		if ref := t.guard.Check(guardRequest(rh)); ref != nil {
			if !t.refuse(br, cw, rh, ref) {
				return
			}
			continue
		}
		if rh.expectContinue && (rh.chunked || rh.contentLength > 0) {
			keep, err := t.expectContinue(c, br, cw, &up, &ubr, rh)
			if err != nil || !keep || rh.closeConn {
				return
			}
			continue
		}
		var body, wire []byte
		switch {
		case rh.chunked:
			wire, body, err = readChunked(br, nil)
		case rh.contentLength > 0:
			body = make([]byte, rh.contentLength)
			_, err = io.ReadFull(br, body)
			wire = body
		}
		if err != nil {
			return
		}
		var fate requestFate
		if t.injectsRequests() {
			if fate = t.injectRequest(cw, rh, &body, &wire); fate.answered {
				if !fate.keep || rh.closeConn {
					return
				}
				continue
			}
		}
		out := t.outHead(rh)
		msg := make([]byte, 0, len(out)+len(wire))
		msg = append(append(msg, out...), wire...)
		method, _, _ := strings.Cut(rh.first, " ")
		rec := msg[:len(msg):len(msg)]
		if rh.chunked { // bodies are recorded de-chunked, as the client records them
			rec = append(clone(out), body...)
		}
		// What the exchange brings is recorded in batches after each write to the host, so
		// recording runs while the host handles the answer, not before.
		pend := []httpItem{{t: time.Now(), kind: itemOut, raw: rec, body: body, written: fate.written, msgRecorded: fate.recorded}}
		sent := false
		for attempt := 0; attempt < 2 && !sent; attempt++ {
			if up == nil {
				if up, err = t.dial(); err != nil {
					up = nil
					t.badGateway(cw, err)
					return
				}
				t.track(up, true)
				ubr = bufio.NewReaderSize(up, 32<<10)
			}
			if _, err = up.Write(msg); err == nil {
				// A kept-alive upstream connection the server closed fails only at the
				// read: peek for the status line before the request counts as sent.
				if _, err = ubr.Peek(1); err == nil {
					sent = true
					break
				}
			}
			t.track(up, false)
			up.Close()
			up = nil
		}
		if !sent {
			t.record(pend)
			t.badGateway(cw, err)
			return
		}
		keep, err := t.respond(ubr, cw, method, pend)
		if err != nil || !keep || rh.closeConn {
			return
		}
	}
}

// badGateway answers the host when the upstream cannot be reached.
func (t *httpTap) badGateway(cw *bufio.Writer, err error) {
	text := "mcp-inspect tap: the upstream cannot be reached: " + err.Error() + "\n"
	fmt.Fprintf(cw, "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(text), text)
	_ = cw.Flush()
	t.life(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Err: err, Text: "the upstream cannot be reached: " + err.Error()})
}

// response forwards one response (1xx heads first) as it arrives; keep reports whether
// the connection can carry another request. With hold, nothing is recorded: what went by
// is returned in held, for the caller to record.
func (t *httpTap) response(ubr *bufio.Reader, cw *bufio.Writer, method string, pend []httpItem, hold bool) (keep bool, held []httpItem, err error) {
	defer func() {
		if hold {
			held = pend
		} else if len(pend) > 0 {
			t.record(pend)
		}
	}()
	// flush writes what was copied when nothing more is waiting upstream, so a stream's
	// bytes reach the host as they come and a burst goes out in one write; then what went
	// by is recorded.
	flush := func() error {
		if ubr.Buffered() != 0 {
			return nil
		}
		err := cw.Flush()
		if len(pend) > 0 && !hold {
			t.record(pend)
			pend = nil
		}
		return err
	}
	for {
		h, err := readHead(ubr)
		if err != nil {
			return false, nil, err
		}
		if _, err := cw.Write(h.raw); err != nil {
			return false, nil, err
		}
		status, st := h.responseStream()
		pend = append(pend, httpItem{t: time.Now(), kind: itemHead, raw: h.raw, stream: st})
		if status >= 100 && status < 200 && status != 101 {
			if err := flush(); err != nil {
				return false, nil, err
			}
			continue
		}
		if method == "HEAD" || status == 204 || status == 304 {
			pend = append(pend, httpItem{kind: itemEnd, stream: st})
			return !h.closeConn, nil, cw.Flush()
		}
		// pass copies one piece of the body; the last one is flushed, and recorded with
		// the end of the response, below.
		pass := func(raw, data []byte, last bool) error {
			if _, err := cw.Write(raw); err != nil {
				return err
			}
			if len(data) > 0 {
				pend = append(pend, httpItem{t: time.Now(), kind: itemBody, raw: clone(data), stream: st})
			}
			if last {
				return nil
			}
			return flush()
		}
		switch {
		case h.chunked:
			_, _, err = readChunked(ubr, pass)
		case h.contentLength >= 0:
			n := h.contentLength
			for n > 0 && err == nil {
				var p []byte
				p, err = ubr.Peek(min(int(n), max(ubr.Buffered(), 1)))
				if len(p) > 0 {
					err = pass(p, p, int64(len(p)) == n)
					n -= int64(len(p))
					_, _ = ubr.Discard(len(p))
				}
			}
		default:
			// No length: the body runs to the end of the connection.
			for err == nil {
				var p []byte
				p, err = ubr.Peek(max(ubr.Buffered(), 1))
				if len(p) > 0 {
					if perr := pass(p, p, false); perr != nil {
						err = perr
						break
					}
					_, _ = ubr.Discard(len(p))
				}
			}
			if errors.Is(err, io.EOF) {
				err = nil
			}
			h.closeConn = true
		}
		if ferr := cw.Flush(); err == nil {
			err = ferr
		}
		pend = append(pend, httpItem{t: time.Now(), kind: itemEnd, stream: st})
		return err == nil && !h.closeConn, nil, err
	}
}

// record turns one batch of what the forward path saw into trace events, in order, and
// writes them (one write per batch).
func (t *httpTap) record(batch []httpItem) {
	t.recMu.Lock()
	defer t.recMu.Unlock()
	for _, it := range batch {
		t.recordItem(it)
	}
	t.s.flushTrace()
}

// recordItem turns one item into its events.
func (t *httpTap) recordItem(it httpItem) {
	switch it.kind {
	case itemLife:
		t.emit(mcpclient.Event{Time: timeOr(it.t), Dir: mcpclient.Lifecycle, Kind: mcpclient.KindLifecycle, Life: it.life})
	case itemMsg:
		t.message(timeOr(it.t), it.dir, it.raw, it.written)
	case itemOut:
		// A body the tap wrote is recorded as a message even when it is not JSON (corrupt).
		if b := bytes.TrimSpace(it.body); !it.msgRecorded && len(b) > 0 && (b[0] == '{' || b[0] == '[' || it.written != "") {
			t.message(it.t, mcpclient.ClientToServer, b, it.written)
		}
		t.emitHTTP(mcpclient.Event{Time: it.t, Dir: mcpclient.HTTPOut, Kind: mcpclient.KindHTTPRequest, Raw: it.raw, Size: int64(len(it.raw))})
	case itemHead:
		t.emitHTTP(mcpclient.Event{Time: it.t, Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPResponse, Raw: it.raw, Size: int64(len(it.raw))})
	case itemBody:
		st := it.stream
		st.buf = append(st.buf, it.raw...)
		if st.sse {
			t.sseFrames(it.t, st, false)
		}
	case itemEnd:
		st := it.stream
		if st.sse {
			t.sseFrames(timeOr(it.t), st, true)
			return
		}
		if len(st.buf) > 0 {
			t.emitHTTP(mcpclient.Event{Time: timeOr(it.t), Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPBody, Raw: st.buf, Size: int64(len(st.buf))})
			if b := bytes.TrimSpace(st.buf); len(b) > 0 && (b[0] == '{' || b[0] == '[') {
				t.message(timeOr(it.t), mcpclient.ServerToClient, b, "")
			}
		}
		st.buf = nil
	}
}

func timeOr(t time.Time) time.Time {
	if t.IsZero() {
		return time.Now()
	}
	return t
}

// sseFrames emits the complete frames in st.buf (and, at the end, what is left as an
// unterminated one).
func (t *httpTap) sseFrames(at time.Time, st *respStream, end bool) {
	for {
		n := frameEnd(st.buf)
		if n < 0 {
			break
		}
		t.sseFrame(at, st.buf[:n])
		st.buf = st.buf[n:]
	}
	if end && len(st.buf) > 0 {
		t.sseFrame(at, st.buf)
		st.buf = nil
	}
	if len(st.buf) == 0 {
		st.buf = nil
	}
}

// frameEnd is the length of the first complete SSE frame in b (through its blank line), -1
// when there is none yet.
func frameEnd(b []byte) int {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\n':
			if i+1 < len(b) && b[i+1] == '\n' {
				return i + 2
			}
			if i+2 < len(b) && b[i+1] == '\r' && b[i+2] == '\n' {
				return i + 3
			}
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				if i+3 < len(b) && b[i+2] == '\r' && b[i+3] == '\n' {
					return i + 4
				}
				continue
			}
			if i+1 < len(b) && b[i+1] == '\r' {
				return i + 2
			}
		}
	}
	return -1
}

func (t *httpTap) sseFrame(at time.Time, raw []byte) {
	raw = clone(raw)
	t.emitHTTP(mcpclient.Event{Time: at, Dir: mcpclient.HTTPIn, Kind: mcpclient.KindSSEFrame, Raw: raw, Size: int64(len(raw))})
	t.sseIn.Reset(raw)
	if t.sseBuf == nil {
		t.sseBuf = bufio.NewReaderSize(&t.sseIn, 4096)
	} else {
		t.sseBuf.Reset(&t.sseIn)
	}
	fr, _ := mcpclient.NewSSEReader(t.sseBuf).Next()
	if fr.Dispatches() && fr.Data != "" && (fr.Event == "" || fr.Event == "message") {
		t.message(at, mcpclient.ServerToClient, []byte(fr.Data), "")
	}
}

// message emits a JSON-RPC message event (cut to MaxMessage, as an oversize frame).
func (t *httpTap) message(at time.Time, dir mcpclient.Direction, b []byte, written mcpclient.NoteCond) {
	ev := mcpclient.Event{Time: at, Dir: dir, Raw: b, Size: int64(len(b)), Written: written}
	if len(b) > t.maxFrame {
		ev.Raw, ev.Kind = b[:t.maxFrame], mcpclient.KindOversize
	}
	t.emit(ev)
}

// emitHTTP numbers an HTTP event in its direction's running stream, as the client does.
func (t *httpTap) emitHTTP(ev mcpclient.Event) {
	i := 0
	if ev.Dir == mcpclient.HTTPIn {
		i = 1
	}
	ev.Offset = t.off[i]
	t.line[i]++
	ev.Line = t.line[i]
	t.off[i] += ev.Size
	t.emit(ev)
}

func (t *httpTap) emit(ev mcpclient.Event) {
	if ev.Time.IsZero() {
		ev.Time = time.Now()
	}
	t.s.emit(ev)
}
