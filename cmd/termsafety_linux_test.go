package cmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// openPTY opens a pseudo-terminal pair through /dev/ptmx: the controlling side (read what
// the program wrote) and the terminal side (the program's stdout and stderr).
func openPTY(t *testing.T) (ptm, pts *os.File) {
	t.Helper()
	ptm, pts, err := platformtest.OpenPty()
	if err != nil {
		t.Fatalf("open a pty: %v", err)
	}
	return ptm, pts
}

// onTerminal runs the inspector with stdout and stderr on a pseudo-terminal and returns
// every byte the terminal received, and the exit code.
func onTerminal(t *testing.T, env []string, args ...string) ([]byte, int) {
	t.Helper()
	ptm, pts := openPTY(t)
	defer ptm.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, testservers.BuildInspector(t), args...)
	cmd.Env = append(append(os.Environ(), "XDG_STATE_HOME="+t.TempDir()), env...)
	cmd.Stdout, cmd.Stderr = pts, pts
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pts.Close() // the child holds it; EOF (EIO) comes when the child is gone
	var out bytes.Buffer
	done := make(chan struct{})
	go func() {
		io.Copy(&out, ptm)
		close(done)
	}()
	err := cmd.Wait()
	<-done
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return out.Bytes(), code
}

// rawOnTerminal returns a description of the first byte or rune in b a terminal may act on:
// a C0 control other than \n, \r (the terminal's own line ending) and \t, DEL, a C1 control
// (as UTF-8, or as a lone 8-bit byte), a bidi, zero-width, BOM or tag character.
func rawOnTerminal(b []byte) string {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			return fmt.Sprintf("byte %#x at %d", b[i], i)
		case r == '\n' || r == '\r' || r == '\t':
		case r < 0x20 || r == 0x7f || sanitize.Dangerous(r):
			return fmt.Sprintf("%U at %d", r, i)
		}
		i += n
	}
	return ""
}

// Every command, given a server whose every string is hostile, writes nothing to a terminal
// that the terminal would act on: human output, --json, stderr, errors, trace cat and stats,
// and replay's diff lines (issue 15).
func TestEveryCommandIsSafeOnATerminal(t *testing.T) {
	t.Parallel()
	srv := fakeArgv(t, "hostile")
	const h = "\x1b]0;PWNED\x07\x1b]52;c;aGk=\x07\x1b[2J\u009b31m\u009c\u009d0;t\u009c\u202eevil\u202c\u200bzw\u200djoin\ufeffbom\U000E0041tag"
	dir := t.TempDir()
	trace := filepath.Join(dir, "hostile.jsonl")
	type run struct {
		args []string
		env  []string
		want string // a visible piece the output must hold (the escape is shown, not dropped)
	}
	var runs []run
	headless := [][]string{
		{"ping"}, {"discover"}, {"tools"}, {"resources"}, {"templates"}, {"prompts"},
		{"call", "tool" + h, "-a", "prop" + h + "=x"}, {"call", "fail"},
		{"read", "file:///r" + h}, {"prompt", "prompt" + h},
		{"complete", "--prompt", "prompt" + h, "--arg", "arg" + h, "--value", h},
	}
	for _, a := range headless {
		runs = append(runs, run{args: cmdline(a, srv)}, run{args: cmdline(append(a, "--json"), srv)})
	}
	// The recording first: trace cat, stats and replay read it.
	rec, code := onTerminal(t, nil, cmdline([]string{"call", "tool" + h, "--record", trace}, srv)...)
	if code != 0 {
		t.Fatalf("recording: exit %d\n%q", code, rec)
	}
	runs = append(runs,
		run{args: []string{"trace", "cat", trace}, want: "<U+200D>"},
		run{args: []string{"trace", "cat", "--raw", trace}},
		run{args: []string{"trace", "stats", trace}, want: "notifications/x"},
		run{args: []string{"trace", "stats", "--json", trace}},
		run{args: cmdline([]string{"replay", trace}, srv), env: []string{"FAKE_HOSTILE_VARIANT=1"}, want: "<U+202E>"},
		run{args: cmdline([]string{"replay", trace, "--json"}, srv), env: []string{"FAKE_HOSTILE_VARIANT=1"}, want: `\u202e`},
		run{args: cmdline([]string{"replay", trace, "-v"}, srv)},
	)
	// Each command must show the hostile text somehow, or the test proves nothing.
	shown := regexp.MustCompile(`PWNED|<U\+|\\u00|\\x1b`)
	for _, r := range runs {
		out, code := onTerminal(t, r.env, r.args...)
		name := strings.Join(r.args[:min(2, len(r.args))], " ")
		if what := rawOnTerminal(out); what != "" {
			t.Errorf("%s (exit %d): %s reached the terminal:\n%q", name, code, what, out)
			continue
		}
		if !shown.Match(out) {
			t.Errorf("%s (exit %d): the hostile text is not shown at all:\n%q", name, code, out)
		}
		if r.want != "" && !bytes.Contains(out, []byte(r.want)) {
			t.Errorf("%s: output lacks %q:\n%q", name, r.want, out)
		}
	}
}

// Human output reaches stdout and stderr only through termout: no command writes to
// os.Stdout or os.Stderr itself (the exceptions are the MCP protocol streams of demo-server
// and mock, and terminal checks), so a new command cannot forget to escape.
func TestOutputGoesThroughTermout(t *testing.T) {
	allowed := []string{
		"os.Stdout.Fd()", "isTerminal(os.Stdout)", "isTerminal(os.Stdin)",
		"demo.Serve(ctx, os.Stdin, os.Stdout, os.Stderr)", // the demo server: the protocol stream
		"m.Serve(ctx, os.Stdin, os.Stdout)",               // mock on stdio: the protocol stream
		"termout.New(os.Stdout)", "termout.New(os.Stderr)",
	}
	bare := regexp.MustCompile(`\bos\.(Stdout|Stderr)\b|\bfmt\.Print(ln|f)?\(|\bprintln\(`)
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			rest := line
			for _, a := range allowed {
				rest = strings.ReplaceAll(rest, a, "")
			}
			if trimmed := strings.TrimSpace(rest); strings.HasPrefix(trimmed, "//") {
				continue
			}
			if bare.MatchString(rest) {
				t.Errorf("%s:%d writes past termout: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
