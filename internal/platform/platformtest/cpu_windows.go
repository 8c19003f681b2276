package platformtest

import (
	"time"

	"golang.org/x/sys/windows"
)

// ProcessCPU is the CPU time (user and kernel) this process has used so far; 0 when the
// system does not say.
func ProcessCPU() time.Duration {
	var created, exited, kernel, user windows.Filetime
	if windows.GetProcessTimes(windows.CurrentProcess(), &created, &exited, &kernel, &user) != nil {
		return 0
	}
	// Filetime counts 100 ns units.
	ticks := func(f windows.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration((ticks(kernel) + ticks(user)) * 100)
}
