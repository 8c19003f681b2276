package mcpclient

import (
	"io"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// The tail a pending request's stream keeps holds the bytes after the last returned frame
// only: a megabyte of whole events leaves it with the open event, in a buffer that does
// not grow with the stream.
func TestSSETailHoldsOnlyTheOpenEvent(t *testing.T) {
	event := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n\n"
	open := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"
	stream := strings.Repeat(event, (1<<20)/len(event)) + open
	tail := &sseTail{r: &chunked{s: stream, n: 512}, timer: time.NewTimer(time.Hour)}
	defer tail.timer.Stop()
	r := NewSSEReader(tail)
	peak, sawOpen := 0, false
	arrays := map[*byte]bool{}
	for {
		fr, err := r.Next()
		if fr.Unterminated {
			sawOpen = true
			if got := string(tail.buf); got != open {
				t.Fatalf("before the open event is taken the tail holds %q", got)
			}
		}
		tail.consumed(len(fr.Raw))
		peak = max(peak, cap(tail.buf))
		if cap(tail.buf) > 0 {
			arrays[unsafe.SliceData(tail.buf[:1])] = true
		}
		if err != nil {
			break
		}
	}
	if !sawOpen {
		t.Fatal("the open event at the stream's end was not returned")
	}
	if peak > 8<<10 || len(arrays) > 4 {
		t.Fatalf("over a stream of %d bytes the tail's buffer grew to %d bytes and was allocated %d times", len(stream), peak, len(arrays))
	}
}

// chunked reads s n bytes at a time, as a socket does.
type chunked struct {
	s string
	n int
}

func (c *chunked) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[k:]
	return k, nil
}
