package cmd

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
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
