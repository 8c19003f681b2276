//go:build unix

package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateDirTightened: a state directory of the user's, and its sessions/, that anyone
// can write to are tightened to 0700 and the command (check, which keeps its sessions)
// says so on stderr and in the log, once: the next run has nothing to say.
func TestStateDirTightened(t *testing.T) {
	state := t.TempDir()
	dir := filepath.Join(state, "mcp-inspect")
	sessions := filepath.Join(dir, "sessions")
	for _, d := range []string{dir, sessions} {
		if err := os.Mkdir(d, 0o777); err != nil {
			t.Fatal(err)
		}
		os.Chmod(d, 0o777)
	}
	argv := cmdline([]string{"check"}, fakeArgv(t, "minimal"))
	r := traceRun(t, state, nil, argv...)
	if r.code != 0 && r.code != 1 {
		t.Fatalf("check: exit %d\n%s", r.code, r.stderr)
	}
	for _, d := range []string{dir, sessions} {
		want := "mcp-inspect: tightened " + d + " from 0777 to 0700\n"
		if strings.Count(r.stderr, want) != 1 {
			t.Errorf("stderr does not say %q once:\n%s", want, r.stderr)
		}
		if st, err := os.Stat(d); err != nil || st.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v, %v; want 0700", d, st.Mode(), err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "mcp-inspect.log")); !strings.Contains(string(b), "tightened "+dir) {
		t.Errorf("the log does not say it:\n%s", b)
	}
	r = traceRun(t, state, nil, argv...)
	if strings.Contains(r.stderr, "tightened") {
		t.Errorf("the second run says it again:\n%s", r.stderr)
	}
}

// TestStateDirRefused: a state directory another user owns (and anyone can write to) is
// refused with what to do, left as it is, and nothing is written in it; the command itself
// runs. As root the directory is given to nobody; as anyone else it is a symlink to the
// root-owned /tmp.
func TestStateDirRefused(t *testing.T) {
	state := t.TempDir()
	dir := filepath.Join(state, "mcp-inspect")
	owner := "uid 0"
	if os.Getuid() == 0 {
		if err := os.Mkdir(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		os.Chmod(dir, 0o777)
		if err := os.Chown(dir, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		owner = "uid 65534"
	} else if err := os.Symlink("/tmp", dir); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadDir(dir)
	r := traceRun(t, state, nil, cmdline([]string{"tools"}, fakeArgv(t, "minimal"))...)
	wantCode(t, r, 0)
	want := fmt.Sprintf("mcp-inspect: refusing the state directory %s: it belongs to %s, not to you (uid %d) and has mode 0777", dir, owner, os.Getuid())
	if strings.Count(r.stderr, want) != 1 || !strings.Contains(r.stderr, "set XDG_STATE_HOME to a directory of your own") {
		t.Errorf("stderr does not say once what is refused and what to do:\n%s", r.stderr)
	}
	if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o777 {
		t.Errorf("the refused directory changed: %v, %v", st.Mode(), err)
	}
	for _, name := range []string{"mcp-inspect.log", "sessions"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil && len(before) == 0 {
			t.Errorf("%s was written in the refused directory", name)
		}
	}
}
