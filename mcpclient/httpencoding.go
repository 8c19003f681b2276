package mcpclient

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Content-Encoding (RFC 9110 §8.4). mcp-inspect asks for no encoding (the exact bytes are the
// point), but servers and proxies compress anyway: such a body is decoded as it is read (an
// SSE stream event by event), the bytes as received are kept for the wire (up to the
// message limit), and an encoding nobody here decodes is named instead of read as text.

// Encodings lists the content codings the client decodes, as the error names them.
const Encodings = "gzip, deflate, br, zstd"

// EncodingError is a body in a content coding the client cannot decode (compress, an
// unknown token): nothing of it is read as a message.
type EncodingError struct {
	// Encoding is the Content-Encoding header's value.
	Encoding string
	// Err is the decoder's error for a body that claims a known coding but is not in it.
	Err error
}

func (e *EncodingError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("the body says Content-Encoding: %s but does not decode as such: %v; the bytes as received are on the wire", e.Encoding, e.Err)
	}
	return fmt.Sprintf("the server answered with Content-Encoding: %s, which mcp-inspect cannot decode (it decodes %s); the bytes as received are on the wire", e.Encoding, Encodings)
}

// encodedBody is a response body in a content coding: Read gives the decoded bytes, wire
// keeps the bytes as received (up to limit; n counts them all), decoded counts what Read gave.
type encodedBody struct {
	body     io.ReadCloser
	coding   string
	wire     bytes.Buffer
	limit    int
	n        int64
	decoded  int64
	r        io.Reader // the decoder, made at the first Read (it reads the stream's header)
	closeDec func()
	err      error
	emitted  bool
	// readErr is the body's own read error (a cancel, a cut connection): passed on as it
	// is, not taken for a body that does not decode.
	readErr error
}

// wireReader reads the body for the decoder, keeping its own error apart.
type wireReader struct{ b *encodedBody }

func (w wireReader) Read(p []byte) (int, error) {
	n, err := w.b.body.Read(p)
	if err != nil && err != io.EOF {
		w.b.readErr = err
	}
	return n, err
}

// contentCoding is the response's Content-Encoding, "" for none or identity.
func contentCoding(h http.Header) string {
	v := strings.TrimSpace(strings.Join(h.Values("Content-Encoding"), ", "))
	if strings.EqualFold(v, "identity") {
		return ""
	}
	return v
}

// decodeBody wraps resp.Body when the response is content-encoded.
func decodeBody(resp *http.Response, limit int) {
	coding := contentCoding(resp.Header)
	if coding == "" || resp.Body == nil || resp.Body == http.NoBody {
		return
	}
	resp.Body = &encodedBody{body: resp.Body, coding: coding, limit: limit}
	resp.ContentLength = -1
	resp.Uncompressed = true
}

// Write keeps the bytes as received (the tee under the decoder).
func (b *encodedBody) Write(p []byte) (int, error) {
	b.n += int64(len(p))
	if room := b.limit - b.wire.Len(); room > 0 {
		b.wire.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (b *encodedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.r == nil {
		if err := b.open(); err != nil {
			b.err = err
			return 0, err
		}
	}
	n, err := b.r.Read(p)
	b.decoded += int64(n)
	if err != nil && err != io.EOF {
		if b.readErr == nil || !errors.Is(err, b.readErr) {
			err = &EncodingError{Encoding: b.coding, Err: err}
		}
		b.err = err
	}
	return n, err
}

// open makes the decoder chain: codings are listed in the order they were applied, so the
// last is undone first (RFC 9110 §8.4).
func (b *encodedBody) open() error {
	var r io.Reader = io.TeeReader(wireReader{b}, b)
	codings := strings.Split(b.coding, ",")
	var closers []func()
	for i := len(codings) - 1; i >= 0; i-- {
		c := strings.ToLower(strings.TrimSpace(codings[i]))
		var err error
		switch c {
		case "gzip", "x-gzip":
			var g *gzip.Reader
			if g, err = gzip.NewReader(r); err == nil {
				r = g
			}
		case "deflate":
			// RFC 9110 says zlib (RFC 1950); some servers send raw deflate (RFC 1951).
			br := bufio.NewReader(r)
			if head, perr := br.Peek(2); perr == nil && isZlibHeader(head) {
				var z io.ReadCloser
				if z, err = zlib.NewReader(br); err == nil {
					r = z
				}
			} else {
				r = flate.NewReader(br)
			}
		case "br":
			r = brotli.NewReader(r)
		case "zstd":
			var d *zstd.Decoder
			if d, err = zstd.NewReader(r, zstd.WithDecoderConcurrency(1)); err == nil {
				r = d
				closers = append(closers, d.Close)
			}
		case "identity", "":
		default:
			b.drainWire()
			return &EncodingError{Encoding: b.coding}
		}
		if err != nil {
			b.drainWire()
			return &EncodingError{Encoding: b.coding, Err: err}
		}
	}
	b.r = r
	b.closeDec = func() {
		for _, c := range closers {
			c()
		}
	}
	return nil
}

// drainWire reads what is left of a body that cannot be decoded into the wire copy (up to
// the limit), so the bytes as received can be shown.
func (b *encodedBody) drainWire() {
	_, _ = io.Copy(b, io.LimitReader(b.body, int64(b.limit)))
}

// isZlibHeader reports whether two bytes start a zlib stream (RFC 1950 §2.2: CM 8, the
// check bits make CMF*256+FLG a multiple of 31).
func isZlibHeader(h []byte) bool {
	return len(h) == 2 && h[0]&0x0f == 8 && (uint16(h[0])<<8|uint16(h[1]))%31 == 0
}

func (b *encodedBody) Close() error {
	if b.closeDec != nil {
		b.closeDec()
	}
	return b.body.Close()
}

// EncodedNote is the lifecycle note's text for a content-encoded body: the coding and the
// sizes as received and decoded, e.g. "gzip 1.2K → 4.5K".
func EncodedNote(coding string, wire, decoded int64) string {
	return fmt.Sprintf("%s %s → %s", coding, shortSize(wire), shortSize(decoded))
}

// shortSize writes a byte count briefly: 512B, 1.2K, 3.4M.
func shortSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%dB", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1fK", float64(n)/1024)
	}
	return fmt.Sprintf("%.1fM", float64(n)/(1<<20))
}

// emitEncoded puts a content-encoded body on the wire as received (KindHTTPEncoded), once,
// when its reading ended; it returns the body's *EncodingError when it did not decode.
func (c *Client) emitEncoded(resp *http.Response) *EncodingError {
	b := encodedOf(resp.Body)
	if b == nil || b.emitted {
		return nil
	}
	b.emitted = true
	enc := &Encoding{Coding: b.coding, Decoded: b.decoded}
	var ee *EncodingError
	if errors.As(b.err, &ee) {
		enc.Err = ee.Error()
	}
	c.emitHTTP(Event{Dir: HTTPIn, Kind: KindHTTPEncoded, Raw: bytes.Clone(b.wire.Bytes()), Size: b.n, Encoding: enc, Pair: exchangeOf(resp.Body)})
	return ee
}

// DecodeBytes decodes a whole body in the content coding given (a Content-Encoding value),
// at most limit bytes of it: what a trace reader shows for a KindHTTPEncoded event, and
// what the trace writer checks for secrets. An error is an *EncodingError.
func DecodeBytes(coding string, raw []byte, limit int64) ([]byte, error) {
	b := &encodedBody{body: io.NopCloser(bytes.NewReader(raw)), coding: coding}
	defer b.Close()
	return io.ReadAll(io.LimitReader(b, limit))
}
