package trace

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// A secret masked inside a Content-Length frame leaves the header true to the body, so
// the trace does not read as a frame the stream cut short (tester's report, issue #14).
func TestRedactRefitsContentLength(t *testing.T) {
	r, err := NewRedactor(RedactConfig{Env: []string{"SECRET=abandon-ship-now"}})
	if err != nil {
		t.Fatal(err)
	}
	body := `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"abandon-ship-now"}]}}`
	for _, tc := range []struct{ name, hdr, body string }{
		{"whole", "Content-Length: " + itoa(len(body)) + "\r\n\r\n", body},
		{"lower-case name, two headers", "content-length:" + itoa(len(body)) + "\r\nContent-Type: application/json\r\n\r\n", body},
		{"cut short by 5 bytes", "Content-Length: " + itoa(len(body)+5) + "\r\n\r\n", body},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, hits := r.Bytes([]byte(tc.hdr + tc.body))
			if len(hits) == 0 {
				t.Fatal("nothing masked")
			}
			hdr, got, ok := mcpclient.SplitHeader(out)
			if !ok || strings.Contains(string(got), "abandon") {
				t.Fatalf("masked frame %q", out)
			}
			want := len(got)
			if tc.name == "cut short by 5 bytes" {
				want += 5
			}
			if !strings.Contains(strings.ToLower(string(hdr)), "content-length: "+itoa(want)+"\r\n") {
				t.Errorf("header %q, want length %d for a %d-byte body", hdr, want, len(got))
			}
			if tc.name == "lower-case name, two headers" && !strings.Contains(string(hdr), "Content-Type: application/json\r\n") {
				t.Errorf("other header lost: %q", hdr)
			}
		})
	}
}

// A masked frame read back from a trace is whole: its size is the bytes kept, not the
// size received, or the wire pane says --max-message cut it.
func TestRedactedRecordIsWhole(t *testing.T) {
	rec := &Record{Seq: 7, Dir: mcpclient.ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{"t":"***"}}` + "\n"), Size: 70, Redacted: []string{"SECRET"}}
	ev := rec.event(time.Time{}, false)
	if ev.Size != int64(len(rec.Raw)) || ev.Kind != mcpclient.KindResponse {
		t.Errorf("size %d kind %v, want %d and a response", ev.Size, ev.Kind, len(rec.Raw))
	}
	rec.Truncated = true
	if ev := rec.event(time.Time{}, false); ev.Size != 70 {
		t.Errorf("a truncated frame's size %d, want the size received", ev.Size)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
