package trace

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// DefaultMaxAge is how long an automatic recording is kept after its last write (30 days):
// the store is keyed by size and age, not by count, so that people sharing one account
// (and one state directory) do not push each other's sessions out within minutes.
const DefaultMaxAge = 30 * 24 * time.Hour

// YoungAge is the age (since the last write) under which a removed recording is reported
// in Pruned.Young, for the caller to say so: only the size cap removes one that young.
const YoungAge = 24 * time.Hour

// DefaultMaxBytes is the most bytes the automatic recordings of one sessions directory
// keep together (1 GiB): a flood of notifications makes a session of hundreds of
// megabytes, and a few of those would fill a disk. The settings file's
// sessions_max_size changes it.
const DefaultMaxBytes int64 = 1 << 30

const sessionPrefix = "session-"

// SessionPath names a new automatic recording in dir:
// session-20261129T235730.123Z-4242.jsonl (UTC start time, then the recording process id),
// so names sort by start time.
func SessionPath(dir string, start time.Time, pid int) string {
	stamp := start.UTC().Format("20060102T150405.000Z")
	return filepath.Join(dir, fmt.Sprintf("%s%s-%d.jsonl", sessionPrefix, stamp, pid))
}

// Removal is one recording PruneSessions removed.
type Removal struct {
	Path string
	// Size is its size in bytes; Age the time since its last write (its mtime).
	Size int64
	Age  time.Duration
}

// Pruned is what PruneSessions did and left.
type Pruned struct {
	// Removed are the paths removed, oldest first.
	Removed []string
	// Young are the removed recordings last written less than YoungAge ago (removed for
	// the size cap), oldest first: the caller says so, naming them.
	Young []Removal
	// Sessions and Bytes are the automatic recordings left and their total size.
	Sessions int
	Bytes    int64
	// Running are the recordings left because a process still writes them (MarkRunning),
	// oldest first; RunningBytes is their total size.
	Running      []string
	RunningBytes int64
}

// PruneSessions keeps the automatic recordings (session-*.jsonl) of dir within maxAge and
// maxBytes: a recording last written more than maxAge ago is removed (maxAge <= 0: no age
// limit), then the oldest (by start time, the name) go, whole, until the rest hold at most
// maxBytes together (maxBytes <= 0: no size cap). There is no cap on their number. A
// removed recording last written less than YoungAge ago is listed in Young. A recording that
// a process still writes (its Writer marked it with MarkRunning, in this process or any
// other) is never removed: it counts towards the size, and older finished ones go first,
// then newer ones. Other files are never touched, so a session saved under a name of its
// own stays. The paths in spare (the caller's own session, finished or not marked yet)
// count like running ones and are never removed, nor is any session newer than them: those
// go, oldest first, when a later session prunes. Ages are taken against now.
func PruneSessions(dir string, now time.Time, maxAge time.Duration, maxBytes int64, spare ...string) (Pruned, error) {
	var res Pruned
	entries, err := os.ReadDir(dir)
	if err != nil {
		return res, err
	}
	type file struct {
		name string
		size int64
		age  time.Duration
	}
	var files []file
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(n, sessionPrefix) || !strings.HasSuffix(n, ".jsonl") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		files = append(files, file{n, info.Size(), now.Sub(info.ModTime())})
		res.Bytes += info.Size()
	}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	res.Sessions = len(files)
	overSize := func() bool { return maxBytes > 0 && res.Bytes > maxBytes }
	var firstErr error
	past := false // past a spared path: nothing more is removed
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		past = past || spared(p, spare)
		stale := maxAge > 0 && f.age > maxAge
		if !(stale || overSize()) || past {
			if spared(p, spare) || running(p) {
				res.Running = append(res.Running, p)
				res.RunningBytes += f.size
			}
			continue
		}
		st, size, err := removeFinished(p)
		switch {
		case err != nil:
			if firstErr == nil {
				firstErr = err
			}
		case st == removed || st == vanished:
			if st == removed {
				res.Removed = append(res.Removed, p)
				if f.age < YoungAge {
					res.Young = append(res.Young, Removal{Path: p, Size: size, Age: max(f.age, 0)})
				}
			} else {
				size = f.size // another pruner was first
			}
			res.Sessions--
			res.Bytes -= size
		default:
			res.Running = append(res.Running, p)
			res.RunningBytes += f.size
		}
	}
	return res, firstErr
}

// spared reports whether p is one of the paths PruneSessions must leave.
func spared(p string, spare []string) bool {
	for _, s := range spare {
		if s == p || filepath.Clean(s) == p {
			return true
		}
	}
	return false
}

// removal is what removeFinished did.
type removal int

const (
	kept     removal = iota // a process still writes it (or it was replaced meanwhile)
	removed                 // removed
	vanished                // already gone: another pruner removed it
)

// removeFinished removes the recording at p unless a process still writes it: it takes
// the exclusive lock a running Writer's shared one excludes, and removes the file while
// holding it, so a Writer that opens it meanwhile finds it gone (MarkRunning) and creates
// it again. size is the size removed.
func removeFinished(p string) (removal, int64, error) {
	// Opened so that it can be removed while open (Windows refuses to remove a file open
	// without sharing for delete, and the lock must be held across the removal).
	f, err := platform.OpenRemovable(p)
	if err != nil {
		if os.IsNotExist(err) {
			return vanished, 0, nil
		}
		return kept, 0, err
	}
	defer f.Close()
	if !platform.TryLockExclusive(f) {
		return kept, 0, nil
	}
	st, err := f.Stat()
	if err != nil {
		return kept, 0, err
	}
	if cur, err := os.Stat(p); err != nil || !os.SameFile(st, cur) {
		if os.IsNotExist(err) {
			return vanished, 0, nil
		}
		return kept, 0, nil // replaced meanwhile: leave the new file alone
	}
	if err := os.Remove(p); err != nil {
		if os.IsNotExist(err) {
			return vanished, 0, nil
		}
		if platform.InUse(err) {
			return kept, 0, nil // open elsewhere (a viewer, on Windows): in use
		}
		return kept, 0, err
	}
	return removed, st.Size(), nil
}

// running reports whether a process still writes the recording at p.
func running(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	return !platform.TryLockExclusive(f) // the lock goes with the close
}

// MarkRunning marks the trace f, just opened at path, as one a process is writing, so that
// PruneSessions (in any process) leaves it alone while f is open: it takes a shared lock
// on f (platform.LockShared: flock(2), LockFileEx on Windows), released when f is closed. It reports false when a pruner removed the
// file between its creation and the lock: the caller then creates it again. A file system
// without locks is no error (the lock is then not taken).
func MarkRunning(f *os.File, path string) bool {
	platform.LockShared(f)
	st, err := f.Stat()
	if err != nil {
		return true
	}
	cur, err := os.Stat(path)
	return err == nil && os.SameFile(st, cur)
}
