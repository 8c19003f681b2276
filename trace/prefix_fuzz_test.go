package trace

import (
	"bytes"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// prefixTrace is a small trace of every kind of line: frames (one binary), stderr, a
// lifecycle event.
func prefixTrace(t testing.TB) []byte {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Tool: "fuzz"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	evs := []mcpclient.Event{
		{Dir: mcpclient.ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize"}` + "\n")},
		{Dir: mcpclient.ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n")},
		{Dir: mcpclient.Stderr, Raw: []byte("warn \xff\n")},
		{Dir: mcpclient.ServerToClient, Raw: []byte("\x00\x01binary")},
		{Dir: mcpclient.Lifecycle, Life: &mcpclient.LifeInfo{Kind: mcpclient.LifeExited, Text: "server exited with code 0"}},
	}
	for i := range evs {
		evs[i].Seq, evs[i].Time = uint64(i+1), now.Add(time.Duration(i)*time.Millisecond)
		evs[i].Size = int64(len(evs[i].Raw))
		if err := w.Write(evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// FuzzTracePrefix reads a trace cut at any byte, with any bytes after the cut (a recording
// killed mid-write, then garbage): no panic; every event line complete before the cut is
// read back exactly as in the whole trace; at most the cut line comes on top.
func FuzzTracePrefix(f *testing.F) {
	whole := prefixTrace(f)
	f.Add(uint(len(whole)), []byte(nil))
	f.Add(uint(len(whole)/2), []byte("{\"seq\":"))
	f.Add(uint(40), []byte("\n\n"))
	f.Fuzz(func(t *testing.T, cut uint, tail []byte) {
		full, err := OpenReader(bytes.NewReader(whole), int64(len(whole)))
		if err != nil {
			t.Fatal(err)
		}
		n := int(cut % uint(len(whole)+1))
		data := append(append([]byte(nil), whole[:n]...), tail...)
		tr, err := OpenReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return // the header itself was cut
		}
		complete := 0 // event lines that end before the cut
		for i := 0; i < full.Len(); i++ {
			if full.offsets[i+1] <= int64(n) {
				complete++
			}
		}
		if tr.Len() < complete {
			t.Fatalf("cut at %d: %d events, want at least the %d complete ones", n, tr.Len(), complete)
		}
		for i := 0; i < complete; i++ {
			a, err1 := tr.Record(i)
			b, err2 := full.Record(i)
			if err1 != nil || err2 != nil || !bytes.Equal(a.Raw, b.Raw) || a.Seq != b.Seq {
				t.Fatalf("cut at %d: event %d reads %v %v", n, i, err1, err2)
			}
		}
	})
}
