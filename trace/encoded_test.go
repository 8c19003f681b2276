package trace

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.Bytes()
}

// A content-encoded body keeps its bytes as received and how they decode through a trace:
// open and cat show the same; when the decoded body holds a secret, the bytes as received are
// not kept (compressed, the secret would pass the redactor unseen).
func TestEncodedBodyInTrace(t *testing.T) {
	red, err := NewRedactor(RedactConfig{Headers: []string{"X-Api-Key: key-987654321"}})
	if err != nil {
		t.Fatal(err)
	}
	plain := `{"jsonrpc":"2.0","id":1,"result":{}}`
	secret := `{"jsonrpc":"2.0","id":2,"result":{"k":"key-987654321"}}`
	path := filepath.Join(t.TempDir(), "t.jsonl")
	w, err := Create(path, Header{Transport: "http", URL: "http://127.0.0.1:1/mcp"}, red)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i, body := range []string{plain, secret} {
		z := gzipped(t, body)
		w.Write(mcpclient.Event{Seq: uint64(2*i + 1), Time: now, Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPEncoded, Raw: z, Size: int64(len(z)),
			Encoding: &mcpclient.Encoding{Coding: "gzip", Decoded: int64(len(body))}})
		w.Write(mcpclient.Event{Seq: uint64(2*i + 2), Time: now, Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPBody, Raw: []byte(body), Size: int64(len(body))})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "key-987654321") {
		t.Fatal("the secret is in the trace")
	}
	tr, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var encs []mcpclient.Event
	for i := range tr.Len() {
		ev, err := tr.Event(i)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == mcpclient.KindHTTPEncoded {
			encs = append(encs, ev)
		}
	}
	if len(encs) != 2 || encs[0].Encoding == nil || encs[0].Encoding.Coding != "gzip" || encs[0].Encoding.Decoded != int64(len(plain)) {
		t.Fatalf("encoded events read back: %+v", encs)
	}
	if got, err := mcpclient.DecodeBytes("gzip", encs[0].Raw, 1<<20); err != nil || string(got) != plain {
		t.Fatalf("the kept bytes decode to %q, %v", got, err)
	}
	if len(encs[1].Raw) != 0 || encs[1].Size == 0 {
		t.Fatalf("the body with a secret kept %d bytes as received", len(encs[1].Raw))
	}
	var out bytes.Buffer
	if err := Cat(tr, &out, CatOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "[gzip body as received") || !strings.Contains(out.String(), "→") {
		t.Fatalf("cat:\n%s", out.String())
	}
}
