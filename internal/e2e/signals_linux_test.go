//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
)

func TestSignalsLeaveNoOrphans(t *testing.T) {
	for _, sig := range []os.Signal{platformtest.SIGTERM, platformtest.SIGHUP, platformtest.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			s := inspect(t, 120, 30, "demo")
			s.WaitFor(t, wait, "connected")
			pid := serverPID(t, s)
			b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
			if err != nil {
				t.Fatal(err)
			}
			fields := strings.Fields(string(b)[strings.LastIndexByte(string(b), ')')+1:])
			inspector, _ := strconv.Atoi(fields[1])
			if err := platformtest.Signal(inspector, sig); err != nil {
				t.Fatal(err)
			}
			waitDead(t, pid, "demo server after "+sig.String()+" to the inspector")
		})
	}
}
