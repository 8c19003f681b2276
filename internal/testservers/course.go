package testservers

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// CourseServer returns the argv that runs testdata/servers/course_server.py: a stdlib-only
// Python server written the way MCP courses teach it, with LSP-style Content-Length framing
// (issue #14), tools add, echo, divide (isError on b=0) and lookup (-32602 on an unknown
// key). It fails the test when python3 is not on PATH (.ci/run installs it).
func CourseServer(t testing.TB) []string {
	t.Helper()
	return pythonScript(t, "course_server.py", "the course server")
}

// CourseLab1 returns the argv that runs testdata/servers/course_lab1.py: the first lab of an
// MCP course as students write it (issue 24), framed LSP-style and read with blocking
// reads, so a newline JSON client gets nothing at all; tools conjugate and lookup_spanish.
// It fails the test when python3 is not on PATH (.ci/run installs it).
func CourseLab1(t testing.TB) []string {
	t.Helper()
	return pythonScript(t, "course_lab1.py", "the course lab")
}

// PrintBuffered is the argv of testdata/servers/print_buffered.py, a Python server that
// prints its answers without flushing: after the handshake (flushed) they wait in its stdout
// buffer (issue 24). Run it with PYTHONUNBUFFERED= in its environment, so a machine that sets
// it does not hide the fault. It fails the test when python3 is not on PATH.
func PrintBuffered(t testing.TB) []string {
	t.Helper()
	return pythonScript(t, "print_buffered.py", "print_buffered.py")
}

// pythonScript is the argv that runs testdata/servers/name with python3; what names it in
// the failure when python3 is not on PATH.
func pythonScript(t testing.TB, name, what string) []string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("testservers: %s needs python3 on PATH: %v", what, err)
	}
	return []string{py, filepath.Join(RepoRoot(t), "testdata", "servers", name)}
}
