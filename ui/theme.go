package ui

import (
	"log/slog"

	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/themes"
)

// themeState is how the model chose its theme: auto follows the terminal's background
// (no theme named, colors allowed) until the terminal says what it is.
type themeState struct {
	auto bool
	// dark is what the terminal's background answer said (auto only); known is set once
	// it came.
	dark, known bool
}

// paletteFor is the palette opts ask for: the one Run loaded (a user theme file), else a
// built-in by name; an unknown name falls back to the default (cmd checks names first).
func paletteFor(opts Options, log *slog.Logger) (themes.Palette, themeState) {
	if opts.palette != nil {
		return *opts.palette, themeState{}
	}
	name := opts.Theme
	if name == "" {
		name = themes.DefaultName
	}
	pal, err := themes.Lookup(name, opts.NoColor)
	if err != nil {
		log.Warn("theme", "err", err)
		name = themes.DefaultName
		pal, _ = themes.Lookup(name, opts.NoColor)
	}
	return pal, themeState{auto: name == themes.DefaultName && !opts.NoColor}
}

// loadTheme reads a user theme file for Run (not a built-in name): Update never reads one.
func loadTheme(opts *Options) error {
	if opts.Theme == "" || opts.ThemeDir == "" {
		return nil
	}
	if _, err := themes.Lookup(opts.Theme, false); err == nil {
		return nil
	}
	p, err := themes.Load(opts.Theme, opts.ThemeDir, opts.NoColor)
	if err != nil {
		return err
	}
	opts.palette = &p
	return nil
}

// askBackground asks the terminal for its background color when the theme follows it.
func (m *model) askBackground() tea.Cmd {
	if !m.theme.auto {
		return nil
	}
	return tea.RequestBackgroundColor
}

// backgroundColor takes the terminal's answer: auto picks the light theme on a light
// background (it started dark, the common case, so a dark terminal sees no change).
func (m *model) backgroundColor(msg tea.BackgroundColorMsg) {
	if !m.theme.auto || msg.Color == nil {
		return
	}
	dark := msg.IsDark()
	if m.theme.known && dark == m.theme.dark {
		return
	}
	first := !m.theme.known
	m.theme.dark, m.theme.known = dark, true
	if first && dark {
		return // already the dark palette
	}
	pal := themes.Light()
	if dark {
		pal = themes.Dark()
	}
	m.restyle(pal)
}

// restyle swaps the theme in place: panes read m.c.st when they draw; the widgets that
// copied styles when built (help, list filters, spinner, progress bars) get them again.
func (m *model) restyle(pal themes.Palette) {
	st := m.c.st
	*st = *themes.Build(pal)
	for _, l := range []*itemList{m.tools.list, m.resources.list, m.prompts.list, m.tasks.list} {
		l.filter.SetStyles(inputStyles(st))
	}
	m.call.spin.Style = st.Accent
	for _, b := range []*progress.Model{&m.call.bar, &m.prompts.bar, &m.resources.bar} {
		w := b.Width()
		*b = newBar(st)
		b.SetWidth(w)
	}
}

// paintTerminal sets the terminal's colors for a theme with a background of its own
// (high-contrast, catppuccin-mocha, tokyo-night): bubbletea restores them at exit.
func (m *model) paintTerminal(v *tea.View) {
	p := m.c.st.Palette
	if p.Bg != nil {
		v.BackgroundColor, v.ForegroundColor = p.Bg, p.Fg
	}
}
