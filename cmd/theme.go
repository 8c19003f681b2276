package cmd

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mcp-inspect/mcp-inspect/themes"
)

// themeUsage is the --theme flag's help: every built-in theme, and where user themes are.
func themeUsage() string {
	names := slices.DeleteFunc(themes.Names(), func(n string) bool { return n == themes.DefaultName })
	return fmt.Sprintf("color `THEME`: %s (dark or light, from the terminal's background), %s, "+
		"or NAME for NAME.toml in the user config directory's mcp-inspect/themes (~/.config/mcp-inspect/themes on Linux); "+
		"not given: $%s, else the config file's, else %s; NO_COLOR is honoured",
		themes.DefaultName, strings.Join(names, ", "), themes.EnvVar, themes.DefaultName)
}

// chosenTheme is the theme a TUI command opens with, and what chose it (for errors):
// --theme when given, else $MCP_INSPECT_THEME, else the flag's value (its default: the
// config file's theme, or auto).
func chosenTheme(fl *pflag.FlagSet, val string) (name, from string) {
	if f := fl.Lookup("theme"); f != nil && f.Changed {
		return val, "--theme"
	}
	if env := os.Getenv(themes.EnvVar); env != "" {
		return env, themes.EnvVar
	}
	return val, "--theme"
}

// userThemeDir is where user theme files are (themes.Dir), "" when there is no config
// directory (built-in themes only).
func userThemeDir() string {
	d, err := themes.Dir()
	if err != nil {
		return ""
	}
	return d
}

// checkTheme reports a theme that cannot be used: an unknown name, or a theme file that
// does not parse (its line named); from says where the name came from.
func checkTheme(name, from string) error {
	if _, err := themes.Load(name, userThemeDir(), false); err != nil {
		return fmt.Errorf("%s: %w", from, err)
	}
	return nil
}
