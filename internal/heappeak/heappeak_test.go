package heappeak

import (
	"testing"
	"time"
)

// A 64 MiB allocation held while sampling shows in the peak.
func TestStartSeesAnAllocation(t *testing.T) {
	stop := Start(time.Millisecond)
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = byte(i)
	}
	time.Sleep(20 * time.Millisecond) // let the sampler see it (a sample, not a timing)
	peak := stop()
	if peak < 64<<20 {
		t.Fatalf("peak %d bytes, below the 64 MiB held", peak)
	}
	_ = b[len(b)-1]
}
