package ui

import (
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcp-inspect/mcp-inspect/themes"
)

// TestAutoThemeFollowsBackground: with no theme named, the model asks the terminal for its
// background and takes the light palette on a light one, the dark on a dark one; the
// widgets built with the first styles take the new ones.
func TestAutoThemeFollowsBackground(t *testing.T) {
	m := connected(t, moreSession(), 120, 30, func(o *Options) { o.Theme = "" })
	if !m.theme.auto || m.askBackground() == nil {
		t.Fatal("auto theme does not ask for the background")
	}
	if m.c.st.Palette.Error != themes.Dark().Error {
		t.Fatal("auto does not start dark")
	}
	drive(t, m, tea.BackgroundColorMsg{Color: lipgloss.Color("#fdf6e3")})
	if m.c.st.Palette.Error != themes.Light().Error {
		t.Fatalf("light background, error color %v", m.c.st.Palette.Error)
	}
	if got := m.tools.list.filter.Styles().Focused.Prompt.GetForeground(); got != themes.Light().Focus {
		t.Fatalf("the filter kept the old styles: %v", got)
	}
	if m.call.bar.FullColor != themes.Light().Accent {
		t.Fatal("the progress bar kept the old colors")
	}
	drive(t, m, tea.BackgroundColorMsg{Color: lipgloss.Color("#101010")})
	if m.c.st.Palette.Error != themes.Dark().Error {
		t.Fatal("dark background, not the dark palette")
	}
	if !strings.Contains(m.render(), "\x1b[") {
		t.Fatal("the dark palette drew no colors")
	}
}

// TestNamedThemeIgnoresBackground: a theme named (or NO_COLOR) is kept whatever the
// terminal's background; a theme with a background of its own paints the terminal.
func TestNamedThemeIgnoresBackground(t *testing.T) {
	m := connected(t, moreSession(), 120, 30, func(o *Options) { o.Theme = "tokyo-night" })
	drive(t, m, tea.BackgroundColorMsg{Color: lipgloss.Color("#ffffff")})
	want := themes.TokyoNight()
	if m.theme.auto || m.c.st.Palette.Error != want.Error {
		t.Fatal("a named theme followed the background")
	}
	v := m.View()
	if v.BackgroundColor != want.Bg || v.ForegroundColor != want.Fg {
		t.Fatalf("terminal colors %v %v", v.BackgroundColor, v.ForegroundColor)
	}
	m = connected(t, moreSession(), 120, 30, func(o *Options) { o.Theme, o.NoColor = "", true })
	drive(t, m, tea.BackgroundColorMsg{Color: lipgloss.Color("#ffffff")})
	if m.theme.auto || m.c.st.Palette.Error != nil {
		t.Fatal("NO_COLOR took a colored theme")
	}
	if v := m.View(); v.BackgroundColor != nil {
		t.Fatal("a theme without a background painted the terminal")
	}
}

func TestUserThemeFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine.toml"), []byte("extends = \"light\"\n[colors]\nerror = \"#123456\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := Options{Theme: "mine", ThemeDir: dir}
	if err := loadTheme(&o); err != nil {
		t.Fatal(err)
	}
	m := newModel(o)
	var want color.Color = lipgloss.Color("#123456")
	if m.c.st.Palette.Error != want || m.c.st.Palette.Request != themes.Light().Request || m.theme.auto {
		t.Fatalf("user theme not used: %+v", m.c.st.Palette)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.toml"), []byte("[colors]\nerorr = \"#123456\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o = Options{Theme: "bad", ThemeDir: dir}
	if err := loadTheme(&o); err == nil || !strings.Contains(err.Error(), "bad.toml:2:") {
		t.Fatalf("malformed theme: %v", err)
	}
}

// TestThemeGolden draws the wire pane in each colored built-in theme (escape sequences
// included: lipgloss writes the palette's colors as they are; the terminal's color
// profile is applied when the program writes the frame).
func TestThemeGolden(t *testing.T) {
	for _, name := range []string{"ansi", "dark", "light", "high-contrast", "catppuccin-mocha", "tokyo-night"} {
		t.Run(name, func(t *testing.T) {
			m := connected(t, moreSession(), 100, 12, func(o *Options) { o.Theme = name })
			drive(t, m, eventsMsg{events: wireSession()})
			keys(t, m, "3", "k")
			golden.RequireEqual(t, []byte(view(m)))
		})
	}
}
