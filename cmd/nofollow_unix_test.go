//go:build unix

package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
)

// plantLink makes, in dir, a file of the user's that others may read (mode 0644) and a
// symlink name → it, as another user would plant one in a shared directory such as /tmp.
func plantLink(t *testing.T, dir, name string) (victim, link string) {
	t.Helper()
	victim, link = filepath.Join(dir, name+".victim"), filepath.Join(dir, name)
	writeFile(t, victim, "victim\n")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	return victim, link
}

// wantReplaced fails unless victim is as it was (content and mode) and p is now a regular
// file of mode 0600 holding want.
func wantReplaced(t *testing.T, what, victim, p, want string) {
	t.Helper()
	b, _ := os.ReadFile(victim)
	st, err := os.Stat(victim)
	if err != nil || string(b) != "victim\n" || st.Mode().Perm() != 0o644 {
		t.Errorf("%s wrote through the symlink: the target holds %.80q, mode %v", what, b, st.Mode())
	}
	st, err = os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o600 {
		t.Errorf("%s: %s is %v (%v); want a regular file of mode 0600", what, p, st.Mode(), err)
	}
	if b, _ := os.ReadFile(p); !strings.Contains(string(b), want) {
		t.Errorf("%s: %s holds %.200q, want %q in it", what, p, b, want)
	}
}

// TestRecordOverwriteNeverFollows: --record F --overwrite, for a headless command and for
// the tap, replaces a symlink at F with a new trace of mode 0600 (the link's target is not
// written), and an existing 0644 F with a 0600 one.
func TestRecordOverwriteNeverFollows(t *testing.T) {
	srv := fake.Binary(t)
	state, dir := t.TempDir(), t.TempDir()
	for _, verb := range []string{"tools", "tap"} {
		victim, link := plantLink(t, dir, verb+".jsonl")
		r := traceRun(t, state, nil, verb, "--record", link, "--overwrite", "--", srv, "--scenario", "minimal")
		wantCode(t, r, 0)
		wantReplaced(t, verb+" --record LINK --overwrite", victim, link, `"format":"mcp-inspect-trace"`)
		old := filepath.Join(dir, verb+"-old.jsonl")
		writeFile(t, old, "an older trace\n")
		r = traceRun(t, state, nil, verb, "--record", old, "--overwrite", "--", srv, "--scenario", "minimal")
		wantCode(t, r, 0)
		st, err := os.Stat(old)
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s --record over a 0644 file --overwrite: %v, %v; want mode 0600", verb, st.Mode(), err)
		}
	}
}

// TestExportsNeverFollow: check --junit F and trace export -o F replace a symlink at F
// with a new file of mode 0600 and leave its target alone.
func TestExportsNeverFollow(t *testing.T) {
	dir := t.TempDir()
	victim, link := plantLink(t, dir, "report.xml")
	r := inspect(t, nil, cmdline([]string{"check", "--no-save", "--junit", link}, fakeArgv(t, "minimal"))...)
	if r.code != 0 && r.code != 1 {
		t.Fatalf("check: exit %d\n%s", r.code, r.stderr)
	}
	wantReplaced(t, "check --junit LINK", victim, link, "<testsuite")

	_, url := fake.HTTPServer(t, "http-redirect-307", fake.HTTPOptions{})
	tr := filepath.Join(dir, "s.jsonl")
	wantCode(t, inspect(t, nil, "tools", "--record", tr, url), 0)
	victim, link = plantLink(t, dir, "s.har")
	wantCode(t, inspect(t, nil, "trace", "export", "--format", "har", "-o", link, tr), 0)
	wantReplaced(t, "trace export -o LINK", victim, link, `"entries"`)
}

// TestLogNeverFollows: a symlink planted in the state directory where the log goes is
// not followed (its target is not written) and the command says it runs without a log.
func TestLogNeverFollows(t *testing.T) {
	state := t.TempDir()
	dir := filepath.Join(state, "mcp-inspect")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	victim, _ := plantLink(t, dir, "mcp-inspect.log")
	r := traceRun(t, state, nil, cmdline([]string{"tools", "--no-save"}, fakeArgv(t, "minimal"))...)
	wantCode(t, r, 0)
	if b, _ := os.ReadFile(victim); string(b) != "victim\n" {
		t.Errorf("the log was written through the symlink: %.200q", b)
	}
	if !strings.Contains(r.stderr, "no log") || !strings.Contains(r.stderr, "symbolic link") {
		t.Errorf("stderr does not say why there is no log: %q", r.stderr)
	}
}
