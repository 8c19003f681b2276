package cmd

import (
	"io"
	"testing"
)

// blockingRoundTrip is the bare loop's round trip on Windows: its anonymous pipes are
// synchronous (no poller in between), so the *os.File round trip already is the blocking
// one.
func blockingRoundTrip(_ *testing.B, _ io.WriteCloser, _ io.ReadCloser, roundTrip func([]byte)) func(line []byte) {
	return roundTrip
}
