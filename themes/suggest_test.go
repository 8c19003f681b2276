package themes_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/themes"
)

// TestUnknownThemeDidYouMean: a misspelt theme name gets the closest built-in theme or
// theme file as a suggestion, as a misspelt settings key does; a name near nothing gets none.
func TestUnknownThemeDidYouMean(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine.toml"), []byte("name = \"mine\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"tokyo-nigt": `did you mean "tokyo-night"?`,
		"mien":       `did you mean "mine"?`,
		"zzzzzzzzz":  "",
	} {
		_, err := themes.Load(name, dir, false)
		if err == nil {
			t.Fatalf("%s: no error", name)
		}
		if want == "" && strings.Contains(err.Error(), "did you mean") || want != "" && !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
	if _, err := themes.Lookup("Dark", false); err == nil || !strings.Contains(err.Error(), `did you mean "dark"?`) {
		t.Errorf("Lookup: %v", err)
	}
}
