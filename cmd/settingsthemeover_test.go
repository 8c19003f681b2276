package cmd

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/themes"
	"github.com/mcp-inspect/mcp-inspect/ui"
)

// TestSettingsUnknownThemeOverridden: when --theme or $MCP_INSPECT_THEME chooses the theme,
// a settings file naming a theme that does not exist stops no TUI command: the file's theme
// is left out with one warning, handed to the TUI (its status line and Logs pane), not
// printed on stderr; without either the TUI still refuses it.
func TestSettingsUnknownThemeOverridden(t *testing.T) {
	path := useSettings(t, "theme = \"drak\"\n")
	where := path + `:1:9: theme: unknown theme "drak"`
	for _, tc := range []struct {
		flags     []string
		env, from string
	}{{[]string{"--theme", "dark"}, "", "--theme"}, {nil, "light", "$" + themes.EnvVar}} {
		t.Setenv(themes.EnvVar, tc.env)
		// Past the settings to the terminal check (tests run without one).
		_, errs, code := runIn(t, append(tc.flags, "--", "true")...)
		if code != exitUsage || strings.Contains(errs, where) || !strings.Contains(errs, "the TUI needs a terminal") {
			t.Errorf("%s: exit %d, stderr %q; want only the terminal check", tc.from, code, errs)
		}
		root := newRootCmd()
		if err := root.ParseFlags(tc.flags); err != nil {
			t.Fatal(err)
		}
		if err := applySettings(root, settingsChecks()); err != nil {
			t.Fatalf("%s: %v", tc.from, err)
		}
		ws := withSettings(ui.Options{}, settingsOf(root)).Warnings
		if len(ws) != 1 || !strings.HasPrefix(ws[0], "settings: "+where) || !strings.HasSuffix(ws[0], "; left out: "+tc.from+" chooses the theme") {
			t.Errorf("%s: the TUI is handed %q, want one warning naming %s", tc.from, ws, where)
		}
		if th := settingsOf(root).Theme; th != "" {
			t.Errorf("%s: the file's theme %q was kept", tc.from, th)
		}
	}
	t.Setenv(themes.EnvVar, "")
	if _, errs, code := runIn(t, "--", "true"); code != exitUsage || !strings.HasPrefix(errs, "settings: "+where) {
		t.Errorf("no --theme: exit %d, stderr %q; want the settings error", code, errs)
	}
}
