//go:build unix

package themes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
)

// TestLoadThemeNotAFile: a theme file that is a device, an endless file, a FIFO or too big
// is refused at once, not read without end.
func TestLoadThemeNotAFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.toml")); err != nil {
		t.Fatal(err)
	}
	if err := platformtest.Mkfifo(filepath.Join(dir, "fifo.toml")); err != nil {
		t.Fatal(err)
	}
	writeTheme(t, dir, "big", "# "+strings.Repeat("x", MaxFileSize)+"\n")
	for _, name := range []string{"zero", "fifo", "big"} {
		if _, err := Load(name, dir, false); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, name+".toml")) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
