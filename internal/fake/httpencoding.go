package fake

import (
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"io"
	"net/http"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// encoders make a compressing writer per Content-Encoding the HTTP scenarios send; the
// name "deflate-raw" sends raw deflate (RFC 1951) under "deflate", as some servers do, and
// "compress" sends bytes no client decodes.
var encoders = map[string]func(io.Writer) (io.WriteCloser, string){
	"gzip":        func(w io.Writer) (io.WriteCloser, string) { return gzip.NewWriter(w), "gzip" },
	"deflate":     func(w io.Writer) (io.WriteCloser, string) { return zlib.NewWriter(w), "deflate" },
	"deflate-raw": func(w io.Writer) (io.WriteCloser, string) { z, _ := flate.NewWriter(w, 5); return z, "deflate" },
	"br":          func(w io.Writer) (io.WriteCloser, string) { return brotli.NewWriter(w), "br" },
	"zstd": func(w io.Writer) (io.WriteCloser, string) {
		z, _ := zstd.NewWriter(w, zstd.WithEncoderConcurrency(1))
		return z, "zstd"
	},
	"compress": func(w io.Writer) (io.WriteCloser, string) { return nopCloser{w}, "compress" },
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// flusher is a compressor that can push what it holds (gzip, zlib, flate, brotli, zstd).
type flusher interface{ Flush() error }

// encodingWriter compresses a response: the header gets Content-Encoding at the first
// write (a 202 without a body stays plain), Flush pushes a whole SSE event out.
type encodingWriter struct {
	http.ResponseWriter
	coding string
	enc    io.WriteCloser
}

func newEncodingWriter(w http.ResponseWriter, coding string) *encodingWriter {
	return &encodingWriter{ResponseWriter: w, coding: coding}
}

func (e *encodingWriter) Write(p []byte) (int, error) {
	if e.enc == nil {
		var name string
		e.enc, name = encoders[e.coding](e.ResponseWriter)
		e.Header().Set("Content-Encoding", name)
		e.Header().Del("Content-Length")
	}
	return e.enc.Write(p)
}

func (e *encodingWriter) Flush() {
	if e.enc == nil {
		return // nothing written: the header must still get Content-Encoding
	}
	if f, ok := e.enc.(flusher); ok {
		_ = f.Flush()
	}
	if f, ok := e.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (e *encodingWriter) close() {
	if e.enc != nil {
		_ = e.enc.Close()
	}
}
