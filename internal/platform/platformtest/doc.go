// Package platformtest holds the OS calls only tests need (FIFOs, POSIX signals and process
// groups, raw descriptor reads and writes for the bare-loop benchmarks, ptys, resource
// usage), so that no test file outside internal/platform imports syscall or
// golang.org/x/sys (internal/tools/seamcheck). Most of it exists on Unix only; the tests
// that use it are built only there (//go:build unix), never skipped at run time.
package platformtest
