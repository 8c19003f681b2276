package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
)

// TestReplayRefusesToRecordOverItsTrace: --record naming the trace being replayed (itself,
// by another relative spelling, or through a symlink) is refused with exit 2 and the trace
// is left as it was.
func TestReplayRefusesToRecordOverItsTrace(t *testing.T) {
	srv := fake.Binary(t)
	state, dir := t.TempDir(), t.TempDir()
	trace := filepath.Join(dir, "t.jsonl")
	r := traceRun(t, state, nil, "tools", "--record", trace, "--", srv, "--scenario", "minimal")
	wantCode(t, r, 0)
	before, err := os.ReadFile(trace)
	if err != nil || len(before) == 0 {
		t.Fatalf("recording: %v (%d bytes)", err, len(before))
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(trace, link); err != nil {
		t.Fatal(err)
	}
	for _, rec := range []string{trace, link, dir + "/./t.jsonl"} {
		r = traceRun(t, state, nil, "replay", trace, "--record", rec, "--", srv, "--scenario", "minimal")
		wantCode(t, r, exitReplayError)
		if !strings.Contains(r.stderr, "names the trace being replayed") {
			t.Errorf("--record %s: stderr %q", rec, r.stderr)
		}
		if after, _ := os.ReadFile(trace); !bytes.Equal(after, before) {
			t.Fatalf("--record %s changed the trace (%d bytes, was %d)", rec, len(after), len(before))
		}
	}
}

// TestReplayNothingToCompare: a trace with no client messages (the header line only) does
// not pass as "0 differ".
func TestReplayNothingToCompare(t *testing.T) {
	srv := fake.Binary(t)
	state, dir := t.TempDir(), t.TempDir()
	trace := filepath.Join(dir, "t.jsonl")
	wantCode(t, traceRun(t, state, nil, "tools", "--record", trace, "--", srv, "--scenario", "minimal"), 0)
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	header := filepath.Join(dir, "header.jsonl")
	writeFile(t, header, string(b[:bytes.IndexByte(b, '\n')+1]))
	r := traceRun(t, state, nil, "replay", header, "--", srv, "--scenario", "minimal")
	wantCode(t, r, exitReplayError)
	if !strings.Contains(r.stderr, "nothing to compare") {
		t.Errorf("stderr %q", r.stderr)
	}
}
