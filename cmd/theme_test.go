package cmd

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/internal/tmuxtest"
)

// TestChosenTheme pins the precedence: --theme, then MCP_INSPECT_THEME, then the flag's
// default (where the config file's theme goes).
func TestChosenTheme(t *testing.T) {
	fs := func(args ...string) (*pflag.FlagSet, *string) {
		fl := pflag.NewFlagSet("x", pflag.ContinueOnError)
		v := fl.String("theme", "from-config", "")
		if err := fl.Parse(args); err != nil {
			t.Fatal(err)
		}
		return fl, v
	}
	t.Setenv("MCP_INSPECT_THEME", "")
	fl, v := fs()
	if name, from := chosenTheme(fl, *v); name != "from-config" || from != "--theme" {
		t.Fatalf("nothing given: %s (%s)", name, from)
	}
	t.Setenv("MCP_INSPECT_THEME", "light")
	if name, from := chosenTheme(fl, *v); name != "light" || from != "MCP_INSPECT_THEME" {
		t.Fatalf("env: %s (%s)", name, from)
	}
	fl, v = fs("--theme", "tokyo-night")
	if name, _ := chosenTheme(fl, *v); name != "tokyo-night" {
		t.Fatalf("flag over env: %s", name)
	}
	fl, v = fs("--theme", "")
	if name, _ := chosenTheme(fl, *v); name != "" {
		t.Fatalf("--theme '' (auto) over env: %q", name)
	}
}

// TestBadThemeIsUsageError: an unknown theme or a malformed theme file stops the TUI
// commands before anything starts, with the file and line named and exit 2.
func TestBadThemeIsUsageError(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("MCP_INSPECT_THEME", "")
	dir := filepath.Join(cfg, "mcp-inspect", "themes")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mine.toml"), []byte("[colors]\nerror = \"#ff0000\"\nsucess = \"#00ff00\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) error {
		root := newRootCmd()
		root.SetArgs(args)
		root.SetOut(&strings.Builder{})
		root.SetErr(&strings.Builder{})
		return root.Execute()
	}
	for _, tc := range []struct {
		env  string
		args []string
		want []string
	}{
		{"", []string{"--theme", "mine", "--", "true"}, []string{"--theme: ", "mine.toml:3:", `unknown token "sucess"`}},
		{"mine", []string{"--", "true"}, []string{"MCP_INSPECT_THEME: ", "mine.toml:3:"}},
		{"mine", []string{"open", "/nonexistent.jsonl"}, []string{"MCP_INSPECT_THEME: ", "mine.toml:3:"}},
		{"", []string{"open", "--theme", "solarized", "/nonexistent.jsonl"}, []string{`unknown theme "solarized"`, "catppuccin-mocha", filepath.Join(dir, "solarized.toml")}},
	} {
		t.Setenv("MCP_INSPECT_THEME", tc.env)
		err := run(tc.args...)
		var ce *codeError
		if !errors.As(err, &ce) || ce.code != exitUsage {
			t.Fatalf("%v: %v, want a usage error", tc.args, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %q lacks %q", tc.args, err, w)
			}
		}
	}
}

// TestTUIMouse sends SGR mouse reports through tmux (send-keys cannot click): a click on
// a tool row, on a tab, and on a form field, as a terminal would report them.
func TestTUIMouse(t *testing.T) {
	bin := testservers.BuildInspector(t)
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir(), "MCP_INSPECT_THEME=", "NO_COLOR=1"}
	s := tmuxtest.Start(t, 140, 30, env, bin, "demo")
	s.WaitFor(t, 20*time.Second, "tools (9)")
	// SGR reports are 1-based: column 4, line 4 is the third row of the list ("add").
	s.SendText("\x1b[<0;4;4M\x1b[<0;4;4m")
	s.WaitFor(t, 10*time.Second, "add — Add two numbers")
	s.Send("Enter")
	s.WaitFor(t, 10*time.Second, "call add — Add two numbers")
	s.SendText("12")
	s.SendText("\x1b[<0;5;6M\x1b[<0;5;6m") // the b field, under a and its description
	s.WaitFor(t, 10*time.Second, "Second addend")
	s.SendText("30")
	s.Send("C-s")
	s.WaitFor(t, 10*time.Second, `{"sum":42}`)
	s.SendText("\x1b[<0;21;1M\x1b[<0;21;1m") // "3 Wire" in the header
	s.WaitFor(t, 10*time.Second, "wire · all")
}
