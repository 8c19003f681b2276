package platformtest

import "golang.org/x/sys/unix"

// ThreadNice is the calling OS thread's nice value (-20 to 19), or an error.
func ThreadNice() (int, error) {
	prio, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid())
	return 20 - prio, err // the system call's value is 20 - nice
}
