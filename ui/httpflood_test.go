package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// httpFloodServer is a Streamable HTTP server that writes n notifications/message (about
// 225 bytes each, numbered as flood-notify's) on the GET stream, then "flood done n".
func httpFloodServer(tb testing.TB, n int) *httptest.Server {
	tb.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodDelete:
			return
		case http.MethodGet:
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			rc := http.NewResponseController(w)
			_ = rc.Flush()
			pad := strings.Repeat("x", 100)
			for i := 1; i <= n; i++ {
				if _, err := fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"logger\":\"flood\",\"data\":\"flood %06d %s\"}}\n\n", i, pad); err != nil {
					return
				}
				if i%64 == 0 && rc.Flush() != nil {
					return
				}
			}
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"flood done %d\"}}\n\n", n)
			_ = rc.Flush()
			<-r.Context().Done()
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
		default:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, m.ID)
		}
	}))
	tb.Cleanup(s.Close)
	return s
}

// floodLiveHTTP floods a recorded live session over Streamable HTTP with n notifications.
func floodLiveHTTP(tb testing.TB, m *model, w *trace.Writer, n int) (peak uint64) {
	tb.Helper()
	s := httpFloodServer(tb, n)
	c, err := mcpclient.Start(mcpclient.Config{URL: s.URL + "/mcp", Timeout: time.Minute, OnEvent: w.Observe, ShutdownGrace: 300 * time.Millisecond})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	errc := connect(c)
	var ms runtime.MemStats
	absorb(tb, m, c, notifyDone(n), func() {
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	})
	if err := <-errc; err != nil {
		tb.Fatal(err)
	}
	return peak
}

// TestHTTPFloodMillionHeap: 1,000,000 notifications on a Streamable HTTP session's GET
// stream make 2,000,000 events (each SSE frame and the message in it), and the session holds
// them within the bounds a stdio flood of as many notifications has (TestFloodMillionHeap):
// heap in use at most 150 MB after the flood and a GC and 250 MB during it (before the
// events were packed into 48 bytes and the recording's index into 8: 175 MB and 326 MB).
// The first SSE frame, pushed out of memory, is read back with its framing.
func TestHTTPFloodMillionHeap(t *testing.T) {
	const n = 1_000_000
	m, w := liveRecorded(t)
	peak := floodLiveHTTP(t, m, w, n)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	t.Logf("%d events: heap in use %d MB after a GC; during the flood at most %d MB", m.tl.len(), ms.HeapInuse>>20, peak>>20)
	if m.tl.len() < 2*n {
		t.Fatalf("%d events for %d notifications, want an SSE frame and a message each", m.tl.len(), n)
	}
	if ms.HeapInuse > 150<<20 {
		t.Errorf("heap in use after the flood and a GC: %d MB, want at most 150 MB", ms.HeapInuse>>20)
	}
	if peak > 250<<20 {
		t.Errorf("heap in use reached %d MB during the flood, want at most 250 MB", peak>>20)
	}
	if len(m.tl.wide) > 0 {
		t.Errorf("%d events keep values outside their summary (offsets that do not continue their stream?)", len(m.tl.wide))
	}
	first := -1
	for i := 0; i < 64 && i < m.tl.len(); i++ {
		if m.tl.evs.at(i).kind == mcpclient.KindSSEFrame {
			first = i
			break
		}
	}
	if first < 0 {
		t.Fatal("no SSE frame among the first events")
	}
	if _, kept := m.tl.kept(first); kept {
		t.Fatalf("event %d is still kept in memory after the flood", first)
	}
	m.tl.need(first)
	if cmd := m.tl.loadCmd(); cmd != nil {
		m.Update(cmd())
	}
	raw, ok := m.tl.rawAt(first)
	if want := `data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"flood 000001 `; !ok || !strings.HasPrefix(string(raw), want) {
		t.Fatalf("the first SSE frame read back: %q, %v; want it to start with %s", raw, ok, want)
	}
	runtime.KeepAlive(m)
}

// TestTimelineWideValues: a tlEvent stays 40 bytes, and the values too wide for it (a
// frame over 4 GiB, a pair far away, more methods and problem lists than 16 bits count)
// come back as they were given, as do stream offsets, derived where they continue their
// stream and kept where one does not.
func TestTimelineWideValues(t *testing.T) {
	if sz := unsafe.Sizeof(tlEvent{}); sz != 40 {
		t.Fatalf("tlEvent is %d bytes, want 40", sz)
	}
	tl := newTimeline()
	at := time.Unix(0, 0)
	dirs := []mcpclient.Direction{mcpclient.ServerToClient, mcpclient.Stderr, mcpclient.HTTPIn}
	var run [8]int64
	offs := []int64{0}
	for i := 1; i <= 70_000; i++ {
		ev := mcpclient.Event{Seq: uint64(i), Time: at, Dir: dirs[i%7%3], Kind: mcpclient.KindNotification, Size: int64(i), Method: fmt.Sprintf("m/%d", i),
			Problems: []mcpclient.Problem{{Severity: mcpclient.Info, Code: "x", Text: fmt.Sprint(i)}}}
		switch i {
		case 3:
			ev.Size = 5 << 30
		case 4:
			ev.Pair = 1 << 40
		case 5:
			ev.Pair = 2
		}
		ev.Offset = run[ev.Dir]
		if i%1000 == 7 {
			ev.Offset += 12345 // a stream that skipped bytes
		}
		run[ev.Dir] = ev.Offset + ev.Size
		offs = append(offs, ev.Offset)
		tl.add(ev)
	}
	for i := 1; i <= 70_000; i++ {
		if ev, _ := tl.event(i - 1); ev.Offset != offs[i] {
			t.Fatalf("event #%d: offset %d, want %d", i, ev.Offset, offs[i])
		}
	}
	for _, i := range []int{1, 3, 4, 5, 65_534, 65_535, 65_536, 70_000} {
		ev, _ := tl.event(i - 1)
		wantSize, wantPair := int64(i), uint64(0)
		switch i {
		case 3:
			wantSize = 5 << 30
		case 4:
			wantPair = 1 << 40
		case 5:
			wantPair = 2
		}
		if ev.Size != wantSize || ev.Pair != wantPair {
			t.Errorf("event #%d: size %d, pair %d; want %d, %d", i, ev.Size, ev.Pair, wantSize, wantPair)
		}
		if got, want := tl.methodOf(tl.evs.at(i-1)), fmt.Sprintf("m/%d", i); got != want {
			t.Errorf("event #%d: method %q, want %q", i, got, want)
		}
		if ps := tl.problemsAt(i - 1); len(ps) != 1 || ps[0].Text != fmt.Sprint(i) {
			t.Errorf("event #%d: problems %v, want one with text %d", i, ps, i)
		}
	}
}
