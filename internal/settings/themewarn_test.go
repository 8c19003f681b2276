package settings

import (
	"slices"
	"strings"
	"testing"
)

// TestThemeWarns: with ThemeWarns an unknown theme is left out with a warning naming the
// file, line and column, and the rest of the file still applies; without it, it is the
// error it always was.
func TestThemeWarns(t *testing.T) {
	file := "theme = \"neon-nope\"\nera = \"auto\"\nroots = [\"/srv\"]\n"
	checks := testChecks()
	if _, err := Parse("config.toml", []byte(file), checks); err == nil || !strings.Contains(err.Error(), `config.toml:1:9: theme: unknown theme "neon-nope"`) {
		t.Fatalf("without ThemeWarns: %v", err)
	}
	checks.ThemeWarns = true
	s, err := Parse("config.toml", []byte(file), checks)
	if err != nil {
		t.Fatal(err)
	}
	if s.Theme != "" || s.Era != "auto" || !slices.Equal(s.Roots, []string{"/srv"}) {
		t.Errorf("theme %q era %q roots %v", s.Theme, s.Era, s.Roots)
	}
	if len(s.Warnings) != 1 || !strings.HasPrefix(s.Warnings[0], `config.toml:1:9: theme: unknown theme "neon-nope"`) {
		t.Errorf("warnings %q", s.Warnings)
	}
	// A known theme is kept, with no warning.
	s, err = Parse("config.toml", []byte("theme = \"dark\"\n"), checks)
	if err != nil || s.Theme != "dark" || len(s.Warnings) != 0 {
		t.Errorf("a known theme: %+v %v", s, err)
	}
}
