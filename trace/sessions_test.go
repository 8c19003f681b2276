package trace_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// oldSessions writes n finished sessions of size bytes each into dir, a minute apart from
// 2026-01-01, and returns their paths, oldest first.
func oldSessions(t *testing.T, dir string, n, size int) []string {
	t.Helper()
	var paths []string
	for i := range n {
		p := trace.SessionPath(dir, time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC), 100+i)
		if err := os.WriteFile(p, bytes.Repeat([]byte("x"), size), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// runningSession starts recording a session into dir (a Writer, so marked running) and
// writes size bytes of one frame to it.
func runningSession(t *testing.T, dir string, at time.Time, size int) *trace.Writer {
	t.Helper()
	w, err := trace.CreateNew(trace.SessionPath(dir, at, os.Getpid()), trace.Header{Tool: "test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	if err := w.Write(bigFrame(size)); err != nil {
		t.Fatal(err)
	}
	return w
}

func bigFrame(size int) mcpclient.Event {
	return mcpclient.Event{Seq: 1, Time: time.Now(), Dir: mcpclient.ServerToClient, Kind: mcpclient.KindNotification, Raw: bytes.Repeat([]byte("y"), size)}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestPruneSessionsBySize: beyond the size cap the oldest sessions go first, whole, until
// the rest fits; files that are not automatic sessions stay; the count bound still holds.
func TestPruneSessionsBySize(t *testing.T) {
	dir := t.TempDir()
	paths := oldSessions(t, dir, 6, 1<<20)
	other := filepath.Join(dir, "saved-by-name.jsonl")
	os.WriteFile(other, bytes.Repeat([]byte("z"), 5<<20), 0o600)
	res, err := trace.PruneSessions(dir, time.Now(), trace.DefaultMaxAge, 3<<20+1<<19)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Removed, paths[:3]) || res.Sessions != 3 || res.Bytes != 3<<20 {
		t.Errorf("pruned %v, left %d sessions of %d bytes; want the 3 oldest gone and 3 MiB left", res.Removed, res.Sessions, res.Bytes)
	}
	for i, p := range paths {
		if exists(p) != (i >= 3) {
			t.Errorf("%s: exists %v", filepath.Base(p), exists(p))
		}
	}
	if !exists(other) {
		t.Error("a file not named session-*.jsonl was removed")
	}
}

// plant writes a finished session of size bytes started at start and last written at
// mtime.
func plant(t *testing.T, dir string, start, mtime time.Time, size int) string {
	t.Helper()
	p := trace.SessionPath(dir, start, 1)
	if err := os.WriteFile(p, bytes.Repeat([]byte("x"), size), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPruneSessionsByAgeAndSize: the store is keyed by age and size, not by count: a
// session last written over DefaultMaxAge ago goes even under the size cap, 25 small
// recent ones all stay (past the old cap of 20, which let people sharing an account push
// each other's sessions out), and when the size cap removes one younger than a day it is
// reported in Young with its size and age.
func TestPruneSessionsByAgeAndSize(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	at := func(ago time.Duration) time.Time { return now.Add(-ago) }
	stale := plant(t, dir, at(41*24*time.Hour), at(40*24*time.Hour), 1<<20)
	twoDays := plant(t, dir, at(49*time.Hour), at(48*time.Hour), 1<<20)
	hours := plant(t, dir, at(4*time.Hour), at(3*time.Hour), 1<<20)
	hour := plant(t, dir, at(2*time.Hour), at(time.Hour), 1<<20)
	var small []string
	for i := range 25 {
		small = append(small, plant(t, dir, at(time.Duration(50-i)*time.Minute), at(time.Duration(30-i)*time.Minute), 1<<10))
	}
	res, err := trace.PruneSessions(dir, now, trace.DefaultMaxAge, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Removed, []string{stale}) || len(res.Young) != 0 || res.Sessions != 28 {
		t.Fatalf("under the size cap: removed %v (young %v), %d left; want the 40-day-old one only, 28 left", res.Removed, res.Young, res.Sessions)
	}
	for _, p := range append([]string{twoDays, hours, hour}, small...) {
		if !exists(p) {
			t.Fatalf("%s removed under the size cap", filepath.Base(p))
		}
	}
	res, err = trace.PruneSessions(dir, now, trace.DefaultMaxAge, 1<<20+30<<10)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Removed, []string{twoDays, hours}) {
		t.Fatalf("over the size cap: removed %v; want the two oldest", res.Removed)
	}
	want := []trace.Removal{{Path: hours, Size: 1 << 20, Age: 3 * time.Hour}}
	if !slices.Equal(res.Young, want) {
		t.Errorf("young removals %+v; want %+v (the 2-day-old one is not young)", res.Young, want)
	}
	if !exists(hour) || res.Sessions != 26 {
		t.Errorf("left %d sessions, the 1-hour-old one exists %v", res.Sessions, exists(hour))
	}
	// No age limit (maxAge 0): nothing goes for its age.
	old := plant(t, dir, at(100*24*time.Hour), at(99*24*time.Hour), 1)
	if res, _ := trace.PruneSessions(dir, now, 0, 1<<30); len(res.Removed) != 0 || !exists(old) {
		t.Errorf("maxAge 0 removed %v", res.Removed)
	}
}

// TestPruneSessionsSparesRunning: a running session (its Writer open) is never removed,
// even the oldest and alone over the cap: the finished ones go, older and newer, and the
// running one is reported; once it is closed, it is pruned like any other.
func TestPruneSessionsSparesRunning(t *testing.T) {
	dir := t.TempDir()
	w := runningSession(t, dir, time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC), 2<<20)
	finished := oldSessions(t, dir, 3, 1<<20)
	res, err := trace.PruneSessions(dir, time.Now(), trace.DefaultMaxAge, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if !exists(w.Path()) || !slices.Equal(res.Running, []string{w.Path()}) || res.RunningBytes < 2<<20 {
		t.Fatalf("running session: exists %v, reported %v (%d bytes)", exists(w.Path()), res.Running, res.RunningBytes)
	}
	if !slices.Equal(res.Removed, finished) || res.Sessions != 1 {
		t.Errorf("pruned %v, %d left; want every finished session gone", res.Removed, res.Sessions)
	}
	// A spared path (the caller's own session) stays, and so do the sessions newer than it.
	spare := oldSessions(t, dir, 1, 1<<20)[0]
	newer := trace.SessionPath(dir, time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), 7)
	os.WriteFile(newer, bytes.Repeat([]byte("n"), 1<<20), 0o600)
	const capped = 3<<20 + 1<<19 // the running session, and one more
	if res, _ := trace.PruneSessions(dir, time.Now(), trace.DefaultMaxAge, capped, spare); !exists(spare) || !exists(newer) || len(res.Removed) != 0 {
		t.Errorf("a spared path or a newer session was removed: %v", res.Removed)
	}
	if res, _ := trace.PruneSessions(dir, time.Now(), trace.DefaultMaxAge, capped); exists(spare) || !exists(newer) || !slices.Equal(res.Removed, []string{spare}) {
		t.Errorf("without spare: removed %v; want the older finished one only", res.Removed)
	}
	w.Close()
	if res, _ := trace.PruneSessions(dir, time.Now(), trace.DefaultMaxAge, 1<<20, newer); exists(w.Path()) || len(res.Running) != 1 {
		t.Errorf("the closed session is still kept (running %v)", res.Running)
	}
}

// TestPruneSessionsTwoProcesses: two processes record into one sessions directory and
// both prune it to a cap their running sessions alone pass: neither removes the other's
// running session; the finished ones go.
func TestPruneSessionsTwoProcesses(t *testing.T) {
	dir := t.TempDir()
	finished := oldSessions(t, dir, 4, 1<<20)
	mine := runningSession(t, dir, time.Now(), 2<<20)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "RECORDER_TEST_HELPER=session", "RECORDER_SESSIONS="+dir)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	sc := bufio.NewScanner(stdout)
	var theirs string
	var theirRemoved []string
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), " ")
		if k == "path" {
			theirs = v
		}
		if k == "removed" {
			theirRemoved = strings.Fields(v)
			break
		}
	}
	if theirs == "" {
		t.Fatal("the helper process said nothing")
	}
	res, err := trace.PruneSessions(dir, time.Now(), trace.DefaultMaxAge, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if !exists(mine.Path()) || !exists(theirs) {
		t.Fatalf("a running session was removed: mine %v, theirs %v", exists(mine.Path()), exists(theirs))
	}
	if slices.Contains(theirRemoved, mine.Path()) || slices.Contains(res.Removed, theirs) {
		t.Fatalf("removed a running session: they %v, we %v", theirRemoved, res.Removed)
	}
	if !slices.Contains(res.Running, theirs) || !slices.Contains(res.Running, mine.Path()) {
		t.Errorf("running sessions reported: %v", res.Running)
	}
	for _, p := range finished {
		if exists(p) {
			t.Errorf("finished session %s kept", filepath.Base(p))
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	if !exists(theirs) {
		t.Error("the helper's finished session is gone")
	}
}

// sessionMain records a 2 MiB session into RECORDER_SESSIONS, prunes the directory to a
// 1 MiB cap, prints "path P" and "removed P…", and closes the session when stdin closes.
func sessionMain() int {
	dir := os.Getenv("RECORDER_SESSIONS")
	w, err := trace.CreateNew(trace.SessionPath(dir, time.Now(), os.Getpid()), trace.Header{Tool: "helper"}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := w.Write(bigFrame(2 << 20)); err != nil {
		return 1
	}
	fmt.Printf("path %s\n", w.Path())
	res, err := trace.PruneSessions(dir, time.Now(), trace.DefaultMaxAge, 1<<20)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("removed %s\n", strings.Join(res.Removed, " "))
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	if err := w.Close(); err != nil {
		return 1
	}
	return 0
}
