package cmd

import (
	"strings"
	"testing"
)

// TestSettingsUnknownThemeHeadless: a settings file naming a theme that does not exist stops
// no headless command (it draws nothing): each warns once on stderr, naming file:line:col,
// and runs with the rest of the file. The commands that show a theme (the TUI, open,
// settings show) still refuse it, with the same file:line:col.
func TestSettingsUnknownThemeHeadless(t *testing.T) {
	path := useSettings(t, "theme = \"neon-nope\"\ntimeout = \"7s\"\n")
	where := path + `:1:9: theme: unknown theme "neon-nope"`
	fake := fakeArgv(t, "minimal")
	for _, args := range [][]string{{"ping"}, {"tools"}, {"call", "echo"}, {"check"}} {
		out, errs, code := runIn(t, cmdline(args, fake)...)
		if code != exitOK {
			t.Errorf("%s: exit %d, stderr %q", args[0], code, errs)
		}
		if strings.Count(errs, where) != 1 || !strings.Contains(errs, "mcp-inspect: warning: settings: "+where) || !strings.Contains(errs, "left out: "+args[0]+" shows no theme") {
			t.Errorf("%s: want one warning naming %s; stderr %q", args[0], where, errs)
		}
		if out == "" {
			t.Errorf("%s: no output", args[0])
		}
	}
	// -q keeps stderr quiet, as for every other warning.
	if _, errs, code := runIn(t, cmdline([]string{"ping", "-q"}, fake)...); code != exitOK || errs != "" {
		t.Errorf("ping -q: exit %d, stderr %q", code, errs)
	}
	for _, args := range [][]string{{"settings", "show"}, {"--server", "x"}, {"open", "no-such.jsonl"}} {
		_, errs, code := runIn(t, args...)
		if code != exitUsage || !strings.HasPrefix(errs, "settings: "+where) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and settings: %s", args, code, errs, where)
		}
	}
}
