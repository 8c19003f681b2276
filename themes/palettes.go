package themes

import "charm.land/lipgloss/v2"

// The truecolor palettes below are downsampled by lipgloss to what the terminal shows
// (256 or 16 colors) through its detected color profile.

// Dark is for a dark terminal background: the text keeps the terminal's own foreground,
// the tokens are light enough to read on black up to a #303030 gray.
func Dark() Palette {
	return Palette{
		Muted:        lipgloss.Color("#8a8a8a"),
		Accent:       lipgloss.Color("#5fafd7"),
		Border:       lipgloss.Color("#585858"),
		Focus:        lipgloss.Color("#87d7ff"),
		Error:        lipgloss.Color("#ff6b6b"),
		Warning:      lipgloss.Color("#e5c07b"),
		Success:      lipgloss.Color("#98c379"),
		Request:      lipgloss.Color("#61afef"),
		Response:     lipgloss.Color("#98c379"),
		Notification: lipgloss.Color("#c678dd"),
		Stderr:       lipgloss.Color("#d19a66"),
		Lifecycle:    lipgloss.Color("#56b6c2"),
		SelectionFg:  lipgloss.Color("#ffffff"),
		SelectionBg:  lipgloss.Color("#264f78"),
		MatchFg:      lipgloss.Color("#1c1c1c"),
		MatchBg:      lipgloss.Color("#e5c07b"),
		JSONKey:      lipgloss.Color("#61afef"),
		JSONString:   lipgloss.Color("#98c379"),
		JSONNumber:   lipgloss.Color("#d19a66"),
		JSONBool:     lipgloss.Color("#c678dd"),
		JSONNull:     lipgloss.Color("#56b6c2"),
		JSONPunct:    lipgloss.Color("#8a8a8a"),
	}
}

// Light is for a light terminal background: the tokens are dark enough to read on white
// down to a #e4e4e4 gray.
func Light() Palette {
	return Palette{
		Muted:        lipgloss.Color("#5f5f5f"),
		Accent:       lipgloss.Color("#005f87"),
		Border:       lipgloss.Color("#b2b2b2"),
		Focus:        lipgloss.Color("#0050a0"),
		Error:        lipgloss.Color("#b71c1c"),
		Warning:      lipgloss.Color("#8a5a00"),
		Success:      lipgloss.Color("#1b6e20"),
		Request:      lipgloss.Color("#1a56b0"),
		Response:     lipgloss.Color("#1b6e20"),
		Notification: lipgloss.Color("#7b1fa2"),
		Stderr:       lipgloss.Color("#8d4e00"),
		Lifecycle:    lipgloss.Color("#00695c"),
		SelectionFg:  lipgloss.Color("#000000"),
		SelectionBg:  lipgloss.Color("#b3d7ff"),
		MatchFg:      lipgloss.Color("#000000"),
		MatchBg:      lipgloss.Color("#ffd54f"),
		JSONKey:      lipgloss.Color("#1a56b0"),
		JSONString:   lipgloss.Color("#1b6e20"),
		JSONNumber:   lipgloss.Color("#8d4e00"),
		JSONBool:     lipgloss.Color("#7b1fa2"),
		JSONNull:     lipgloss.Color("#00695c"),
		JSONPunct:    lipgloss.Color("#5f5f5f"),
	}
}

// HighContrast paints a black background with white text; every token reads at WCAG AA
// (4.5:1) or better against it, and so do the selection and search matches.
func HighContrast() Palette {
	return Palette{
		Fg:           lipgloss.Color("#ffffff"),
		Bg:           lipgloss.Color("#000000"),
		Muted:        lipgloss.Color("#c0c0c0"),
		Accent:       lipgloss.Color("#00ffff"),
		Border:       lipgloss.Color("#6c6c6c"), // also the status bar, under white text
		Focus:        lipgloss.Color("#ffff00"),
		Error:        lipgloss.Color("#ff6060"),
		Warning:      lipgloss.Color("#ffd700"),
		Success:      lipgloss.Color("#00ff00"),
		Request:      lipgloss.Color("#5fafff"),
		Response:     lipgloss.Color("#00ff00"),
		Notification: lipgloss.Color("#ff80ff"),
		Stderr:       lipgloss.Color("#ffaf00"),
		Lifecycle:    lipgloss.Color("#00ffff"),
		SelectionFg:  lipgloss.Color("#000000"),
		SelectionBg:  lipgloss.Color("#ffff00"),
		MatchFg:      lipgloss.Color("#000000"),
		MatchBg:      lipgloss.Color("#00ffff"),
		JSONKey:      lipgloss.Color("#5fafff"),
		JSONString:   lipgloss.Color("#00ff00"),
		JSONNumber:   lipgloss.Color("#ffaf00"),
		JSONBool:     lipgloss.Color("#ff80ff"),
		JSONNull:     lipgloss.Color("#00ffff"),
		JSONPunct:    lipgloss.Color("#c0c0c0"),
	}
}

// CatppuccinMocha is Catppuccin's darkest flavor (catppuccin.com/palette): base #1e1e2e,
// text #cdd6f4.
func CatppuccinMocha() Palette {
	return Palette{
		Fg:           lipgloss.Color("#cdd6f4"), // text
		Bg:           lipgloss.Color("#1e1e2e"), // base
		Muted:        lipgloss.Color("#9399b2"), // overlay2
		Accent:       lipgloss.Color("#cba6f7"), // mauve
		Border:       lipgloss.Color("#585b70"), // surface2
		Focus:        lipgloss.Color("#b4befe"), // lavender
		Error:        lipgloss.Color("#f38ba8"), // red
		Warning:      lipgloss.Color("#f9e2af"), // yellow
		Success:      lipgloss.Color("#a6e3a1"), // green
		Request:      lipgloss.Color("#89b4fa"), // blue
		Response:     lipgloss.Color("#a6e3a1"), // green
		Notification: lipgloss.Color("#f5c2e7"), // pink
		Stderr:       lipgloss.Color("#fab387"), // peach
		Lifecycle:    lipgloss.Color("#94e2d5"), // teal
		SelectionFg:  lipgloss.Color("#cdd6f4"), // text
		SelectionBg:  lipgloss.Color("#45475a"), // surface1
		MatchFg:      lipgloss.Color("#1e1e2e"), // base
		MatchBg:      lipgloss.Color("#f9e2af"), // yellow
		JSONKey:      lipgloss.Color("#89b4fa"),
		JSONString:   lipgloss.Color("#a6e3a1"),
		JSONNumber:   lipgloss.Color("#fab387"),
		JSONBool:     lipgloss.Color("#cba6f7"),
		JSONNull:     lipgloss.Color("#94e2d5"),
		JSONPunct:    lipgloss.Color("#9399b2"),
	}
}

// TokyoNight is the "night" style of the Tokyo Night theme (folke/tokyonight.nvim): bg
// #1a1b26, fg #c0caf5.
func TokyoNight() Palette {
	return Palette{
		Fg:           lipgloss.Color("#c0caf5"), // fg
		Bg:           lipgloss.Color("#1a1b26"), // bg
		Muted:        lipgloss.Color("#737aa2"), // dark5
		Accent:       lipgloss.Color("#7aa2f7"), // blue
		Border:       lipgloss.Color("#3b4261"), // fg_gutter
		Focus:        lipgloss.Color("#7dcfff"), // cyan
		Error:        lipgloss.Color("#f7768e"), // red
		Warning:      lipgloss.Color("#e0af68"), // yellow
		Success:      lipgloss.Color("#9ece6a"), // green
		Request:      lipgloss.Color("#7aa2f7"), // blue
		Response:     lipgloss.Color("#9ece6a"), // green
		Notification: lipgloss.Color("#bb9af7"), // magenta
		Stderr:       lipgloss.Color("#ff9e64"), // orange
		Lifecycle:    lipgloss.Color("#2ac3de"), // blue1
		SelectionFg:  lipgloss.Color("#c0caf5"), // fg
		SelectionBg:  lipgloss.Color("#283457"), // bg_visual
		MatchFg:      lipgloss.Color("#1a1b26"), // bg
		MatchBg:      lipgloss.Color("#e0af68"), // yellow
		JSONKey:      lipgloss.Color("#7aa2f7"),
		JSONString:   lipgloss.Color("#9ece6a"),
		JSONNumber:   lipgloss.Color("#ff9e64"),
		JSONBool:     lipgloss.Color("#bb9af7"),
		JSONNull:     lipgloss.Color("#2ac3de"),
		JSONPunct:    lipgloss.Color("#737aa2"),
	}
}
