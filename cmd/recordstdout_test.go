package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// TestRecordDashRefused: --record - is a usage error (exit 2) that says traces go to files
// and how to follow one, for a headless command, check and tap (whose stdout is the host's
// side of the wire); no file named "-" (or check's "-.NAME" siblings) is written and the
// server is never started.
func TestRecordDashRefused(t *testing.T) {
	t.Parallel()
	bin := testservers.BuildInspector(t)
	for _, command := range []string{"ping", "check", "tap"} {
		t.Run(command, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			c := exec.Command(bin, cmdline([]string{command, "--record", "-"}, fakeArgv(t, "minimal"))...)
			c.Dir = dir
			c.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir())
			var out, errb bytes.Buffer
			c.Stdout, c.Stderr = &out, &errb
			err := c.Run()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitUsage {
				t.Fatalf("exit %v, want %d; stderr %q", err, exitUsage, errb.String())
			}
			for _, want := range []string{"--record -: traces are written to files", "tail -f"} {
				if !strings.Contains(errb.String(), want) {
					t.Errorf("stderr lacks %q: %q", want, errb.String())
				}
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("files were written: %v", ents)
			}
		})
	}
}
