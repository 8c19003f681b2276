// Package themes turns a palette of semantic color tokens into the lipgloss styles the UI
// draws with. The UI never names a color: it asks for "error" or "request", and a theme
// decides what that looks like. Themes never import the ui package.
package themes

import (
	"fmt"
	"image/color"
	"sort"

	"charm.land/lipgloss/v2"
)

// Palette holds one color per semantic token. A nil color means "the terminal's default".
type Palette struct {
	Fg           color.Color
	Muted        color.Color
	Accent       color.Color
	Border       color.Color
	Focus        color.Color
	Error        color.Color
	Warning      color.Color
	Success      color.Color
	Request      color.Color
	Response     color.Color
	Notification color.Color
	Stderr       color.Color
	Lifecycle    color.Color
	// SelectionFg and SelectionBg color the selected row; when both are nil the selection is
	// drawn reversed, which works without any color at all (NO_COLOR).
	SelectionFg color.Color
	SelectionBg color.Color
	// MatchFg and MatchBg color a search match; when both are nil a match is drawn bold and
	// underlined.
	MatchFg color.Color
	MatchBg color.Color
	// Bg is the background the palette is drawn on; when set, the UI paints the terminal's
	// background (and Fg as its foreground) with it, so the palette's contrast holds on any
	// terminal. Nil keeps the terminal's own background (the palette is made for a dark or
	// a light one).
	Bg color.Color
	// JSONKey, JSONString, JSONNumber, JSONBool, JSONNull and JSONPunct color the parts of
	// parsed JSON (object keys, string, number, true/false and null values, brackets,
	// colons and commas). A nil token falls back to a neighbouring semantic color (key:
	// Accent, string: Success, number: Notification, bool: Warning, null: Muted, punct:
	// Border); without any color keys are bold and null faint.
	JSONKey    color.Color
	JSONString color.Color
	JSONNumber color.Color
	JSONBool   color.Color
	JSONNull   color.Color
	JSONPunct  color.Color
	// NoAttrs drops every text attribute too (bold, reverse, faint): styles render as plain
	// text. Tests use it so that any escape byte in the output is a leak.
	NoAttrs bool
}

// Styles are the ready-to-use lipgloss styles built from a Palette.
type Styles struct {
	Base         lipgloss.Style
	Muted        lipgloss.Style
	Accent       lipgloss.Style
	Title        lipgloss.Style
	Border       lipgloss.Style
	Focus        lipgloss.Style
	Error        lipgloss.Style
	Warning      lipgloss.Style
	Success      lipgloss.Style
	Request      lipgloss.Style
	Response     lipgloss.Style
	Notification lipgloss.Style
	Stderr       lipgloss.Style
	Lifecycle    lipgloss.Style
	Selection    lipgloss.Style
	// Match marks the text a search found; MatchCurrent the match n/N stand on.
	Match        lipgloss.Style
	MatchCurrent lipgloss.Style
	// Escape marks bytes the sanitizer made visible (\x1b, <C7>, <U+202E>).
	Escape lipgloss.Style
	// TabActive and TabInactive draw the pane switcher.
	TabActive   lipgloss.Style
	TabInactive lipgloss.Style
	// StatusBar is the bottom line's background.
	StatusBar lipgloss.Style
	// Panel frames a box (dead-server panel, help).
	Panel lipgloss.Style
	// JSONKey … JSONPunct draw parsed JSON (the Palette's JSON tokens).
	JSONKey    lipgloss.Style
	JSONString lipgloss.Style
	JSONNumber lipgloss.Style
	JSONBool   lipgloss.Style
	JSONNull   lipgloss.Style
	JSONPunct  lipgloss.Style
	// Plain reports that styles add no escape sequences at all.
	Plain bool
	// Palette is what the styles were built from (bubbles components read colors from it).
	Palette Palette
}

// Build makes Styles from a Palette.
func Build(p Palette) *Styles {
	fg := func(c color.Color) lipgloss.Style {
		s := lipgloss.NewStyle()
		if c != nil {
			s = s.Foreground(c)
		}
		return s
	}
	attr := func(s lipgloss.Style, f func(lipgloss.Style) lipgloss.Style) lipgloss.Style {
		if p.NoAttrs {
			return s
		}
		return f(s)
	}
	bold := func(s lipgloss.Style) lipgloss.Style { return s.Bold(true) }
	faint := func(s lipgloss.Style) lipgloss.Style { return s.Faint(true) }
	s := &Styles{Palette: p, Plain: p.NoAttrs}
	s.Base = fg(p.Fg)
	s.Muted = fg(p.Muted)
	if p.Muted == nil {
		s.Muted = attr(s.Muted, faint)
	}
	s.Accent = fg(p.Accent)
	s.Title = attr(fg(p.Accent), bold)
	s.Border = fg(p.Border)
	s.Focus = attr(fg(p.Focus), bold)
	s.Error = attr(fg(p.Error), bold)
	s.Warning = fg(p.Warning)
	s.Success = fg(p.Success)
	s.Request = fg(p.Request)
	s.Response = fg(p.Response)
	s.Notification = fg(p.Notification)
	s.Stderr = fg(p.Stderr)
	s.Lifecycle = fg(p.Lifecycle)
	sel := lipgloss.NewStyle()
	switch {
	case p.NoAttrs:
	case p.SelectionBg == nil && p.SelectionFg == nil:
		sel = sel.Reverse(true)
	default:
		if p.SelectionBg != nil {
			sel = sel.Background(p.SelectionBg)
		}
		if p.SelectionFg != nil {
			sel = sel.Foreground(p.SelectionFg)
		}
		sel = sel.Bold(true)
	}
	s.Selection = sel
	s.Match = lipgloss.NewStyle()
	switch {
	case p.NoAttrs:
	case p.MatchBg == nil && p.MatchFg == nil:
		s.Match = s.Match.Bold(true).Underline(true)
	default:
		if p.MatchBg != nil {
			s.Match = s.Match.Background(p.MatchBg)
		}
		if p.MatchFg != nil {
			s.Match = s.Match.Foreground(p.MatchFg)
		}
	}
	s.MatchCurrent = s.Match
	switch {
	case p.NoAttrs:
	case p.MatchBg == nil && p.MatchFg == nil:
		s.MatchCurrent = s.Match.Reverse(true)
	default:
		s.MatchCurrent = s.Match.Bold(true).Underline(true)
	}
	s.Escape = fg(p.Warning)
	if p.Warning == nil {
		s.Escape = attr(s.Escape, faint)
	}
	s.TabActive = attr(fg(p.Focus), func(s lipgloss.Style) lipgloss.Style { return s.Bold(true).Underline(true) })
	s.TabInactive = s.Muted
	s.StatusBar = lipgloss.NewStyle()
	if !p.NoAttrs && p.SelectionBg == nil {
		s.StatusBar = s.StatusBar.Reverse(true)
	} else if p.SelectionBg != nil {
		s.StatusBar = s.StatusBar.Background(p.Border).Foreground(p.Fg)
	}
	// A border of plain box-drawing runes carries no escape sequences unless colored.
	s.Panel = lipgloss.NewStyle().Border(lipgloss.NormalBorder()).Padding(0, 1)
	if p.Error != nil {
		s.Panel = s.Panel.BorderForeground(p.Error)
	}
	buildJSON(s, p, fg, attr)
	return s
}

// buildJSON sets the JSON token styles, each from its token or the fallback color.
func buildJSON(s *Styles, p Palette, fg func(color.Color) lipgloss.Style, attr func(lipgloss.Style, func(lipgloss.Style) lipgloss.Style) lipgloss.Style) {
	or := func(c, fallback color.Color) color.Color {
		if c != nil {
			return c
		}
		return fallback
	}
	s.JSONKey = fg(or(p.JSONKey, p.Accent))
	if p.JSONKey == nil && p.Accent == nil {
		s.JSONKey = attr(s.JSONKey, func(s lipgloss.Style) lipgloss.Style { return s.Bold(true) })
	}
	s.JSONString = fg(or(p.JSONString, p.Success))
	s.JSONNumber = fg(or(p.JSONNumber, p.Notification))
	s.JSONBool = fg(or(p.JSONBool, p.Warning))
	s.JSONNull = fg(or(p.JSONNull, p.Muted))
	if p.JSONNull == nil && p.Muted == nil {
		s.JSONNull = attr(s.JSONNull, func(s lipgloss.Style) lipgloss.Style { return s.Faint(true) })
	}
	s.JSONPunct = fg(or(p.JSONPunct, p.Border))
}

// ANSI16 is the "ansi" palette: it uses only the 16 ANSI colors, so the tool follows the
// terminal's own color scheme (light or dark).
func ANSI16() Palette {
	return Palette{
		Muted:        lipgloss.BrightBlack,
		Accent:       lipgloss.Cyan,
		Border:       lipgloss.BrightBlack,
		Focus:        lipgloss.BrightCyan,
		Error:        lipgloss.Red,
		Warning:      lipgloss.Yellow,
		Success:      lipgloss.Green,
		Request:      lipgloss.Blue,
		Response:     lipgloss.Green,
		Notification: lipgloss.Magenta,
		Stderr:       lipgloss.Yellow,
		Lifecycle:    lipgloss.Cyan,
		MatchFg:      lipgloss.Black,
		MatchBg:      lipgloss.Yellow,
		JSONKey:      lipgloss.Blue,
		JSONString:   lipgloss.Green,
		JSONNumber:   lipgloss.Cyan,
		JSONBool:     lipgloss.Yellow,
		JSONNull:     lipgloss.Magenta,
		JSONPunct:    lipgloss.BrightBlack,
	}
}

// NoColor is for NO_COLOR: no colors at all; selection and focus use reverse and bold.
func NoColor() Palette { return Palette{} }

// Plain has neither colors nor attributes: rendered text carries no escape sequences.
func Plain() Palette { return Palette{NoAttrs: true} }

// DefaultName is the theme used when none is chosen: dark or light, from the terminal's
// background (the UI asks the terminal; Lookup answers dark until it knows).
const DefaultName = "auto"

// palettes returns the named themes; a function, not a package variable, so nothing is
// shared mutable state.
func palettes() map[string]func() Palette {
	return map[string]func() Palette{
		DefaultName:        Dark,
		"ansi":             ANSI16,
		"dark":             Dark,
		"light":            Light,
		"high-contrast":    HighContrast,
		"catppuccin-mocha": CatppuccinMocha,
		"tokyo-night":      TokyoNight,
		"nocolor":          NoColor,
		"plain":            Plain,
	}
}

// Names lists the theme names, sorted.
func Names() []string {
	var n []string
	for k := range palettes() {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// Lookup returns the palette of a named theme ("" is the default). noColor (the NO_COLOR
// convention) turns any colored theme into NoColor, keeping it usable through attributes.
func Lookup(name string, noColor bool) (Palette, error) {
	if name == "" {
		name = DefaultName
	}
	f, ok := palettes()[name]
	if !ok {
		return Palette{}, fmt.Errorf("unknown theme %q (%shave %v)", name, didYouMean(name, ""), Names())
	}
	p := f()
	if noColor && !p.NoAttrs {
		p = NoColor()
	}
	return p, nil
}
