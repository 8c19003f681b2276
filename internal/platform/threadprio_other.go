//go:build !linux

package platform

// LowerThreadPriority does nothing here: macOS and Windows have no per-thread nice value
// (their thread priorities are a different scale, and bench call there runs without the
// second processor whose sharing this is for; see the Linux file).
func LowerThreadPriority() {}
