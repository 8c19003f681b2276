package check

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// SessionHTTP is the session of the http rules' probes: plain HTTP requests to the
// endpoint, beside the main session and outside it (its own http.Client, no redirects
// followed), so they do not disturb it. The check records each exchange as events of this
// session (the request as sent, the response head, its body), cited as http-probes#N.
const SessionHTTP = "http-probes"

// probeBodyMax caps the response body a probe reads and records.
const probeBodyMax = 4 << 10

// probeTimeoutMax caps how long one probe waits for its answer.
const probeTimeoutMax = 10 * time.Second

// prober sends the http rules' requests and records their exchanges.
type prober struct {
	w       *wire
	hc      *http.Client
	url     string
	header  http.Header
	emit    func(mcpclient.Event)
	timeout time.Duration

	mu  sync.Mutex
	seq uint64
}

// probeAnswer is one probe's outcome.
type probeAnswer struct {
	// status is the HTTP status, 0 when no answer came (err says why).
	status int
	head   http.Header
	body   []byte
	// stream reports a text/event-stream answer, whose body is not read.
	stream bool
	err    error
	// sent is the request in a few words ("POST /mcp initialize, Origin: http://evil.example").
	sent   string
	events []Event
}

// contentType is the answer's media type, "" when it has none.
func (a probeAnswer) contentType() string {
	mt, _, _ := mime.ParseMediaType(a.head.Get("Content-Type"))
	return mt
}

// got is the answer in a few words: "403 Forbidden", "200 OK (application/json, 57
// bytes)", "no answer: …".
func (a probeAnswer) got() string {
	if a.status == 0 {
		return fmt.Sprintf("no answer: %v", a.err)
	}
	s := fmt.Sprintf("%d %s", a.status, http.StatusText(a.status))
	var more []string
	if ct := a.contentType(); ct != "" {
		more = append(more, ct)
	}
	if len(a.body) > 0 {
		more = append(more, fmt.Sprintf("%d bytes", len(a.body)))
	}
	if len(more) > 0 {
		s += " (" + strings.Join(more, ", ") + ")"
	}
	return s
}

// exchange is "SENT → GOT".
func (a probeAnswer) exchange() string { return a.sent + " → " + a.got() }

// newProber opens the probes' session: its wire (recorded like a short session's, through
// Options.Record) and its client, with the run's headers (-H, a bearer token) and
// authorization layer.
func (r *run) newProber() *prober {
	cfg := r.opt.Server
	cfg.OnEvent, cfg.OnEvents = nil, nil // the main session's
	w := newWire(SessionHTTP)
	if r.opt.Record != nil {
		w.trace, w.traceDone = r.opt.Record(SessionHTTP, &cfg)
	}
	var rt http.RoundTripper = http.DefaultTransport.(*http.Transport).Clone()
	if cfg.WrapTransport != nil {
		rt = cfg.WrapTransport(rt)
	}
	timeout := min(max(r.opt.Server.Timeout, r.opt.Wait), probeTimeoutMax)
	p := &prober{w: w, url: cfg.URL, header: cfg.Header, emit: cfg.Observer(), timeout: timeout,
		hc: &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	r.mu.Lock()
	r.wires = append(r.wires, w)
	r.mu.Unlock()
	return p
}

// close ends the probes' session and finishes its trace.
func (p *prober) close() {
	p.hc.CloseIdleConnections()
	p.w.close()
}

// add records ev as the session's next event and returns its seq.
func (p *prober) add(ev mcpclient.Event) uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq++
	ev.Seq, ev.Time, ev.Size = p.seq, time.Now(), int64(len(ev.Raw))
	p.w.observe(ev)
	if p.emit != nil {
		p.emit(ev)
	}
	return ev.Seq
}

// probeReq is one probe to send.
type probeReq struct {
	method string
	body   string
	// header is set over the run's headers; host, when set, is the Host header sent.
	header http.Header
	host   string
	// what names the body in the finding text ("initialize"); shown the headers that
	// matter ("Origin: http://evil.example").
	what  string
	shown []string
}

// do sends q and records the exchange. A text/event-stream answer is not read (a GET
// stream stays open): its head is enough.
func (p *prober) do(ctx context.Context, q probeReq) probeAnswer {
	u, _ := url.Parse(p.url)
	a := probeAnswer{sent: strings.Join(append([]string{strings.TrimSpace(q.method + " " + u.RequestURI() + " " + q.what)}, q.shown...), ", ")}
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	var body io.Reader
	if q.body != "" {
		body = strings.NewReader(q.body)
	}
	req, err := http.NewRequestWithContext(ctx, q.method, p.url, body)
	if err != nil {
		a.err = err
		return a
	}
	for k, vs := range p.header {
		req.Header[k] = slices.Clone(vs)
	}
	for k, vs := range q.header {
		req.Header[k] = slices.Clone(vs)
	}
	if q.host != "" {
		req.Host = q.host
	}
	seqs := []uint64{p.add(mcpclient.Event{Dir: mcpclient.HTTPOut, Kind: mcpclient.KindHTTPRequest, Raw: probeRequestBytes(req, q.body)})}
	resp, err := p.hc.Do(req)
	if err != nil {
		a.err, a.events = err, p.w.ev(seqs...)
		return a
	}
	defer resp.Body.Close()
	a.status, a.head = resp.StatusCode, resp.Header
	seqs = append(seqs, p.add(mcpclient.Event{Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPResponse, Raw: mcpclient.ResponseHead(resp)}))
	if a.stream = a.contentType() == "text/event-stream"; !a.stream {
		a.body, _ = io.ReadAll(io.LimitReader(resp.Body, probeBodyMax))
		if len(a.body) > 0 {
			seqs = append(seqs, p.add(mcpclient.Event{Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPBody, Raw: a.body}))
		}
	}
	a.events = p.w.ev(seqs...)
	return a
}

// probeRequestBytes is the request as net/http writes it, near enough: request line, Host,
// the headers sorted, the body.
func probeRequestBytes(req *http.Request, body string) []byte {
	var b bytes.Buffer
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", req.Method, req.URL.RequestURI(), host)
	if body != "" {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(body))
	}
	mcpclient.WriteSortedHeader(&b, req.Header)
	b.WriteString("\r\n")
	b.WriteString(body)
	return b.Bytes()
}
