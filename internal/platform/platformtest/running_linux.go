package platformtest

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Running reports whether process pid exists and is no zombie (a zombie has ended; in a
// container whose init does not reap, it stays forever).
func Running(pid int) bool {
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return true
	}
	f := strings.Fields(s[i+1:])
	return len(f) == 0 || (f[0] != "Z" && f[0] != "X")
}
