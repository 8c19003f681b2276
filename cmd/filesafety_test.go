package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/trace"
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

// TestRecordRefusesExistingFile: --record never replaces a file that exists (headless
// commands and the tap), says what to do, and --overwrite replaces it on purpose.
func TestRecordRefusesExistingFile(t *testing.T) {
	srv := fake.Binary(t)
	state, dir := t.TempDir(), t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	writeFile(t, notes, "notes\n")
	r := traceRun(t, state, nil, "tools", "--record", notes, "--", srv, "--scenario", "minimal")
	wantCode(t, r, exitUsage)
	if !strings.Contains(r.stderr, "the file exists") || !strings.Contains(r.stderr, "--overwrite") {
		t.Errorf("stderr %q", r.stderr)
	}
	r = traceRun(t, state, nil, "tap", "--record", notes, "--", srv, "--scenario", "minimal")
	wantCode(t, r, exitUsage)
	if !strings.Contains(r.stderr, "the file exists") {
		t.Errorf("tap stderr %q", r.stderr)
	}
	if b, _ := os.ReadFile(notes); string(b) != "notes\n" {
		t.Fatalf("notes.txt was replaced: %q", b)
	}
	r = traceRun(t, state, nil, "tools", "--record", notes, "--overwrite", "--", srv, "--scenario", "minimal")
	wantCode(t, r, 0)
	if b, _ := os.ReadFile(notes); !strings.Contains(string(b), `"format":"mcp-inspect-trace"`) {
		t.Errorf("--overwrite: notes.txt holds %q", b)
	}
}

// TestSaveAsRefusesTakenName: the TUI's S key (saveAs) does not replace a session already
// saved under that name.
func TestSaveAsRefusesTakenName(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	w, err := trace.Create(filepath.Join(t.TempDir(), "live.jsonl"), trace.Header{Tool: "t"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	rec := &recording{w: w}
	path, err := rec.saveAs("bug 42")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("the first save\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := rec.saveAs("bug 42.jsonl"); err == nil || err.Error() != "bug 42 exists: choose another name" {
		t.Errorf("second save under the same name: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "the first save\n" {
		t.Errorf("the saved session was replaced: %q", b)
	}
}

// TestTraceStatsWarnsTruncated: trace stats, like trace cat, says on stderr that the last
// line of a trace cut mid-write is incomplete.
func TestTraceStatsWarnsTruncated(t *testing.T) {
	srv := fake.Binary(t)
	state, dir := t.TempDir(), t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	wantCode(t, traceRun(t, state, nil, "tools", "--record", good, "--", srv, "--scenario", "minimal"), 0)
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	last := bytes.LastIndexByte(b[:len(b)-1], '\n') // the start of the last line
	cut := filepath.Join(dir, "cut.jsonl")
	writeFile(t, cut, string(b[:last+10]))
	for _, sub := range []string{"cat", "stats"} {
		r := traceRun(t, state, nil, "trace", sub, cut)
		wantCode(t, r, 0)
		if !strings.Contains(r.stderr, "is incomplete") {
			t.Errorf("trace %s: stderr %q lacks the warning", sub, r.stderr)
		}
	}
}
