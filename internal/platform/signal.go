package platform

// SignalNumberOf is the number of the signal of short name name ("TERM" → 15), as Linux
// numbers them (they agree on macOS, except BUS: 10 there; traces carry names, so the
// number is only for messages and exit codes); 0 for a name it does not know.
func SignalNumberOf(name string) int {
	switch name {
	case "HUP":
		return 1
	case "INT":
		return 2
	case "QUIT":
		return 3
	case "ABRT":
		return 6
	case "BUS":
		return 7
	case "KILL":
		return 9
	case "SEGV":
		return 11
	case "PIPE":
		return 13
	case "TERM":
		return 15
	}
	return 0
}

// SignalExitCodeOf is the exit code a shell reports for a process ended by the signal with
// short name name ("KILL" → 137): 128+n, 1 for a name it does not know.
func SignalExitCodeOf(name string) int {
	if n := SignalNumberOf(name); n > 0 {
		return 128 + n
	}
	return 1
}
