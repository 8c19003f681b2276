//go:build unix

package cmd

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
)

// blockingRoundTrip is the bare loop's round trip on blocking descriptors: write(2) and
// read(2), nothing of Go's runtime in between.
func blockingRoundTrip(b *testing.B, in io.WriteCloser, rawOut io.ReadCloser, _ func([]byte)) func(line []byte) {
	// Fd puts each descriptor in blocking mode (out of the poller) and keeps it open.
	wfd, rfd := int(in.(*os.File).Fd()), int(rawOut.(*os.File).Fd())
	buf := make([]byte, 64<<10)
	have := 0 // bytes of the next response already read
	return func(line []byte) {
		for len(line) > 0 {
			n, err := platformtest.WriteFD(wfd, line)
			if err != nil {
				b.Fatal(err)
			}
			line = line[max(n, 0):]
		}
		for {
			if i := bytes.IndexByte(buf[:have], '\n'); i >= 0 {
				have = copy(buf, buf[i+1:have])
				return
			}
			n, err := platformtest.ReadFD(rfd, buf[have:])
			if err != nil || n == 0 {
				b.Fatalf("read: %d bytes, %v", n, err)
			}
			have += n
		}
	}
}
