package tap

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// RuntimeDir is where taps publish their sockets (platform.RuntimeDirs: on Linux
// $XDG_RUNTIME_DIR/mcp-inspect, else /run/user/UID/mcp-inspect when that per-user directory
// exists, else /tmp/mcp-inspect-UID; on macOS $TMPDIR/mcp-inspect; on Windows
// %LOCALAPPDATA%\mcp-inspect\run).
func RuntimeDir() string { return platform.RuntimeDirs()[0] }

// SearchDirs are the directories `attach` looks in: RuntimeDir first, then the other places
// a tap started with a different environment may have used.
func SearchDirs() []string { return platform.RuntimeDirs() }

// ownPrivateDir checks that dir is a real directory (not a symlink) that is ours and private.
func ownPrivateDir(dir string) error { return platform.CheckPrivateDir(dir) }

// ensureDir creates the socket directory private to the user, or checks that an existing
// one is ours and private (tightening one of ours).
func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	err := ownPrivateDir(dir)
	if err != nil && platform.OwnedByUser(dir) {
		if cerr := platform.MakePrivate(dir); cerr == nil {
			return ownPrivateDir(dir)
		}
	}
	return err
}

const socketPrefix, socketSuffix = "tap-", ".sock"

// socketName is the socket file of the tap with process id pid.
func socketName(pid int) string { return socketPrefix + strconv.Itoa(pid) + socketSuffix }

// socketPID parses a socket file name; ok is false for other files.
func socketPID(name string) (int, bool) {
	if !strings.HasPrefix(name, socketPrefix) || !strings.HasSuffix(name, socketSuffix) {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, socketPrefix), socketSuffix))
	return pid, err == nil && pid > 0
}

// processGone reports whether no process pid exists.
func processGone(pid int) bool { return !platform.ProcessExists(pid) }

// cleanStale removes the sockets of taps whose process is gone (a tap killed with SIGKILL
// cannot remove its own).
func cleanStale(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		pid, ok := socketPID(e.Name())
		if !ok || !processGone(pid) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if os.Remove(p) == nil {
			removed = append(removed, p)
		}
	}
	return removed
}

// List returns the taps running in dirs (default SearchDirs()), oldest first, after removing
// the sockets of dead taps. A socket whose process lives but does not answer is left alone
// unless it is old (its pid was reused).
func List(dirs ...string) ([]Info, error) {
	if len(dirs) == 0 {
		dirs = SearchDirs()
	}
	var out []Info
	var errs []error
	for _, dir := range dirs {
		if ownPrivateDir(dir) != nil {
			continue // absent, or not ours: nothing we would trust
		}
		cleanStale(dir)
		entries, err := os.ReadDir(dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, e := range entries {
			if _, ok := socketPID(e.Name()); !ok {
				continue
			}
			p := filepath.Join(dir, e.Name())
			info, err := QueryInfo(p, 2*time.Second)
			if err != nil {
				if platform.IsConnRefused(err) {
					if st, serr := os.Stat(p); serr == nil && time.Since(st.ModTime()) > 10*time.Second {
						_ = os.Remove(p)
					}
				}
				continue
			}
			out = append(out, info)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out, errors.Join(errs...)
}

// Find returns the running taps called name (or whose tap pid is name).
func Find(taps []Info, name string) []Info {
	var out []Info
	for _, t := range taps {
		if t.Name == name || strconv.Itoa(t.PID) == name {
			out = append(out, t)
		}
	}
	return out
}
