//go:build unix

package platformtest

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time (user and system) this process has used so far; 0 when the
// system does not say (benchmarks report it: it moves much less than the wall clock on a
// shared machine).
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
