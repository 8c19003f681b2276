package fake

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Compressing acts as a compressing proxy: a status written before the body still gets
// Content-Encoding (a reverse proxy writes the header first), a status with no body stays
// plain, and what is written decodes back.
func TestCompressing(t *testing.T) {
	h := Compressing(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/empty" {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, "data: one\n\n")
		w.(http.Flusher).Flush()
		io.WriteString(w, "data: two\n\n")
	}), "gzip")
	srv := httptest.NewServer(h)
	defer srv.Close()
	tr := &http.Transport{DisableCompression: true}
	for range 2 { // the second stream reuses the pooled gzip writer
		resp, err := (&http.Client{Transport: tr}).Get(srv.URL + "/stream")
		if err != nil {
			t.Fatal(err)
		}
		if resp.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("Content-Encoding %q", resp.Header.Get("Content-Encoding"))
		}
		z, err := gzip.NewReader(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(z)
		resp.Body.Close()
		if string(b) != "data: one\n\ndata: two\n\n" {
			t.Fatalf("decoded %q", b)
		}
	}
	resp, err := (&http.Client{Transport: tr}).Get(srv.URL + "/empty")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 || resp.Header.Get("Content-Encoding") != "" {
		t.Fatalf("empty answer: %d, Content-Encoding %q", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
}
