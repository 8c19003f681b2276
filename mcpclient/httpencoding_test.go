package mcpclient_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// R06: bodies and SSE streams compressed with gzip, deflate (zlib or raw), br or zstd, asked
// for or not, are decoded: the calls work, each body is on the wire as received with how it
// decodes, and nothing is reported as not JSON.
func TestHTTPContentEncodingDecoded(t *testing.T) {
	for _, sc := range []string{"http-gzip", "http-deflate", "http-deflate-raw", "http-br", "http-zstd",
		"http-gzip-sse", "http-deflate-sse", "http-br-sse", "http-zstd-sse"} {
		t.Run(sc, func(t *testing.T) {
			_, url := fake.HTTPServer(t, sc, fake.HTTPOptions{})
			s := connectHTTP(t, mcpclient.Config{URL: url, Timeout: 5 * time.Second})
			ctx := context.Background()
			res, _, err := s.c.CallTool(ctx, "echo", []byte(`{"text":"héllo"}`))
			if err != nil || len(res.Content) != 1 || res.Content[0].Text != "héllo" {
				t.Fatalf("tools/call: %+v, %v", res, err)
			}
			evs := s.close()
			want := strings.TrimSuffix(strings.TrimPrefix(sc, "http-"), "-sse")
			want = strings.TrimSuffix(want, "-raw")
			encoded, messages := 0, 0
			for _, ev := range evs {
				switch {
				case ev.Kind == mcpclient.KindHTTPEncoded:
					encoded++
					if ev.Encoding == nil || ev.Encoding.Coding != want || ev.Encoding.Err != "" || ev.Encoding.Decoded == 0 || ev.Size == 0 || len(ev.Raw) == 0 {
						t.Errorf("encoded event: %+v (size %d, %d bytes)", ev.Encoding, ev.Size, len(ev.Raw))
					}
				case ev.Dir == mcpclient.ServerToClient:
					messages++
					if !ev.Kind.IsMessage() {
						t.Errorf("server frame #%d is %s: %q", ev.Seq, ev.Kind, ev.Raw)
					}
				}
				for _, p := range ev.Problems {
					t.Errorf("problem on #%d: %s", ev.Seq, p.Text)
				}
			}
			if encoded < 2 { // initialize and tools/call at least
				t.Errorf("%d encoded bodies on the wire", encoded)
			}
			if strings.HasSuffix(sc, "-sse") && messages < 3 { // initialize's answer, the log, the result
				t.Errorf("%d server messages: the SSE events were not all decoded", messages)
			}
		})
	}
}

// R07: an encoding nobody here decodes is named, not read as text.
func TestHTTPContentEncodingUnknownNamed(t *testing.T) {
	_, url := fake.HTTPServer(t, "http-compress", fake.HTTPOptions{})
	s := startHTTP(t, mcpclient.Config{URL: url, Timeout: 5 * time.Second})
	_, err := s.c.Connect(context.Background())
	var ee *mcpclient.EncodingError
	if !errors.As(err, &ee) || ee.Encoding != "compress" || !strings.Contains(err.Error(), "cannot decode") {
		t.Fatalf("initialize: %v, want an EncodingError naming compress", err)
	}
	seen := false
	for _, ev := range s.close() {
		if ev.Kind == mcpclient.KindHTTPEncoded {
			seen = ev.Encoding != nil && ev.Encoding.Err != "" && len(ev.Raw) > 0
		}
		if ev.Dir == mcpclient.ServerToClient {
			t.Errorf("a body in an unknown coding was read as a message: %q", ev.Raw)
		}
	}
	if !seen {
		t.Error("the body as received is not on the wire with why it did not decode")
	}
}

// DecodeBytes decodes what the wire kept, as a trace reader does.
func TestDecodeBytes(t *testing.T) {
	if _, err := mcpclient.DecodeBytes("gzip", []byte("not gzip"), 1<<20); err == nil {
		t.Fatal("garbage decoded as gzip")
	}
	var ee *mcpclient.EncodingError
	if _, err := mcpclient.DecodeBytes("compress", []byte("x"), 1<<20); !errors.As(err, &ee) {
		t.Fatalf("compress: %v", err)
	}
}
