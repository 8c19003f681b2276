package themes

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/mcp-inspect/mcp-inspect/internal/boundedfile"
	"github.com/mcp-inspect/mcp-inspect/internal/configdir"
	"github.com/mcp-inspect/mcp-inspect/internal/suggest"
)

// EnvVar names the environment variable that chooses a theme when --theme is not given.
const EnvVar = "MCP_INSPECT_THEME"

// MaxFileSize bounds a theme file (64 KiB; a theme file is a few hundred bytes): it is read
// through boundedfile, so a symlink to /dev/zero, a device or a silent FIFO is refused, not
// read forever.
const MaxFileSize = 64 << 10

// Dir is where user theme files live: the user's config directory (configdir.Dir: an
// absolute $XDG_CONFIG_HOME or ~/.config on Linux, ~/Library/Application Support on macOS)
// joined with mcp-inspect/themes. A theme NAME is the file NAME.toml there. With no config
// directory the error says why (then only the built-in themes are there).
func Dir() (string, error) {
	d, _, why := configdir.Dir(os.Getenv)
	if d == "" {
		return "", errors.New(why)
	}
	return filepath.Join(d, "mcp-inspect", "themes"), nil
}

// Load returns the palette of theme name: a built-in theme, else the file name.toml in dir
// ("" looks at built-in themes only). noColor as in Lookup. Errors: an unknown name (the
// list of what there is), or a theme file that does not parse (see ParseFile).
func Load(name, dir string, noColor bool) (Palette, error) {
	if name == "" {
		name = DefaultName
	}
	if _, ok := palettes()[name]; ok || dir == "" {
		return Lookup(name, noColor)
	}
	if strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return Palette{}, fmt.Errorf("theme %q: a theme name is a built-in name or a file name in %s, without .toml", name, dir)
	}
	path := filepath.Join(dir, name+".toml")
	data, err := boundedfile.Read(path, MaxFileSize)
	if errors.Is(err, os.ErrNotExist) {
		return Palette{}, fmt.Errorf("unknown theme %q (%sbuilt in: %s; no file %s)", name, didYouMean(name, dir), strings.Join(Names(), ", "), path)
	}
	if err != nil {
		return Palette{}, fmt.Errorf("theme %q: %w", name, err)
	}
	p, err := ParseFile(path, data)
	if err != nil {
		return Palette{}, err
	}
	if noColor && !p.NoAttrs {
		p = NoColor()
	}
	return p, nil
}

// UserNames lists the theme files in dir (their names, without .toml), sorted; nil when
// there are none or dir cannot be read.
func UserNames(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".toml"); ok && !e.IsDir() && n != "" {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// tokens maps the token names a theme file sets (the [colors] table) to the palette's
// fields. A new Palette color gets a line here.
func tokens(p *Palette) map[string]*color.Color {
	return map[string]*color.Color{
		"fg":           &p.Fg,
		"bg":           &p.Bg,
		"muted":        &p.Muted,
		"accent":       &p.Accent,
		"border":       &p.Border,
		"focus":        &p.Focus,
		"error":        &p.Error,
		"warning":      &p.Warning,
		"success":      &p.Success,
		"request":      &p.Request,
		"response":     &p.Response,
		"notification": &p.Notification,
		"stderr":       &p.Stderr,
		"lifecycle":    &p.Lifecycle,
		"selection_fg": &p.SelectionFg,
		"selection_bg": &p.SelectionBg,
		"match_fg":     &p.MatchFg,
		"match_bg":     &p.MatchBg,
		"json_key":     &p.JSONKey,
		"json_string":  &p.JSONString,
		"json_number":  &p.JSONNumber,
		"json_bool":    &p.JSONBool,
		"json_null":    &p.JSONNull,
		"json_punct":   &p.JSONPunct,
	}
}

// TokenNames lists the token names a theme file's [colors] table accepts, sorted.
func TokenNames() []string {
	var p Palette
	var names []string
	for n := range tokens(&p) {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// themeFile is the shape of a theme file:
//
//	extends = "dark"      # a built-in theme to start from (default: auto's dark)
//	[colors]
//	error = "#ff5555"     # "#rrggbb", "#rgb", an ANSI color 0-255, or "" for the terminal's
type themeFile struct {
	Extends string         `toml:"extends"`
	Colors  map[string]any `toml:"colors"`
}

// ParseFile reads a theme file's data (path names it in errors). Errors name the file and
// line: TOML syntax, a key other than extends and [colors], an unknown built-in to extend,
// an unknown token, a value that is not a color.
//
// A leading UTF-8 byte-order mark is skipped, as in the settings file.
func ParseFile(path string, data []byte) (Palette, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	var f themeFile
	if err := checkShape(path, data); err != nil {
		return Palette{}, err
	}
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			msg := strings.TrimPrefix(de.Error(), "toml: ")
			var sm *toml.StrictMissingError
			if errors.As(err, &sm) {
				msg = fmt.Sprintf("unknown key %q (a theme file has extends and a [colors] table)", strings.Join(de.Key(), "."))
			}
			return Palette{}, fmt.Errorf("%s:%d:%d: %s", path, row, col, msg)
		}
		return Palette{}, fmt.Errorf("%s: %w", path, err)
	}
	base := f.Extends
	if base == "" {
		base = "dark"
	}
	mk, ok := palettes()[base]
	if !ok || base == DefaultName {
		return Palette{}, fmt.Errorf("%s:%d: extends %q: not a built-in theme (%s)", path, keyLine(data, "", "extends"), base, strings.Join(slices.DeleteFunc(Names(), func(n string) bool { return n == DefaultName }), ", "))
	}
	p := mk()
	tok := tokens(&p)
	for _, name := range sortedKeys(f.Colors) {
		dst, ok := tok[name]
		if !ok {
			return Palette{}, fmt.Errorf("%s:%d: unknown token %q in [colors] (known: %s)", path, keyLine(data, "colors", name), name, strings.Join(TokenNames(), ", "))
		}
		c, err := parseColor(f.Colors[name])
		if err != nil {
			return Palette{}, fmt.Errorf("%s:%d: %s: %w", path, keyLine(data, "colors", name), name, err)
		}
		*dst = c
	}
	return p, nil
}

// checkShape reports a document whose extends is not a string or whose colors is not a
// table, at its line, before the struct decoder would name Go types. A document that does
// not parse is left to the decoder, which names the position.
func checkShape(path string, data []byte) error {
	var doc map[string]any
	if toml.Unmarshal(data, &doc) != nil {
		return nil
	}
	if v, ok := doc["extends"]; ok {
		if _, ok := v.(string); !ok {
			return fmt.Errorf("%s:%d: extends must be a string: the name of a built-in theme", path, keyLine(data, "", "extends"))
		}
	}
	if v, ok := doc["colors"]; ok {
		if _, ok := v.(map[string]any); !ok {
			return fmt.Errorf("%s:%d: [colors] must be a table of token = \"#rrggbb\"", path, keyLine(data, "", "colors"))
		}
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// parseColor reads a token's value: "#rrggbb", "#rgb", an ANSI color number 0-255 (a
// string or an integer), or "" for the terminal's default (nil).
func parseColor(v any) (color.Color, error) {
	switch v := v.(type) {
	case int64:
		if v < 0 || v > 255 {
			return nil, fmt.Errorf("ANSI color %d: give 0-255", v)
		}
		return lipgloss.Color(strconv.FormatInt(v, 10)), nil
	case string:
		s := strings.TrimSpace(v)
		switch {
		case s == "":
			return nil, nil
		case strings.HasPrefix(s, "#"):
			h := s[1:]
			if (len(h) != 6 && len(h) != 3) || strings.Trim(strings.ToLower(h), "0123456789abcdef") != "" {
				return nil, fmt.Errorf("%q is not a color: give #rrggbb, #rgb or 0-255", v)
			}
			return lipgloss.Color(s), nil
		default:
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 || n > 255 {
				return nil, fmt.Errorf("%q is not a color: give #rrggbb, #rgb or 0-255", v)
			}
			return lipgloss.Color(s), nil
		}
	}
	return nil, fmt.Errorf("%v is not a color: give a string \"#rrggbb\", \"#rgb\" or 0-255", v)
}

// keyLine is the line of key in table (dotted, "" for the top level) of a TOML document
// that decoded, for errors about its value; 0 when not found.
func keyLine(data []byte, table, key string) int {
	var p unstable.Parser
	p.Reset(data)
	cur, fallback := "", 0
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			cur = keyPath(e.Key())
			if table == "" && cur == key && fallback == 0 {
				it := e.Key()
				it.Next()
				fallback = p.Shape(it.Node().Raw).Start.Line // [[key]]: its header
			}
		case unstable.KeyValue:
			full := keyPath(e.Key())
			if cur != "" {
				full = cur + "." + full
			}
			want := key
			if table != "" {
				want = table + "." + key
			}
			it := e.Key()
			it.Next()
			line := p.Shape(it.Node().Raw).Start.Line
			switch full {
			case want:
				return line
			case table:
				fallback = line // an inline table: colors = { … }
			}
		}
	}
	return fallback
}

// keyPath joins a key's parts with dots.
func keyPath(it unstable.Iterator) string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return strings.Join(parts, ".")
}

// didYouMean is "did you mean \"NAME\"? " for the built-in theme or theme file in dir whose
// name is closest to name (a typo, see suggest.Nearest), "" when none is.
func didYouMean(name, dir string) string {
	known := Names()
	if ents, err := os.ReadDir(dir); err == nil {
		for _, e := range ents {
			if n, ok := strings.CutSuffix(e.Name(), ".toml"); ok && !e.IsDir() {
				known = append(known, n)
			}
		}
	}
	if near := suggest.Nearest(name, known); near != "" {
		return fmt.Sprintf("did you mean %q? ", near)
	}
	return ""
}
