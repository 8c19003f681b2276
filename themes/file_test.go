package themes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

func writeTheme(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name+".toml"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestLoadUserTheme(t *testing.T) {
	dir := t.TempDir()
	writeTheme(t, dir, "mine", `# my colors
extends = "light"

[colors]
error = "#ff0000"
muted = 244
accent = "5"
fg = ""
`)
	p, err := Load("mine", dir, false)
	if err != nil {
		t.Fatal(err)
	}
	want := Light()
	want.Error, want.Muted, want.Accent, want.Fg = lipgloss.Color("#ff0000"), lipgloss.Color("244"), lipgloss.Color("5"), nil
	for name, pair := range map[string][2]any{
		"error": {p.Error, want.Error}, "muted": {p.Muted, want.Muted}, "accent": {p.Accent, want.Accent},
		"fg": {p.Fg, want.Fg}, "request (from light)": {p.Request, want.Request},
	} {
		if pair[0] != pair[1] {
			t.Errorf("%s: got %v, want %v", name, pair[0], pair[1])
		}
	}
	// NO_COLOR wins over a user theme too.
	if p, err := Load("mine", dir, true); err != nil || p.Error != nil {
		t.Fatalf("noColor: %v %+v", err, p)
	}
	// A leading byte-order mark is skipped.
	writeTheme(t, dir, "bom", "\ufeffextends = \"light\"\n")
	if p, err := Load("bom", dir, false); err != nil || p.Request != Light().Request {
		t.Fatalf("a theme file with a byte-order mark: %v", err)
	}
	// A built-in name is never looked up as a file.
	writeTheme(t, dir, "dark", "this is not toml =")
	if _, err := Load("dark", dir, false); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(UserNames(dir), ","); got != "bom,dark,mine" {
		t.Fatalf("user names %s", got)
	}
}

// TestLoadThemeErrors: a bad theme file is an error naming the file and the line, never a
// crash or a silent default.
func TestLoadThemeErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, text string
		want       []string
	}{
		{"syntax", "extends = \"dark\"\n[colors]\nerror = \"#ff0000\n", []string{"syntax.toml:3:"}},
		{"unknowntoken", "[colors]\nerror = \"#ff0000\"\n\neror = \"#00ff00\"\n", []string{"unknowntoken.toml:4:", `unknown token "eror"`, "selection_bg"}},
		{"inline", "colors = { errr = \"#ff0000\" }\n", []string{"inline.toml:1:", `unknown token "errr"`}},
		{"badcolor", "[colors]\n\nwarning = \"#ggg\"\n", []string{"badcolor.toml:3:", "warning", `"#ggg" is not a color`}},
		{"bigansi", "[colors]\nwarning = 300\n", []string{"bigansi.toml:2:", "0-255"}},
		{"boolcolor", "[colors]\nwarning = true\n", []string{"boolcolor.toml:2:", "not a color"}},
		{"unknownkey", "extends = \"dark\"\nbackground = \"#000\"\n", []string{"unknownkey.toml:2:", `unknown key "background"`}},
		{"badbase", "\nextends = \"solarized\"\n", []string{"badbase.toml:2:", `extends "solarized"`, "tokyo-night"}},
		{"colorsint", "extends = \"dark\"\ncolors = 5\n", []string{"colorsint.toml:2:", `[colors] must be a table of token = "#rrggbb"`}},
		{"colorsarray", "\n[[colors]]\nerror = \"#ff0000\"\n", []string{"colorsarray.toml:2:", `[colors] must be a table`}},
		{"extendsint", "extends = 3\n", []string{"extendsint.toml:1:", "extends must be a string"}},
		{"duplicate", "[colors]\nerror = \"#ff0000\"\nerror = \"#00ff00\"\n", []string{"duplicate.toml:3:"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			writeTheme(t, dir, tc.name, tc.text)
			_, err := Load(tc.name, dir, false)
			if err == nil {
				t.Fatal("accepted")
			}
			if strings.Contains(err.Error(), "themeFile") || strings.Contains(err.Error(), "interface {}") {
				t.Errorf("error %q names Go types", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	_, err := Load("nothere", dir, false)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "nothere.toml")) || !strings.Contains(err.Error(), "high-contrast") {
		t.Fatalf("missing theme: %v", err)
	}
	if _, err := Load("../x", dir, false); err == nil {
		t.Fatal("a path accepted as a theme name")
	}
}
