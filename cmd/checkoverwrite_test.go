package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
)

// TestCheckRecordStaleSiblings: without --overwrite the refusal names FILE itself first
// when it exists, then the siblings; with --overwrite a sibling this run does not write
// (second-copy: the minimal server runs a second copy fine) is removed rather than left
// beside the new traces as if it were this run's, and an unrelated file stays.
func TestCheckRecordStaleSiblings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	trace := filepath.Join(dir, "check.jsonl")
	stale := []string{trace}
	for _, name := range check.ShortSessions() {
		stale = append(stale, shortTrace(trace, name))
	}
	other := filepath.Join(dir, "check.notes.txt")
	for _, p := range append(stale, other) {
		if err := os.WriteFile(p, []byte("stale\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r := inspect(t, nil, cmdline([]string{"check", "-q", "--record", trace}, fakeArgv(t, "minimal"))...)
	wantCode(t, r, exitUsage)
	if !strings.Contains(r.stderr, "--record "+trace+": the file exists, and so do ") || !strings.Contains(r.stderr, shortTrace(trace, check.SessionSecondCopy)) {
		t.Errorf("the refusal should name %s first, then the siblings: %q", trace, r.stderr)
	}
	r = inspect(t, nil, cmdline([]string{"check", "-q", "--overwrite", "--record", trace}, fakeArgv(t, "minimal"))...)
	wantCode(t, r, exitOK)
	for _, p := range stale {
		b, err := os.ReadFile(p)
		if err == nil && string(b) == "stale\n" {
			t.Errorf("%s from the earlier run is still there after --overwrite", p)
		}
	}
	if _, err := os.Stat(shortTrace(trace, check.SessionSecondCopy)); err == nil {
		t.Errorf("the second-copy trace exists, though this run had no such session")
	}
	if b, err := os.ReadFile(other); err != nil || string(b) != "stale\n" {
		t.Errorf("a file check does not write was touched: %q %v", b, err)
	}
}
