package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// copiesScenarios are servers that cannot run several copies at once, as a server that
// holds a lock file or a fixed port cannot.
func copiesScenarios() map[string]*scenario {
	return map[string]*scenario{
		"single-copy": {
			summary: "well-behaved, but holds a lock (on FAKE_LOCK, default $TMPDIR/fakeserver-single-copy-PPID.lock) for its life: a second copy started meanwhile writes why on stderr and exits 1",
			startup: func(s *server) int {
				path := s.getenv("FAKE_LOCK")
				if path == "" {
					// Copies started by one parent (one mcp-inspect) share it; other runs do not.
					path = filepath.Join(os.TempDir(), fmt.Sprintf("fakeserver-single-copy-%d.lock", os.Getppid()))
				}
				f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
				if err != nil {
					s.logf("fakeserver: lock %s: %v", path, err)
					return 1
				}
				if !platform.TryLockExclusive(f) {
					f.Close()
					s.logf("fakeserver: another copy is running: %s is locked", path)
					return 1
				}
				s.lock = f // held until the process exits, which releases it
				return -1
			},
		},
	}
}
