package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCallWhenToolsListFails: when the tools/list made to convert -a values fails (here a
// page larger than --max-message), the call still goes out with the values as JSON when
// they parse, and a warning says the schema is unknown.
func TestCallWhenToolsListFails(t *testing.T) {
	r := inspect(t, nil, cmdline([]string{"call", "big", "-a", "bytes=10", "--max-message", "1000"}, fakeArgv(t, "b03"))...)
	wantCode(t, r, 0)
	if strings.TrimSpace(r.stdout) != strings.Repeat("x", 10) {
		t.Errorf("stdout %q, want ten x's", r.stdout)
	}
	if !strings.Contains(r.stderr, "inputSchema of \"big\" is unknown") {
		t.Errorf("stderr lacks the warning: %q", r.stderr)
	}
}

// TestHeadlessRoots: --root makes a headless command advertise roots (listChanged false) and
// answer roots/list with file:// URIs, as the TUI does; sampling and elicitation are not
// advertised, and their flags are not offered (they would do nothing).
func TestHeadlessRoots(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "project")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(dir, "t.jsonl")
	r := inspect(t, nil, cmdline([]string{"call", "summarize", "--root", root, "--record", trace}, fakeArgv(t, "b13-roots"))...)
	wantCode(t, r, 0)
	want := `{"roots":[{"uri":"file://` + filepath.ToSlash(root) + `","name":"project"}]}`
	if strings.TrimSpace(r.stdout) != want {
		t.Errorf("the server got %q, want %q; stderr %q", r.stdout, want, r.stderr)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`\"capabilities\":{\"roots\":{\"listChanged\":false}}`)) {
		t.Errorf("initialize does not advertise roots alone:\n%s", b)
	}
	help := inspect(t, nil, "call", "--help")
	wantCode(t, help, 0)
	for _, flag := range []string{"--no-sampling", "--no-elicitation", "--no-roots"} {
		if strings.Contains(help.stdout, flag) {
			t.Errorf("call --help offers %s, which a headless command cannot honour", flag)
		}
	}
	if !strings.Contains(help.stdout, "sampling and elicitation are not") {
		t.Errorf("call --help does not say how server requests are handled:\n%s", help.stdout)
	}
}

// TestHeadlessRootsFromSettings: a root of the settings file that is not there is warned
// about under the file's name, not --root (which was not given).
func TestHeadlessRootsFromSettings(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	conf := filepath.Join(dir, "config.toml")
	writeFile(t, conf, "roots = ["+tomlString(missing)+"]\n")
	r := inspect(t, []string{"MCP_INSPECT_CONFIG=" + conf}, cmdline([]string{"call", "summarize"}, fakeArgv(t, "b13-roots"))...)
	wantCode(t, r, 0)
	if want := "roots in " + conf + `: root "` + missing + `": does not exist (kept)`; !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "--root") {
		t.Errorf("stderr %q lacks %q (or names --root)", r.stderr, want)
	}
	r = inspect(t, []string{"MCP_INSPECT_CONFIG=" + conf}, cmdline([]string{"call", "summarize", "--root", missing + "2"}, fakeArgv(t, "b13-roots"))...)
	if want := `--root: root "` + missing + `2": does not exist (kept)`; !strings.Contains(r.stderr, want) {
		t.Errorf("with --root: stderr %q lacks %q", r.stderr, want)
	}
}
