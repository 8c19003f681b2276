//go:build unix

package trace_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"

	"github.com/mcp-inspect/mcp-inspect/trace"
)

// A FIFO without a writer and a device are refused at once, saying why; a FIFO is never
// waited on.
func TestOpenSpecialFiles(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := platformtest.Mkfifo(p); err != nil {
		t.Fatal(err)
	}
	if _, err := trace.Open(p); err == nil || !strings.Contains(err.Error(), "writer") {
		t.Fatalf("FIFO: %v", err)
	}
	if _, err := trace.Open("/dev/zero"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("/dev/zero: %v", err)
	}
}
