package platform

import "golang.org/x/sys/unix"

// BackgroundNice is how many nice values LowerThreadPriority adds to a thread's on Linux
// (up to 19): a little less CPU than the threads a user is timing when a CPU is contended (a
// share of about a third against theirs), not so little that the work falls far behind on a
// busy machine.
const BackgroundNice = 5

// LowerThreadPriority adds BackgroundNice to the calling OS thread's nice value (Linux's
// nice is per thread; adding, never setting, so a `nice -n 10 mcp-inspect` stays at least
// that low), for a goroutine locked to its thread (runtime.LockOSThread) that does background
// work: bench call --record's recorder, whose bursts on one CPU held off the server and the
// caller woken on it (--record cost about 14 % of the calls/s at the same priority, 5 to 8 %
// below it). An error (a seccomp filter, say) leaves the priority as it was: the work is the
// same, only scheduled as before.
func LowerThreadPriority() {
	tid := unix.Gettid()
	prio, err := unix.Getpriority(unix.PRIO_PROCESS, tid)
	if err != nil {
		return
	}
	nice := 20 - prio // the system call's value is 20 - nice, 1 to 40
	_ = unix.Setpriority(unix.PRIO_PROCESS, tid, min(nice+BackgroundNice, 19))
}
