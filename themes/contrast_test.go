package themes

import (
	"image/color"
	"math"
	"testing"

	"charm.land/lipgloss/v2"
)

// luminance is WCAG 2.x relative luminance (www.w3.org/TR/WCAG21/#dfn-relative-luminance).
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is the WCAG contrast ratio of two colors, 1 to 21.
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func TestContrastFormula(t *testing.T) {
	// WCAG's own end points, and a pair whose ratio is well known (#777 on white: 4.48).
	if got := contrast(lipgloss.Color("#000000"), lipgloss.Color("#ffffff")); math.Abs(got-21) > 0.01 {
		t.Fatalf("black on white %.2f", got)
	}
	if got := contrast(lipgloss.Color("#777777"), lipgloss.Color("#ffffff")); math.Abs(got-4.48) > 0.01 {
		t.Fatalf("#777 on white %.2f", got)
	}
}

// TestThemeContrast checks every colored theme's text tokens against the backgrounds it is
// drawn on: its own Bg, or for a theme on the terminal's background a range of dark (or
// light) ones, with the terminal's text color where the theme keeps it. Every token of a
// theme file (tokens) is checked, so a token added there is too. The selection,
// search matches and status bar are checked as the pairs they are drawn with.
// High-contrast must meet WCAG AA (4.5:1) everywhere, the others 3:1 (AA for large text
// and UI components).
func TestThemeContrast(t *testing.T) {
	c := lipgloss.Color
	darkBgs := []color.Color{c("#000000"), c("#1c1c1c"), c("#303030")}
	lightBgs := []color.Color{c("#ffffff"), c("#f5f5f5"), c("#e4e4e4")}
	cases := []struct {
		name   string
		bgs    []color.Color
		termFg color.Color // the terminal's text color on those backgrounds
		min    float64
	}{
		{"dark", darkBgs, c("#d0d0d0"), 3},
		{"auto", darkBgs, c("#d0d0d0"), 3}, // before the terminal answers
		{"light", lightBgs, c("#1c1c1c"), 3},
		{"high-contrast", nil, nil, 4.5},
		{"catppuccin-mocha", nil, nil, 3},
		{"tokyo-night", nil, nil, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Lookup(tc.name, false)
			if err != nil {
				t.Fatal(err)
			}
			bgs, fg := tc.bgs, tc.termFg
			if p.Bg != nil {
				if bgs != nil || p.Fg == nil {
					t.Fatal("a theme with its own background sets its text color too")
				}
				bgs, fg = []color.Color{p.Bg}, p.Fg
			} else if p.Fg != nil {
				fg = p.Fg
			}
			// Every token a theme file can set is text, but for the background, the border
			// and the pairs below; a nil token is drawn in the text color.
			text := map[string]color.Color{}
			for name, c := range tokens(&p) {
				switch name {
				case "bg", "border", "selection_fg", "selection_bg", "match_fg", "match_bg":
					continue
				}
				text[name] = *c
				if *c == nil {
					text[name] = fg
				}
			}
			if len(text) < 12 {
				t.Fatalf("only %d text tokens", len(text))
			}
			for _, bg := range bgs {
				for tok, col := range text {
					if r := contrast(col, bg); r < tc.min {
						t.Errorf("%s %v on %v: %.2f:1, want %.1f", tok, col, bg, r, tc.min)
					}
				}
			}
			pairs := map[string][2]color.Color{
				"selection":  {p.SelectionFg, p.SelectionBg},
				"match":      {p.MatchFg, p.MatchBg},
				"status bar": {fg, p.Border}, // Build: Background(Border).Foreground(Fg)
			}
			for what, pr := range pairs {
				if pr[0] == nil || pr[1] == nil {
					t.Errorf("%s: no color", what)
					continue
				}
				if r := contrast(pr[0], pr[1]); r < tc.min {
					t.Errorf("%s %v on %v: %.2f:1, want %.1f", what, pr[0], pr[1], r, tc.min)
				}
			}
			// The selection must stand out from the background it sits on.
			for _, bg := range bgs {
				if p.SelectionBg == bg {
					t.Errorf("selection background is the background")
				}
			}
		})
	}
}
