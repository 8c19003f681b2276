package testservers

import (
	"os"
	"path/filepath"
	"testing"
)

// CourseServer returns the argv that runs testdata/servers/course_server.cjs with node: a
// server written the way MCP courses teach it, with LSP-style Content-Length framing
// (issue #14), tools add, echo, divide (isError on b=0) and lookup (-32602 on an unknown
// key). It is a port of the stdlib-only Python original that writes the same bytes. It
// fails the test when node is missing or older than MinNodeMajor.
func CourseServer(t testing.TB) []string {
	t.Helper()
	return scriptArgv(t, "course_server.cjs")
}

// CourseLab1 returns the argv that runs testdata/servers/course_lab1.cjs with node: the
// first lab of an MCP course as students write it (issue 24), framed LSP-style and read
// with blocking reads, so a newline JSON client gets nothing at all; tools conjugate and
// lookup_spanish. It fails the test when node is missing or older than MinNodeMajor.
func CourseLab1(t testing.TB) []string {
	t.Helper()
	return scriptArgv(t, "course_lab1.cjs")
}

// PrintBuffered is the argv of testdata/servers/print_buffered.cjs, a server that prints
// its answers as a Python one does with print() and no flush: after the handshake (flushed)
// they wait in an 8 KiB stdout buffer, unless PYTHONUNBUFFERED is non-empty (issue 24).
// mcp-inspect tells a Python server by its command's name, so argv[0] is node under the
// name python3 (a symlink in the test's temporary directory), and the tests need no
// python3. Run it with PYTHONUNBUFFERED= in its environment, so a machine that sets it does
// not hide the fault. It fails the test when node is missing or older than MinNodeMajor.
func PrintBuffered(t testing.TB) []string {
	t.Helper()
	argv := scriptArgv(t, "print_buffered.cjs")
	python := filepath.Join(t.TempDir(), "python3")
	if err := os.Symlink(argv[0], python); err != nil {
		t.Fatalf("testservers: node as python3: %v", err)
	}
	return []string{python, argv[1]}
}
