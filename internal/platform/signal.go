package platform

// unixSignalNumbers are the signal numbers shells use for 128+n exit codes and trace
// records name, as Linux numbers them (the numbers of these names agree on macOS, except
// BUS: 10 there; traces carry names, so the number is only for the exit code).
func unixSignalNumber(name string) int {
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
	if n := unixSignalNumber(name); n > 0 {
		return 128 + n
	}
	return 1
}
