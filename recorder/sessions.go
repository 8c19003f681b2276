package recorder

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// DefaultKeep is how many automatic recordings a sessions directory keeps.
const DefaultKeep = 20

const sessionPrefix = "session-"

// SessionPath names a new automatic recording in dir:
// session-20261129T235730.123Z-4242.jsonl (UTC start time, then the recording process id),
// so names sort by start time.
func SessionPath(dir string, start time.Time, pid int) string {
	stamp := start.UTC().Format("20060102T150405.000Z")
	return filepath.Join(dir, fmt.Sprintf("%s%s-%d.jsonl", sessionPrefix, stamp, pid))
}

// PruneSessions removes the oldest automatic recordings (session-*.jsonl) of dir until keep
// remain, and returns the paths removed. Other files are never touched, so a session saved
// under a name of its own stays.
func PruneSessions(dir string, keep int) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.Type().IsRegular() && strings.HasPrefix(n, sessionPrefix) && strings.HasSuffix(n, ".jsonl") {
			names = append(names, n)
		}
	}
	if len(names) <= keep {
		return nil, nil
	}
	sort.Strings(names)
	var removed []string
	var firstErr error
	for _, n := range names[:len(names)-keep] {
		p := filepath.Join(dir, n)
		if err := os.Remove(p); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		removed = append(removed, p)
	}
	return removed, firstErr
}
