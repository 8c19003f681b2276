package trace

import (
	"bytes"
	"io"
	"reflect"
	"testing"
)

// FuzzReader feeds arbitrary bytes to the reader: it must never panic, never yield an event
// past Len, and every line it decodes must encode back to a line that decodes the same.
// Seeds: testdata/fuzz/FuzzReader plus the ones below.
func FuzzReader(f *testing.F) {
	head := `{"format":"mcp-inspect-trace","version":1,"start":"2026-11-29T23:57:30Z","redaction":{"enabled":true}}` + "\n"
	f.Add([]byte(head))
	f.Add([]byte(head + `{"seq":1,"t":"2026-11-29T23:57:30.001Z","mono":1000000,"dir":"c2s","raw":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n","size":46}` + "\n"))
	f.Add([]byte(head + `{"seq":2,"t":"2026-11-29T23:57:30.001Z","mono":5,"dir":"s2c","raw":"x9E=","b64":true,"size":900,"trunc":true,"chunks":[1,2],"nchunks":9}` + "\n"))
	f.Add([]byte(head + `{"seq":3,"mono":7,"dir":"event","life":{"kind":"exited","pid":9,"code":-1,"signal":"KILL","text":"server was killed by signal KILL"}}` + "\n" + `{"seq":4,"dir":"stderr","raw":"boom\n"`))
	f.Add([]byte(head + "\n\r\n" + `{"seq":1,"dir":"s2c","raw":"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{}}"}` + "\n" + `[1,2]` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := OpenReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		n := 0
		for _, err := range tr.Events() {
			_ = err
			n++
			if n > tr.Len() {
				t.Fatalf("Events yielded more than Len=%d items", tr.Len())
			}
		}
		if _, err := ComputeStats(tr); err != nil {
			t.Fatal(err)
		}
		if err := Cat(tr, io.Discard, CatOptions{Escape: true}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < tr.Len(); i++ {
			r, err := tr.Record(i)
			if err != nil {
				continue
			}
			line := appendRecord(nil, r, nil)
			r2, err := decodeRecord(line)
			if err != nil {
				t.Fatalf("re-encoded record does not decode: %v\n%s", err, line)
			}
			r.Wall, r2.Wall = r.Wall.UTC(), r2.Wall.UTC()
			if !r.Wall.Equal(r2.Wall) {
				t.Fatalf("time changed: %v -> %v", r.Wall, r2.Wall)
			}
			r.Wall = r2.Wall
			if len(r.Raw) == 0 {
				r.Raw = nil
			}
			if len(r2.Raw) == 0 {
				r2.Raw = nil
			}
			if !reflect.DeepEqual(r, r2) {
				t.Fatalf("round trip changed the record:\n%+v\n%+v\n%s", r, r2, line)
			}
		}
	})
}
