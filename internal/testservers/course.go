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
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("testservers: the course server needs python3 on PATH: %v", err)
	}
	return []string{py, filepath.Join(RepoRoot(t), "testdata", "servers", "course_server.py")}
}

// CourseLab1 returns the argv that runs testdata/servers/course_lab1.py: the first lab of an
// MCP course as students write it (issue 24), framed LSP-style and read with blocking
// reads, so a newline JSON client gets nothing at all; tools conjugate and lookup_spanish.
// It fails the test when python3 is not on PATH (.ci/run installs it).
func CourseLab1(t testing.TB) []string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("testservers: the course lab needs python3 on PATH: %v", err)
	}
	return []string{py, filepath.Join(RepoRoot(t), "testdata", "servers", "course_lab1.py")}
}
