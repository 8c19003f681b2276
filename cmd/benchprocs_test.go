package cmd

import (
	"runtime"
	"testing"
)

// TestBenchProcs holds bench call's GOMAXPROCS to its rule: a second processor only for a
// lone caller in caller-reads mode (elsewhere each response is handed over between
// goroutines, and a second processor makes that a thread wake-up), never more than callers
// or CPUs.
func TestBenchProcs(t *testing.T) {
	cpus := runtime.NumCPU()
	for _, c := range []struct {
		conc        int
		callerReads bool
		want        int
	}{
		{1, true, min(2, cpus)},
		{1, false, 1},
		{3, false, min(3, cpus)},
		{64, false, cpus},
	} {
		if got := benchProcs(c.conc, c.callerReads); got != c.want {
			t.Errorf("benchProcs(%d, %v) = %d, want %d", c.conc, c.callerReads, got, c.want)
		}
	}
}
