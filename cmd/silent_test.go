package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// The course's first lab (issue 24), a server framed LSP-style that says nothing to newline
// JSON, end to end headless: without a flag the wait names the cause and the flag; with
// --framing content-length and with --framing auto the transcript works (conjugate → ate,
// lookup_spanish → comió); the auto session recorded replays and mocks in the framing it
// settled on; check runs its whole battery through that framing.
func TestCourseLab1Silent(t *testing.T) {
	t.Parallel()
	srv := testservers.CourseLab1(t)
	state, dir := t.TempDir(), t.TempDir()
	fast := []string{"--silence", "500ms"}

	r := traceRun(t, state, nil, cmdline(append([]string{"tools", "--timeout", "3s"}, fast...), srv)...)
	wantCode(t, r, exitTimeout)
	for _, w := range []string{"mcp-inspect: warning: silent server: no answer after", "framed LSP-style", "run again with --framing content-length", "the server wrote nothing at all"} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("without a flag, stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	for _, framing := range []string{"content-length", "auto"} {
		args := append([]string{"--framing", framing}, fast...)
		r = traceRun(t, state, nil, cmdline(append([]string{"call", "conjugate", "-a", "verb=eat", "-a", "tense=past"}, args...), srv)...)
		wantCode(t, r, 0)
		if strings.TrimSpace(r.stdout) != "ate" {
			t.Errorf("%s: conjugate %q\n%s", framing, r.stdout, r.stderr)
		}
		r = traceRun(t, state, nil, cmdline(append([]string{"call", "lookup_spanish", "-a", "word=ate"}, args...), srv)...)
		wantCode(t, r, 0)
		if strings.TrimSpace(r.stdout) != "comió" {
			t.Errorf("%s: lookup_spanish %q\n%s", framing, r.stdout, r.stderr)
		}
	}
	if !strings.Contains(r.stderr, "--framing auto: no answer after") || !strings.Contains(r.stderr, "answered the Content-Length framed request") {
		t.Errorf("auto does not say what it did:\n%s", r.stderr)
	}

	tracePath := filepath.Join(dir, "lab.jsonl")
	r = traceRun(t, state, nil, cmdline(append([]string{"call", "conjugate", "-a", "verb=eat", "-a", "tense=past", "--framing", "auto", "--record", tracePath}, fast...), srv)...)
	wantCode(t, r, 0)
	r = traceRun(t, state, nil, cmdline([]string{"replay", tracePath}, srv)...)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "0 differ") {
		t.Errorf("replay:\n%s\n%s", r.stdout, r.stderr)
	}
	bin := testservers.BuildInspector(t)
	r = traceRun(t, state, nil, cmdline([]string{"call", "conjugate", "-a", "verb=eat", "-a", "tense=past", "--framing", "content-length"}, []string{bin, "mock", tracePath})...)
	wantCode(t, r, 0)
	if strings.TrimSpace(r.stdout) != "ate" {
		t.Errorf("mock: %q\n%s", r.stdout, r.stderr)
	}

	r = traceRun(t, state, nil, cmdline(append([]string{"check"}, fast...), srv)...)
	for _, w := range []string{"✗ stdout-jsonrpc", "answered it framed with Content-Length", "--framing content-length", "✓ init-responds", "✓ tool-schemas"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("check lacks %q:\n%s", w, r.stdout)
		}
	}
}

// A tool called with no -a gets "arguments": {} (never left out), and a result holding
// NaN, as Python writes it, ends the call at once with the numbers named.
func TestCallNoArgsAndNaN(t *testing.T) {
	t.Parallel()
	state, dir := t.TempDir(), t.TempDir()
	tracePath := filepath.Join(dir, "nan.jsonl")
	r := traceRun(t, state, nil, cmdline([]string{"call", "stats", "--record", tracePath}, []string{fake.Binary(t), "--scenario", "nan"})...)
	wantCode(t, r, 0)
	if !strings.Contains(r.stderr, "non-finite") && !strings.Contains(r.stderr, "NaN at byte") {
		t.Errorf("the NaN is not named:\n%s", r.stderr)
	}
	b, err := os.ReadFile(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `\"name\":\"stats\",\"arguments\":{}`) {
		t.Errorf("tools/call without arguments: {}:\n%s", b)
	}
}
