package trace

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The links between JSON-RPC messages and HTTP exchanges survive a trace: a POST's link to
// the message it carries, the answer's events' to the POST, a message's to the exchange it
// was read from.
func TestExchangeLinksInTrace(t *testing.T) {
	w, path := createTrace(t, Header{Transport: "http", URL: "http://127.0.0.1:1/mcp"})
	now := time.Now()
	in := []mcpclient.Event{
		{Seq: 1, Time: now, Dir: mcpclient.ClientToServer, Kind: mcpclient.KindRequest, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)},
		{Seq: 2, Time: now, Dir: mcpclient.HTTPOut, Kind: mcpclient.KindHTTPRequest, Raw: []byte("POST /mcp HTTP/1.1\r\n\r\n"), Exchange: 1},
		{Seq: 3, Time: now, Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPResponse, Raw: []byte("HTTP/1.1 200 OK\r\n\r\n"), Pair: 2},
		{Seq: 4, Time: now, Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPBody, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), Pair: 2},
		{Seq: 5, Time: now, Dir: mcpclient.ServerToClient, Kind: mcpclient.KindResponse, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), Pair: 1, Exchange: 2},
	}
	for _, ev := range in {
		w.Write(ev)
	}
	tr := closeAndOpen(t, w, path)
	want := map[uint64][2]uint64{2: {0, 1}, 3: {2, 0}, 4: {2, 0}, 5: {0, 2}} // seq → {Pair of an HTTP event, Exchange}
	for i := range tr.Len() {
		ev, err := tr.Event(i)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Dir != mcpclient.HTTPIn && ev.Dir != mcpclient.HTTPOut {
			ev.Pair = 0 // a message's pairing is the reader's, not the link under test
		}
		if w, ok := want[ev.Seq]; ok && (ev.Pair != w[0] || ev.Exchange != w[1]) {
			t.Errorf("#%d read back with Pair %d, Exchange %d; want %d, %d", ev.Seq, ev.Pair, ev.Exchange, w[0], w[1])
		}
	}
}

// What a tap wrote itself (Event.Written) survives a trace, as member "tap", and nothing
// else gets the mark.
func TestWrittenInTrace(t *testing.T) {
	w, path := createTrace(t, Header{})
	now := time.Now()
	in := []mcpclient.Event{
		{Seq: 1, Time: now, Dir: mcpclient.ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n")},
		{Seq: 2, Time: now, Dir: mcpclient.ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n"), Written: mcpclient.NoteEdited},
		{Seq: 3, Time: now, Dir: mcpclient.ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}` + "\n"), Written: mcpclient.NoteInjected},
	}
	if err := w.WriteAll(in[:2]); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(in[2]); err != nil {
		t.Fatal(err)
	}
	tr := closeAndOpen(t, w, path)
	if tr.Len() != len(in) {
		t.Fatalf("read %d events, want %d", tr.Len(), len(in))
	}
	for i := range tr.Len() {
		ev, err := tr.Event(i)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Written != in[i].Written {
			t.Errorf("#%d read back with Written %q, want %q", ev.Seq, ev.Written, in[i].Written)
		}
	}
}

// createTrace creates a trace file with header h in a temporary directory.
func createTrace(t *testing.T, h Header) (*Writer, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.jsonl")
	w, err := Create(path, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	return w, path
}

// closeAndOpen closes w and opens the trace it wrote at path (closed when the test ends).
func closeAndOpen(t *testing.T, w *Writer, path string) *Trace {
	t.Helper()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tr, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

// A frame a tap broke on purpose (Written) is read back without the problems its bytes
// would have as the sender's: they are not the sender's faults.
func TestWrittenHasNoProblems(t *testing.T) {
	w, path := createTrace(t, Header{})
	now := time.Now()
	for i, written := range []mcpclient.NoteCond{"", mcpclient.NoteEdited} {
		if err := w.Write(mcpclient.Event{Seq: uint64(i + 1), Time: now, Dir: mcpclient.ServerToClient, Raw: []byte(`!"jsonrpc":"2.0","id":1,"result":{}}` + "\n"), Written: written}); err != nil {
			t.Fatal(err)
		}
	}
	tr := closeAndOpen(t, w, path)
	for i, want := range []bool{true, false} {
		ev, err := tr.Event(i)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(ev.Problems) > 0; got != want {
			t.Errorf("#%d (written %q): problems %v, want some %v", ev.Seq, ev.Written, ev.Problems, want)
		}
	}
}
