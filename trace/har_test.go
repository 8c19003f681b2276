package trace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// A recorded session against a compressing server exports as HAR 1.2: one entry per HTTP
// request, each with its response (status, decoded body, the bytes as received counted),
// paired by exchange, and no credential in the clear.
func TestHARExport(t *testing.T) {
	_, url := fake.HTTPServer(t, "http-gzip-sse", fake.HTTPOptions{})
	path := filepath.Join(t.TempDir(), "s.jsonl")
	red, _ := trace.NewRedactor(trace.RedactConfig{})
	w, err := trace.Create(path, trace.Header{Transport: "http", URL: url}, red)
	if err != nil {
		t.Fatal(err)
	}
	h := map[string][]string{"Authorization": {"Bearer s3cret-token"}}
	c, err := mcpclient.Start(mcpclient.Config{URL: url, Header: h, Timeout: 5 * time.Second, OnEvent: func(ev mcpclient.Event) { w.Write(ev) }})
	if err != nil {
		t.Fatal(err)
	}
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		for range c.Events() {
		}
	}()
	ctx := context.Background()
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.CallTool(ctx, "echo", json.RawMessage(`{"text":"hé"}`)); err != nil {
		t.Fatal(err)
	}
	c.Close()
	<-drained // every event reached OnEvent, and so the trace
	w.Close()
	tr, err := trace.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var out bytes.Buffer
	n, err := trace.HAR(tr, &out, "test")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "s3cret-token") {
		t.Fatal("the bearer token is in the HAR")
	}
	var doc struct {
		Log struct {
			Version string
			Entries []struct {
				Request struct {
					Method, URL string
					PostData    *struct{ Text string }
				}
				Response struct {
					Status   int
					BodySize int64
					Content  struct {
						Size        int64
						Compression int64
						Text        string
					}
				}
				Timings struct{ Send, Wait, Receive float64 }
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if doc.Log.Version != "1.2" || n != len(doc.Log.Entries) || n < 3 {
		t.Fatalf("version %q, %d entries (n %d)", doc.Log.Version, len(doc.Log.Entries), n)
	}
	calls := 0
	for _, e := range doc.Log.Entries {
		if e.Request.URL != url || e.Response.Status == 0 {
			t.Errorf("entry %s %s: status %d", e.Request.Method, e.Request.URL, e.Response.Status)
		}
		if e.Request.PostData != nil && strings.Contains(e.Request.PostData.Text, `"tools/call"`) {
			calls++
			r := e.Response
			if !strings.Contains(r.Content.Text, `"text":"hé"`) || r.BodySize <= 0 || r.Content.Size-r.BodySize != r.Content.Compression {
				t.Errorf("tools/call response: %+v", r)
			}
		}
	}
	if calls != 1 {
		t.Errorf("%d tools/call entries", calls)
	}
}
