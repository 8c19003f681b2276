package tap

import (
	"bufio"
	"strings"
	"testing"
)

// TestReadHead reads heads as the tap meets them, through a 16-byte buffer so that long
// lines arrive in pieces: the exact bytes are kept and the framing headers are found in any
// case and spacing; a stray blank line before a request is dropped.
func TestReadHead(t *testing.T) {
	long := strings.Repeat("v", 100)
	cases := []struct {
		in, raw, first, ctype string
		length                int64
		chunked, close        bool
	}{
		{in: "POST /mcp HTTP/1.1\r\nHost: h\r\ncontent-LENGTH:  12 \r\nX-Long: " + long + "\r\n\r\nbody",
			first: "POST /mcp HTTP/1.1", length: 12},
		{in: "\r\nGET /" + long + " HTTP/1.1\r\nConnection: keep-alive, Close\r\n\r\n",
			raw: "GET /" + long + " HTTP/1.1\r\nConnection: keep-alive, Close\r\n\r\n", first: "GET /" + long + " HTTP/1.1", length: -1, close: true},
		{in: "HTTP/1.1 200 OK\nContent-Type: Text/Event-Stream; charset=utf-8\nTRANSFER-ENCODING:gzip, Chunked\n\n",
			first: "HTTP/1.1 200 OK", ctype: "text/event-stream; charset=utf-8", length: -1, chunked: true},
		{in: "HTTP/1.1 204 No Content\r\nX-Content-Length: 5\r\nnot a header\r\n\r\n", first: "HTTP/1.1 204 No Content", length: -1},
	}
	for _, c := range cases {
		br := bufio.NewReaderSize(strings.NewReader(c.in), 16)
		h, err := readHead(br)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		raw := c.raw
		if raw == "" {
			raw, _, _ = strings.Cut(c.in, "\r\n\r\n")
			raw += "\r\n\r\n"
			if !strings.Contains(c.in, "\r\n\r\n") {
				raw, _, _ = strings.Cut(c.in, "\n\n")
				raw += "\n\n"
			}
		}
		if string(h.raw) != raw || h.first != c.first || h.contentType != c.ctype || h.contentLength != c.length || h.chunked != c.chunked || h.closeConn != c.close {
			t.Errorf("%q:\ngot  raw %q first %q ctype %q length %d chunked %v close %v", c.in, h.raw, h.first, h.contentType, h.contentLength, h.chunked, h.closeConn)
		}
	}
	if _, err := readHead(bufio.NewReader(strings.NewReader("HTTP/1.1 200 OK\r\nA: b\r\n"))); err == nil {
		t.Error("a head cut short read without an error")
	}
}
