package mcpclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/heappeak"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// floodHTTP is a Streamable HTTP server (legacy era, with a session id) that floods n
// notifications, each padded to about pad bytes, on the GET stream (onCall false) or on the
// SSE answer to tools/call before its response (onCall true). written counts the frames
// the server has written and flushed: it stops growing while the client reads nothing.
type floodHTTP struct {
	n, pad  int
	onCall  bool
	written atomic.Int64
	deletes atomic.Int32
	// callEnded is closed when the tools/call handler returns (its connection ended).
	callEnded chan struct{}
	srv       *httptest.Server
}

func newFloodHTTP(t *testing.T, n, pad int, onCall bool) *floodHTTP {
	s := &floodHTTP{n: n, pad: pad, onCall: onCall, callEnded: make(chan struct{})}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *floodHTTP) serve(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodDelete:
		s.deletes.Add(1)
		return
	case http.MethodGet:
		if s.onCall {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		sseHead(w)
		s.flood(w)
		<-r.Context().Done() // no reconnections: the stream stays open until the client goes
		return
	}
	body, _ := io.ReadAll(r.Body)
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.Unmarshal(body, &m)
	switch {
	case m.Method == "initialize":
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set(mcpclient.HeaderSessionID, "flood-1")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"logging":{}},"serverInfo":{"name":"flood-http","version":"1"}}}`, m.ID)
	case m.ID == nil:
		w.WriteHeader(http.StatusAccepted)
	case m.Method == "tools/call":
		defer close(s.callEnded)
		sseHead(w)
		if !s.flood(w) {
			return
		}
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[]}}\n\n", m.ID)
	case m.Method == "tools/list":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}`, m.ID)
	default:
		// ping and the rest: the response alone, on an SSE stream.
		sseHead(w)
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{}}\n\n", m.ID)
	}
}

// serveLegacy is the same flood over the HTTP+SSE transport of 2024-11-05: the GET stream
// names /msg as the endpoint and carries every answer; notifications/initialized starts the
// flood on it.
func (s *floodHTTP) serveLegacy(out chan string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			sseHead(w)
			fmt.Fprint(w, "event: endpoint\ndata: /msg\n\n")
			w.(http.Flusher).Flush()
			for {
				select {
				case m := <-out:
					if m == "" {
						s.flood(w)
						continue
					}
					fmt.Fprintf(w, "event: message\ndata: %s\n\n", m)
					w.(http.Flusher).Flush()
				case <-r.Context().Done():
					return
				}
			}
		}
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &m)
		w.WriteHeader(http.StatusAccepted)
		switch m.Method {
		case "initialize":
			out <- fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2024-11-05","capabilities":{"logging":{}},"serverInfo":{"name":"flood-sse","version":"1"}}}`, m.ID)
		case "notifications/initialized":
			out <- ""
		}
	}
}

func sseHead(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
}

// flood writes the n notifications, flushing each; false when the client went away.
func (s *floodHTTP) flood(w http.ResponseWriter) bool {
	pad := strings.Repeat("x", s.pad)
	for i := 1; i <= s.n; i++ {
		if _, err := fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"logger\":\"flood\",\"data\":\"flood %06d %s\"}}\n\n", i, pad); err != nil {
			return false
		}
		if err := http.NewResponseController(w).Flush(); err != nil {
			return false
		}
		s.written.Add(1)
	}
	return true
}

// stall waits until the server's written count stays the same for a second (the server's
// writes are blocked) and returns it; it fails the test when the whole flood went out.
func (s *floodHTTP) stall(t *testing.T) int64 {
	t.Helper()
	last, same := int64(-1), 0
	for same < 50 {
		time.Sleep(20 * time.Millisecond)
		w := s.written.Load()
		if w >= int64(s.n) {
			t.Fatalf("the server wrote all %d notifications to a client that reads nothing: no backpressure", s.n)
		}
		if w == last {
			same++
		} else {
			last, same = w, 0
		}
	}
	return last
}

// floodNum is the number of a flood notification received from the server, 0 for any other
// event.
func floodNum(ev mcpclient.Event) int {
	if ev.Dir != mcpclient.ServerToClient {
		return 0
	}
	s := string(ev.Raw)
	i := strings.Index(s, `"data":"flood `)
	if i < 0 {
		return 0
	}
	k, _ := strconv.Atoi(s[i+len(`"data":"flood `):][:6])
	return k
}

// readFlood receives events until flood notification number until, checking that the
// numbers come in order from next on; it returns the number after the last one seen.
func readFlood(t *testing.T, events <-chan mcpclient.Event, next, until int) int {
	t.Helper()
	for next <= until {
		ev, ok := <-events
		if !ok {
			t.Fatalf("the events ended before flood notification %d", next)
		}
		if k := floodNum(ev); k > 0 {
			if k != next {
				t.Fatalf("flood notification %d came where %d was due", k, next)
			}
			next++
		}
	}
	return next
}

// TestHTTPFloodBackpressure: a server floods 187 MiB of notifications on the GET stream
// while the reader of Events stops after the first 100. The client stops reading the stream
// once its backlog is full, so the server's writes stall far below the flood (TCP carries
// the bound back) and the heap stays a fraction of the flood; requests sent meanwhile are
// still answered, on an SSE stream and in a JSON body; when the reader goes on, every
// notification arrives, in order.
func TestHTTPFloodBackpressure(t *testing.T) {
	const n, pad = 12000, 16 << 10
	s := newFloodHTTP(t, n, pad, false)
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	stop := heappeak.Start(5 * time.Millisecond)
	c, err := mcpclient.Start(mcpclient.Config{URL: s.srv.URL, Timeout: time.Minute, ShutdownGrace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	events := c.Events()
	ctx := context.Background()
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	next := readFlood(t, events, 1, 100)
	stalled := s.stall(t)
	if stalled > n/2 {
		t.Fatalf("the server wrote %d of %d notifications to a client that stopped reading after 100", stalled, n)
	}
	pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := c.Ping(pctx); err != nil {
		t.Fatalf("a ping (answered on an SSE stream) while the reader is stalled: %v", err)
	}
	if _, _, err := c.ListTools(pctx); err != nil {
		t.Fatalf("tools/list (answered with a JSON body) while the reader is stalled: %v", err)
	}
	if w := s.written.Load(); w > n/2 {
		t.Fatalf("the server wrote %d of %d notifications while nothing was read", w, n)
	}
	readFlood(t, events, next, n)
	peak := stop()
	flood := uint64(n * pad)
	t.Logf("server stalled at %d of %d notifications; peak heap %d MiB over a base of %d MiB, flood %d MiB", stalled, n, (peak-base.HeapAlloc)>>20, base.HeapAlloc>>20, flood>>20)
	if peak > base.HeapAlloc+flood/2 {
		t.Errorf("peak heap %d MiB over a base of %d MiB for a %d MiB flood: the backlog is not bounded", peak>>20, base.HeapAlloc>>20, flood>>20)
	}
	c.Close()
	for range events {
	}
}

// TestHTTPCloseWhileStalled: with a flood on a request's own SSE stream and a reader of
// Events that has stopped, the stream's reader waits for room; cancelling the request ends
// that wait (the call returns and the server sees the connection go), and Close returns
// and ends the session with DELETE.
func TestHTTPCloseWhileStalled(t *testing.T) {
	const n, pad = 4000, 16 << 10
	s := newFloodHTTP(t, n, pad, true)
	c, err := mcpclient.Start(mcpclient.Config{URL: s.srv.URL, Timeout: time.Minute, ShutdownGrace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	events := c.Events()
	ctx := context.Background()
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	called := make(chan error, 1)
	go func() {
		_, _, err := c.CallTool(cctx, "flood", nil)
		called <- err
	}()
	readFlood(t, events, 1, 100)
	if w := s.stall(t); w > n/2 {
		t.Fatalf("the server wrote %d of %d notifications to a client that stopped reading after 100", w, n)
	}
	cancel()
	select {
	case err := <-called:
		if err == nil {
			t.Fatal("the cancelled call succeeded")
		}
	case <-time.After(time.Minute):
		t.Fatal("cancelling the call did not end it while the reader is stalled")
	}
	select {
	case <-s.callEnded:
	case <-time.After(time.Minute):
		t.Fatal("the cancelled call's stream was never closed: its reader still waits for room")
	}
	closeWithinAMinute(t, c, "Close hung while the reader of Events is stalled")
	if s.deletes.Load() != 1 {
		t.Errorf("%d DELETE requests, want 1: the session was not ended", s.deletes.Load())
	}
	for range events {
	}
}

// TestHTTPSSEFloodBackpressure: the same over the deprecated HTTP+SSE transport, whose one
// GET stream carries everything: the server's writes stall far below the flood while the
// reader of Events is stopped, every notification arrives in order once it reads again,
// and Close returns while it is stopped.
func TestHTTPSSEFloodBackpressure(t *testing.T) {
	const n, pad = 4000, 16 << 10
	s := &floodHTTP{n: n, pad: pad}
	srv := httptest.NewServer(s.serveLegacy(make(chan string, 4)))
	t.Cleanup(srv.Close)
	c, err := mcpclient.Start(mcpclient.Config{URL: srv.URL, Transport: mcpclient.TransportSSE, Timeout: time.Minute, ShutdownGrace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	events := c.Events()
	if _, err := c.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	next := readFlood(t, events, 1, 100)
	if w := s.stall(t); w > n/2 {
		t.Fatalf("the server wrote %d of %d notifications to a client that stopped reading after 100", w, n)
	}
	// Read on to the middle and stop again: the server stalls again before the end.
	next = readFlood(t, events, next, n/2)
	s.stall(t)
	closeWithinAMinute(t, c, "Close hung while the reader of Events is stalled")
	// What was read before Close is delivered, in order, and the events end.
	for ev := range events {
		if k := floodNum(ev); k > 0 {
			if k != next {
				t.Fatalf("flood notification %d came where %d was due", k, next)
			}
			next++
		}
	}
}
