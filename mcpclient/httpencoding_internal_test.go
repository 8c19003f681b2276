package mcpclient

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
)

// cutBody gives its bytes, then fails with err (a cancelled stream).
type cutBody struct {
	r   io.Reader
	err error
}

func (c *cutBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err == io.EOF {
		return n, c.err
	}
	return n, err
}

func (c *cutBody) Close() error { return nil }

// A compressed stream cut by a cancel (the GET stream at quit) ends with the cancel, not
// with "does not decode": only the decoder's own errors are EncodingErrors.
func TestEncodedBodyCutIsNotADecodeError(t *testing.T) {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte("event: message\ndata: {}\n\n"))
	z.Flush() // a stream's first event, not its end
	resp := &http.Response{Header: http.Header{"Content-Encoding": {"gzip"}}, Body: &cutBody{r: bytes.NewReader(b.Bytes()), err: context.Canceled}}
	decodeBody(resp, 1<<20)
	got, err := io.ReadAll(resp.Body)
	var ee *EncodingError
	if string(got) != "event: message\ndata: {}\n\n" || !errors.Is(err, context.Canceled) || errors.As(err, &ee) {
		t.Fatalf("read %q, %v", got, err)
	}
}
