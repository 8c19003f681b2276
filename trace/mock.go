package trace

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Mock is a stdio MCP server that answers as the server of a trace did. Requests are
// matched on method and params, ignoring _meta (ids and progress tokens live there) and,
// for tools/call, everything but the tool name and arguments. Each response gets the
// caller's id. What the recorded server sent while the request was in flight (progress,
// log messages, its own requests such as sampling/createMessage) is sent before the
// response, with progress tokens rewritten to the caller's; the notifications that
// followed the response are sent after it. Notifications get no reply. A request the
// recording cannot answer gets a JSON-RPC error naming the closest recorded request.
// When the recorded server died during a request, the mock ends the same way (MockExit).
type Mock struct {
	tr       *Trace
	byKey    map[string][]*mockEntry
	byMethod map[string][]*mockEntry
	methods  []string
	// Over HTTP (a trace with a transport): whether the recorded server issued a session
	// id and whether it served a GET stream.
	http, sessionful, getStream bool
	// Wait is how long a server→client request sent by the mock waits for the client's
	// reply before going on; default 30 s.
	Wait time.Duration
	// ContentLength makes the mock write LSP-style frames ("Content-Length: N\r\n\r\n" and
	// the body), as the recorded server did: NewMock sets it for a trace recorded with
	// --framing content-length or whose server wrote such frames. The mock reads either
	// framing.
	ContentLength bool
}

type mockEntry struct {
	method  string
	key     string // canonical match key (method and params)
	params  string // canonical params shown in errors
	seq     uint64
	resp    int   // trace index of the response line; -1 when the server died instead
	during  []int // trace indexes sent before the response
	after   []int // trace indexes sent after it
	exit    *exitInfo
	uses    int
	pending bool
	sse     bool // over HTTP, the recorded answer was an event stream (else a JSON body)
}

// MockExit is returned by Serve when the recorded server died during the request being
// served: the mock stops as it did (cmd exits with Code, or kills itself with Signal).
type MockExit struct {
	Code   int
	Signal string
	Text   string
}

func (e *MockExit) Error() string { return "recorded server " + e.Text }

// matchKey is the key a request is matched on.
func matchKey(method string, params json.RawMessage) (key, show string) {
	p := withoutMeta(params)
	if method == "tools/call" {
		var c struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(p, &c)
		args := canonicalJSON(c.Arguments)
		if args == "" || args == "null" {
			args = "{}"
		}
		name, _ := json.Marshal(c.Name)
		show = `{"arguments":` + args + `,"name":` + string(name) + `}`
		return method + "\x00" + show, show
	}
	show = canonicalJSON(p)
	if show == "{}" || show == "null" {
		show = ""
	}
	return method + "\x00" + show, show
}

// NewMock reads the trace once and builds the table of recorded exchanges. The trace must
// stay open while the mock serves: responses are read from it on demand.
func NewMock(tr *Trace) (*Mock, error) {
	m := &Mock{tr: tr, byKey: map[string][]*mockEntry{}, byMethod: map[string][]*mockEntry{}, Wait: 30 * time.Second}
	m.ContentLength = ResolvedFraming(tr) == FramingContentLength
	bySeq := map[uint64]*mockEntry{}
	var inflight []*mockEntry
	var last *mockEntry // the entry whose response came last, until the client's next request
	shutdown := false
	m.http = tr.httpTrace()
	byID := map[string]*mockEntry{} // pending requests by JSON-RPC id, to find their POST
	var posted *mockEntry           // the request whose POST's answer head comes next
	getSent := false                // a GET was sent whose answer head comes next
	i := -1
	for ev, err := range tr.Events() {
		i++
		if err != nil {
			continue
		}
		switch ev.Dir {
		case mcpclient.HTTPOut:
			posted, getSent = nil, false
			switch {
			case bytes.HasPrefix(ev.Raw, []byte("GET ")):
				getSent = true
			case bytes.HasPrefix(ev.Raw, []byte("POST ")):
				if _, body, ok := bytes.Cut(ev.Raw, []byte("\r\n\r\n")); ok {
					if k, bm, _ := mcpclient.Classify(body); k == mcpclient.KindRequest {
						posted = byID[idKey(bm.ID)]
					}
				}
			}
		case mcpclient.HTTPIn:
			if ev.Kind != mcpclient.KindHTTPResponse {
				continue
			}
			status, ctype, sid := headFacts(ev.Raw)
			if sid {
				m.sessionful = true
			}
			if getSent && status == 200 {
				m.getStream = true
			}
			if posted != nil {
				posted.sse = strings.HasPrefix(ctype, "text/event-stream")
			}
			posted, getSent = nil, false
		case mcpclient.ClientToServer:
			if ev.Kind != mcpclient.KindRequest {
				continue
			}
			key, show := matchKey(ev.Msg.Method, ev.Msg.Params)
			e := &mockEntry{method: ev.Msg.Method, key: key, params: show, seq: ev.Seq, resp: -1, pending: true}
			bySeq[ev.Seq] = e
			byID[idKey(ev.Msg.ID)] = e
			inflight = append(inflight, e)
			last = nil
		case mcpclient.ServerToClient:
			if _, _, ok := mcpclient.SplitHeader(ev.Raw); ok {
				m.ContentLength = true
			}
			switch ev.Kind {
			case mcpclient.KindResponse, mcpclient.KindErrorResponse:
				e := bySeq[ev.Pair]
				if e == nil || !e.pending {
					continue
				}
				e.resp, e.pending = i, false
				inflight = removeEntry(inflight, e)
				m.add(e)
				last = e
			case mcpclient.KindNotification, mcpclient.KindRequest:
				if ev.Kind == mcpclient.KindNotification && ev.Pair != 0 {
					if e := bySeq[ev.Pair]; e != nil && e.pending {
						e.during = append(e.during, i)
						continue
					}
				}
				switch {
				case len(inflight) == 1:
					inflight[0].during = append(inflight[0].during, i)
				case last != nil && ev.Kind == mcpclient.KindNotification:
					last.after = append(last.after, i)
				}
			}
		case mcpclient.Lifecycle:
			switch ev.Life.Kind {
			case mcpclient.LifeShutdown:
				shutdown = true
			case mcpclient.LifeExited, mcpclient.LifeStdoutClosed:
				if shutdown {
					continue
				}
				// The server died with these requests in flight: the mock dies the same way.
				ex := &exitInfo{seen: true, code: ev.Life.ExitCode, signal: ev.Life.Signal, text: ev.Life.Text}
				for _, e := range inflight {
					if e.exit == nil {
						e.exit = ex
						m.add(e)
					}
				}
				inflight = nil
			}
		}
	}
	for k := range m.byMethod {
		m.methods = append(m.methods, k)
	}
	sort.Strings(m.methods)
	return m, nil
}

// headFacts reads an HTTP response head: its status code, its Content-Type (lower case)
// and whether it has an Mcp-Session-Id header.
func headFacts(head []byte) (status int, ctype string, sid bool) {
	lines := strings.Split(string(head), "\r\n")
	if f := strings.Fields(lines[0]); len(f) >= 2 {
		status, _ = strconv.Atoi(f[1])
	}
	for _, l := range lines[1:] {
		name, value, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "content-type":
			ctype = strings.ToLower(strings.TrimSpace(value))
		case "mcp-session-id":
			sid = true
		}
	}
	return status, ctype, sid
}

func (m *Mock) add(e *mockEntry) {
	m.byKey[e.key] = append(m.byKey[e.key], e)
	m.byMethod[e.method] = append(m.byMethod[e.method], e)
}

func removeEntry(list []*mockEntry, e *mockEntry) []*mockEntry {
	for i, x := range list {
		if x == e {
			return append(list[:i], list[i+1:]...)
		}
	}
	return list
}

// Requests is the number of recorded requests the mock can answer.
func (m *Mock) Requests() int {
	n := 0
	for _, l := range m.byKey {
		n += len(l)
	}
	return n
}

// mockSession is one Serve call.
type mockSession struct {
	m       *Mock
	mu      sync.Mutex // serializes writes and the match tables
	out     io.Writer
	nextID  int
	waiters map[string]chan struct{}
	wg      sync.WaitGroup
	exit    chan *MockExit
}

// Serve answers requests read from in on out until in ends (nil) or ctx ends (its error).
// It returns a *MockExit when the recorded server died during a request it was asked.
func (m *Mock) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	s := &mockSession{m: m, out: out, waiters: map[string]chan struct{}{}, exit: make(chan *MockExit, 1)}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	frames := make(chan mcpclient.Frame)
	readErr := make(chan error, 1)
	go func() {
		fr := mcpclient.NewFramer(in, 0)
		for {
			f, err := fr.Next()
			if err != nil {
				close(frames)
				if err != io.EOF {
					readErr <- err
				}
				return
			}
			select {
			case frames <- f:
			case <-sctx.Done():
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ex := <-s.exit:
			return ex
		case f, ok := <-frames:
			if !ok {
				// stdin ended: no reply to our own requests can come any more; finish what
				// is in flight, then stop like a server should.
				cancel()
				done := make(chan struct{})
				go func() { s.wg.Wait(); close(done) }()
				select {
				case <-done:
				case ex := <-s.exit:
					return ex
				}
				select {
				case ex := <-s.exit:
					return ex
				default:
				}
				select {
				case err := <-readErr:
					return err
				default:
					return nil
				}
			}
			s.handle(sctx, f.Raw)
		}
	}
}

// writeAll writes frames together, no other frame between them.
func (s *mockSession) writeAll(frames ...[]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range frames {
		s.writeLocked(b)
	}
}

func (s *mockSession) write(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writeLocked(b)
}

func (s *mockSession) writeLocked(b []byte) {
	b = bytes.TrimRight(frameBody(b), "\r\n")
	if s.m.ContentLength {
		hdr := "Content-Length: " + strconv.Itoa(len(b)) + "\r\n\r\n"
		_, _ = s.out.Write(append([]byte(hdr), b...))
		return
	}
	// One Write per frame, as MCP's stdio framing wants whole lines.
	_, _ = s.out.Write(append(append([]byte(nil), b...), '\n'))
}

// frameBody is a recorded frame's message: without its header block when it was
// Content-Length framed.
func frameBody(raw []byte) []byte {
	if _, body, ok := mcpclient.SplitHeader(raw); ok {
		return body
	}
	return raw
}

func (s *mockSession) writeError(id json.RawMessage, code int64, msg string, data any) {
	s.write(errorFrame(id, code, msg, data))
}

// errorFrame is a JSON-RPC error response; a nil id becomes null.
func errorFrame(id json.RawMessage, code int64, msg string, data any) []byte {
	if id == nil {
		id = json.RawMessage(`null`)
	}
	e := map[string]any{"code": code, "message": msg}
	if data != nil {
		e["data"] = data
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": e})
	return b
}

func (s *mockSession) handle(ctx context.Context, raw []byte) {
	kind, msg, _ := mcpclient.Classify(raw)
	switch kind {
	case mcpclient.KindEmpty:
		return
	case mcpclient.KindNotJSON:
		s.writeError(nil, -32700, "Parse error: the line is not JSON", nil)
		return
	case mcpclient.KindNotification:
		return
	case mcpclient.KindResponse, mcpclient.KindErrorResponse:
		s.mu.Lock()
		if ch, ok := s.waiters[idKey(msg.ID)]; ok {
			close(ch)
			delete(s.waiters, idKey(msg.ID))
		}
		s.mu.Unlock()
		return
	case mcpclient.KindRequest:
	default:
		s.writeError(nil, -32600, "Invalid Request: not a JSON-RPC 2.0 message", nil)
		return
	}
	e := s.match(msg)
	if e == nil {
		if msg.Method == "ping" {
			s.write([]byte(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":{}}`))
			return
		}
		code, text, data := s.m.miss(msg)
		s.writeError(msg.ID, code, text, data)
		return
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.play(ctx, e, msg, s.writeAll)
	}()
}

// match takes the next recorded exchange for msg: the same key, in recorded order (the last
// one repeats); initialize falls back to any recorded initialize, so any client can connect.
func (s *mockSession) match(msg *mcpclient.Message) *mockEntry {
	key, _ := matchKey(msg.Method, msg.Params)
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.m.byKey[key]
	if len(list) == 0 && msg.Method == "initialize" {
		list = s.m.byMethod["initialize"]
	}
	if len(list) == 0 {
		return nil
	}
	for _, e := range list {
		if e.uses == 0 {
			e.uses++
			return e
		}
	}
	e := list[len(list)-1]
	e.uses++
	return e
}

// miss builds the error for a request the recording cannot answer.
func (m *Mock) miss(msg *mcpclient.Message) (int64, string, any) {
	_, show := matchKey(msg.Method, msg.Params)
	asked := strings.TrimSpace(msg.Method + " " + shorten(show, 300))
	same := m.byMethod[msg.Method]
	if len(same) == 0 {
		return -32601, fmt.Sprintf("mock: the recording has no %s request; recorded methods: %s", msg.Method, strings.Join(m.methods, ", ")),
			map[string]any{"recordedMethods": m.methods}
	}
	best, bestD := same[0], -1.0
	for _, e := range same {
		if d := paramsDistance(show, e.params); bestD < 0 || d < bestD {
			best, bestD = e, d
		}
	}
	closest := strings.TrimSpace(best.method + " " + shorten(best.params, 300))
	var params any
	if best.params != "" {
		params = json.RawMessage(best.params)
	}
	return -32602, fmt.Sprintf("mock: no recorded response for %s; closest recorded request: %s (trace seq %d)", asked, closest, best.seq),
		map[string]any{"closest": map[string]any{"method": best.method, "params": params, "seq": best.seq}}
}

// play sends what the recorded server sent for e, in order, then the response, through
// out (the frames given to one out call go together).
func (s *mockSession) play(ctx context.Context, e *mockEntry, msg *mcpclient.Message, out func(...[]byte)) {
	token := progressTokenRaw(msg.Params)
	for _, i := range e.during {
		r, err := s.m.tr.Record(i)
		if err != nil {
			continue
		}
		kind, rm, _ := mcpclient.Classify(r.Raw)
		raw := frameBody(r.Raw)
		switch {
		case kind == mcpclient.KindNotification && rm.Method == "notifications/progress":
			if token == nil {
				continue // the caller did not ask for progress
			}
			out(rewriteMember(raw, "params", "progressToken", token))
		case kind == mcpclient.KindRequest:
			s.ask(ctx, raw, out)
		default:
			out(raw)
		}
	}
	if e.exit != nil {
		select {
		case s.exit <- &MockExit{Code: e.exit.code, Signal: e.exit.signal, Text: e.exit.text}:
		default:
		}
		return
	}
	out(append([][]byte{s.response(e, msg)}, s.afterFrames(e)...)...)
}

// response is the recorded response of e with the caller's id (an error response when the
// recording cannot be read).
func (s *mockSession) response(e *mockEntry, msg *mcpclient.Message) []byte {
	r, err := s.m.tr.Record(e.resp)
	if err != nil {
		return errorFrame(msg.ID, -32603, "mock: the recorded response cannot be read: "+err.Error(), nil)
	}
	ms, ok := members(bytes.TrimSpace(frameBody(r.Raw)))
	if !ok {
		return errorFrame(msg.ID, -32603, "mock: the recorded response is not a JSON object", nil)
	}
	o := []member{{"jsonrpc", json.RawMessage(`"2.0"`)}, {"id", msg.ID}}
	for _, x := range ms {
		if x.key == "result" || x.key == "error" {
			o = append(o, x)
		}
	}
	return encodeMembers(o)
}

// afterFrames are the notifications the recorded server sent after e's response.
func (s *mockSession) afterFrames(e *mockEntry) [][]byte {
	var l [][]byte
	for _, i := range e.after {
		if ar, err := s.m.tr.Record(i); err == nil {
			l = append(l, ar.Raw)
		}
	}
	return l
}

// ask sends a recorded server→client request with a fresh id through out and waits for the
// reply.
func (s *mockSession) ask(ctx context.Context, raw []byte, out func(...[]byte)) {
	s.mu.Lock()
	s.nextID++
	id := strconv.Quote("mock-" + strconv.Itoa(s.nextID))
	ch := make(chan struct{})
	s.waiters[id] = ch
	s.mu.Unlock()
	out(rewriteMember(raw, "", "id", json.RawMessage(id)))
	t := time.NewTimer(s.m.Wait)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	case <-ctx.Done():
	}
}

// progressTokenRaw is params._meta.progressToken as raw JSON, nil when absent.
func progressTokenRaw(params json.RawMessage) json.RawMessage {
	var p struct {
		Meta struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.Meta.Token) == 0 {
		return nil
	}
	return p.Meta.Token
}

// rewriteMember sets raw[outer][key] = value (raw[key] when outer is ""), keeping the other
// members in order; raw is returned unchanged when it does not have that shape.
func rewriteMember(raw []byte, outer, key string, value json.RawMessage) []byte {
	ms, ok := members(bytes.TrimSpace(raw))
	if !ok {
		return raw
	}
	for i, m := range ms {
		if outer == "" && m.key == key {
			ms[i].value = value
			return encodeMembers(ms)
		}
		if outer != "" && m.key == outer {
			inner, ok := members(m.value)
			if !ok {
				return raw
			}
			for j := range inner {
				if inner[j].key == key {
					inner[j].value = value
				}
			}
			ms[i].value = encodeMembers(inner)
			return encodeMembers(ms)
		}
	}
	return raw
}

// paramsDistance says how far apart two canonical params are: each differing location
// counts 1, a differing string only by the share of its characters that changed.
func paramsDistance(a, b string) float64 {
	if a == "" || b == "" {
		if a == b {
			return 0
		}
		return 1 << 20
	}
	var d float64
	for _, diff := range Compare(json.RawMessage(a), json.RawMessage(b), nil) {
		var x, y string
		if json.Unmarshal(diff.Recorded, &x) == nil && json.Unmarshal(diff.Got, &y) == nil {
			d += float64(editDistance(x, y)) / float64(max(len([]rune(x)), len([]rune(y)), 1))
			continue
		}
		d++
	}
	return d
}

// editDistance is the Levenshtein distance of two strings (runes), on their first 256 runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	ra, rb = ra[:min(len(ra), 256)], rb[:min(len(rb), 256)]
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
