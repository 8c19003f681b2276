// Package heappeak measures the peak heap of a piece of work, for the memory targets the
// tests check (issue 15: a flood, a huge message). Timing is not measured here.
package heappeak

import (
	"runtime/metrics"
	"sync"
	"time"
)

// Start samples the heap's object bytes (live objects plus garbage not yet swept: what
// runtime.MemStats calls HeapAlloc, read through runtime/metrics without stopping the
// world) every period until stop is called; stop returns the highest sample, in bytes.
func Start(period time.Duration) (stop func() uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var (
		peak uint64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait() // the sampler's last write happens before this read
		return peak
	}
}
