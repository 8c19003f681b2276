//go:build unix && !linux

package platformtest

// maxrssUnit: macOS reports ru_maxrss in bytes (the BSDs in kilobytes; only macOS is built).
const maxrssUnit = 1
