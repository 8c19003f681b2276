package fake

import (
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"io"
	"net/http"
	"sync"

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

// encodingWriter compresses a response as a compressing proxy does: the header gets
// Content-Encoding when the body starts (a status written first waits for it; a status
// without a body, 202 included, stays plain), Flush pushes a whole SSE event out.
type encodingWriter struct {
	http.ResponseWriter
	coding string
	enc    io.WriteCloser
	// make, when set, makes the compressor in place of encoders[coding]; done, when set,
	// gets it back once the body is closed.
	make func(io.Writer) (io.WriteCloser, string)
	done func(io.WriteCloser)
	// code is a status written before any body, held until the body starts; plain is set
	// once the header went out without Content-Encoding.
	code  int
	plain bool
}

func newEncodingWriter(w http.ResponseWriter, coding string) *encodingWriter {
	return &encodingWriter{ResponseWriter: w, coding: coding}
}

func (e *encodingWriter) WriteHeader(code int) {
	switch {
	case code < 200, code == http.StatusAccepted, code == http.StatusNoContent, code == http.StatusNotModified:
		e.plain = true
		e.ResponseWriter.WriteHeader(code)
	default:
		e.code = code
	}
}

// start makes the compressor, names it in the header and sends the header.
func (e *encodingWriter) start() {
	if e.enc != nil {
		return
	}
	mk := e.make
	if mk == nil {
		mk = encoders[e.coding]
	}
	var name string
	e.enc, name = mk(e.ResponseWriter)
	e.Header().Set("Content-Encoding", name)
	e.Header().Del("Content-Length")
	if e.code != 0 {
		e.ResponseWriter.WriteHeader(e.code)
	}
}

func (e *encodingWriter) Write(p []byte) (int, error) {
	if e.plain {
		return e.ResponseWriter.Write(p)
	}
	e.start()
	return e.enc.Write(p)
}

func (e *encodingWriter) Flush() {
	if e.plain {
		return
	}
	if e.enc == nil && e.code == 0 {
		return // nothing written: the header must still get Content-Encoding
	}
	e.start() // a streaming proxy flushes the header before the first event
	if f, ok := e.enc.(flusher); ok {
		_ = f.Flush()
	}
	if f, ok := e.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (e *encodingWriter) close() {
	switch {
	case e.enc != nil:
		_ = e.enc.Close()
		if e.done != nil {
			e.done(e.enc)
		}
	case e.code != 0 && !e.plain:
		e.ResponseWriter.WriteHeader(e.code) // no body came: the status goes out plain
	}
}

// Compressing serves h with every answer body compressed with coding (a name of the HTTP
// scenarios: gzip, deflate, deflate-raw, br, zstd), whatever the request asked for, SSE
// events flushed one by one: a compressing proxy or framework in front of a server. Gzip
// writers are reused, as such servers do (a new one costs more than the compressing). It
// returns h unchanged for an unknown coding.
func Compressing(h http.Handler, coding string) http.Handler {
	if _, ok := encoders[coding]; !ok {
		return h
	}
	var pool sync.Pool
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ew := newEncodingWriter(w, coding)
		if coding == "gzip" {
			ew.make = func(w io.Writer) (io.WriteCloser, string) {
				z, ok := pool.Get().(*gzip.Writer)
				if !ok {
					return gzip.NewWriter(w), "gzip"
				}
				z.Reset(w)
				return z, "gzip"
			}
			ew.done = func(z io.WriteCloser) { pool.Put(z) }
		}
		defer ew.close()
		h.ServeHTTP(ew, r)
	})
}
