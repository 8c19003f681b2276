package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestCheckRecordsEverySession: --record FILE keeps the main session in FILE and each short
// session beside it (FILE.version-future.jsonl, …); every event the report cites names its
// file, and the file holds that event, so `open` shows the bytes behind every finding.
// Sibling files that exist are refused before the run, as FILE itself is.
func TestCheckRecordsEverySession(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tracePath := filepath.Join(dir, "check.jsonl")
	r := inspect(t, nil, cmdline([]string{"check", "--json", "--record", tracePath}, fakeArgv(t, "check-echo-version"))...)
	wantCode(t, r, exitCheckFailed)
	var doc struct {
		Results  []check.Result  `json:"results"`
		Sessions []check.Session `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, s := range doc.Sessions {
		files[s.Name] = s.Trace
	}
	want := map[string]string{
		"main":           tracePath,
		"version-future": filepath.Join(dir, "check.version-future.jsonl"),
		"version-oldest": filepath.Join(dir, "check.version-oldest.jsonl"),
		"discover":       filepath.Join(dir, "check.discover.jsonl"),
	}
	for name, path := range want {
		if files[name] != path {
			t.Errorf("session %s: trace %q, want %q", name, files[name], path)
		}
	}
	cited := 0
	for _, res := range doc.Results {
		var evs []check.Event
		evs = append(evs, res.Events...)
		for _, f := range res.Findings {
			evs = append(evs, f.Events...)
		}
		for _, n := range res.Notes {
			evs = append(evs, n.Events...)
		}
		for _, e := range evs {
			if e.Trace != want[e.Session] {
				t.Fatalf("%s: event %s names trace %q, want %q", res.ID, e, e.Trace, want[e.Session])
			}
			tr, err := trace.Open(e.Trace)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tr.EventBySeq(e.Seq); err != nil {
				t.Errorf("%s: event %s is not in %s: %v", res.ID, e, e.Trace, err)
			}
			tr.Close()
			cited++
		}
	}
	// The finding of the rule version-future (the server echoes 2099-12-31) is in its file.
	if res := checkResultByID(doc.Results, "version-future"); res == nil || res.Status != check.StatusFail || res.Findings[0].Events[0].Trace != want["version-future"] {
		t.Fatalf("version-future: %+v", res)
	}
	if cited == 0 || !strings.Contains(r.stderr, "check.version-future.jsonl") {
		t.Errorf("cited %d events; stderr %q", cited, r.stderr)
	}
	// Run again: the siblings exist, and are not replaced without --overwrite.
	os.Remove(tracePath)
	r = inspect(t, nil, cmdline([]string{"check", "-q", "--record", tracePath}, fakeArgv(t, "minimal"))...)
	wantCode(t, r, exitUsage)
	if !strings.Contains(r.stderr, "check.version-future.jsonl: the file exists") {
		t.Errorf("stderr %q", r.stderr)
	}
	r = inspect(t, nil, cmdline([]string{"check", "-q", "--overwrite", "--record", tracePath}, fakeArgv(t, "minimal"))...)
	wantCode(t, r, exitOK)
}

func checkResultByID(rs []check.Result, id string) *check.Result {
	for i := range rs {
		if rs[i].ID == id {
			return &rs[i]
		}
	}
	return nil
}

// TestCheckKeepsTracesByDefault (issue 25): without --record, every session's trace is kept
// in the session store, and the report ends with the command that opens the first event a
// failure cites; --no-save keeps none and prints no such line.
func TestCheckKeepsTracesByDefault(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	r := inspect(t, []string{"XDG_STATE_HOME=" + state}, cmdline([]string{"check"}, fakeArgv(t, "check-echo-version"))...)
	wantCode(t, r, exitCheckFailed)
	sessions, _ := filepath.Glob(filepath.Join(state, "mcp-inspect", "sessions", "session-*.jsonl"))
	var main, future string
	for _, p := range sessions {
		switch {
		case strings.HasSuffix(p, ".version-future.jsonl"):
			future = p
		case !strings.HasSuffix(p, ".version-oldest.jsonl") && !strings.HasSuffix(p, ".discover.jsonl"):
			main = p
		}
	}
	if main == "" || future == "" || len(sessions) != 4 {
		t.Fatalf("traces kept: %q", sessions)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "evidence: mcp-inspect open "+future+" --at ") || !strings.Contains(last, "shows version-future's first cited event (version-future#") {
		t.Fatalf("last line %q (future %s)", last, future)
	}
	seq := strings.Fields(strings.TrimPrefix(last, "evidence: mcp-inspect open "+future+" --at "))[0]
	tr, err := trace.Open(future)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	n, _ := strconv.ParseUint(seq, 10, 64)
	if _, err := tr.EventBySeq(n); err != nil {
		t.Fatalf("event %d is not in %s: %v", n, future, err)
	}

	state = t.TempDir()
	r = inspect(t, []string{"XDG_STATE_HOME=" + state}, cmdline([]string{"check", "--no-save"}, fakeArgv(t, "check-echo-version"))...)
	wantCode(t, r, exitCheckFailed)
	if kept, _ := filepath.Glob(filepath.Join(state, "mcp-inspect", "sessions", "*")); len(kept) != 0 || strings.Contains(r.stdout, "evidence:") {
		t.Fatalf("--no-save kept %q; stdout %q", kept, r.stdout)
	}
}
