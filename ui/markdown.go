package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/glamour/v2"
	gansi "charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/themes"
)

// Descriptions (tools, prompts, resources, templates) and text/markdown resource contents
// render as markdown through glamour (issue 16 item 7); the RawText key shows them as the
// server sent them (sanitized). Server text is sanitized before glamour sees it, and of
// glamour's output only text and SGR styling are kept: a link's OSC 8 hyperlink (its URL
// is the server's) and any other sequence are dropped.
//
// Rendering costs milliseconds, so it happens in Update: the root's sync runs the focused
// pane's view once with the cache filling (markdown.filling); View itself only reads the
// cache and draws plain wrapped text for anything not rendered yet.

// markdown renders and caches markdown for the views.
type markdown struct {
	// style is glamour's standard style: "dark", "light", or "notty" without colors;
	// strip drops all styling (the plain theme: its output carries no escapes at all).
	style string
	strip bool
	// warn is the SGR that starts the theme's Warning style, for the text glamour would
	// have hidden (mdunhide.go); "" without styling.
	warn string
	// raw shows the text as sent instead (the RawText key).
	raw bool
	// filling is set while sync fills the cache; View never sets it.
	filling bool
	cache   map[mdKey][]string
	// renderers are glamour's, by wrap width.
	renderers map[int]*glamour.TermRenderer
}

// mdKey is one rendering: the text at a width.
type mdKey struct {
	text string
	w    int
}

// mdCacheMax bounds the cache; past it, it starts again empty.
const mdCacheMax = 256

// newMarkdown picks glamour's style from the theme: none under NO_COLOR, nothing at all
// for the plain theme, else dark (the themes have no light background yet).
func newMarkdown(st *themes.Styles) *markdown {
	md := &markdown{style: "dark", cache: map[mdKey][]string{}, renderers: map[int]*glamour.TermRenderer{}}
	switch {
	case st.Plain:
		md.style, md.strip = "notty", true
	case st.Palette.Accent == nil:
		md.style = "notty"
	}
	if !st.Plain {
		md.warn, _, _ = strings.Cut(st.Warning.Render("x"), "x")
	}
	return md
}

// setDark switches glamour's style for a dark or light background (no change without
// colors), dropping what was rendered.
func (md *markdown) setDark(dark bool) {
	if md.style == "notty" {
		return
	}
	style := "light"
	if dark {
		style = "dark"
	}
	if style != md.style {
		md.style = style
		clear(md.cache)
		clear(md.renderers)
	}
}

// lines is text as markdown wrapped to w cells: rendered when the cache has it (or while
// filling), else sanitized and wrapped as plain text. A nil markdown draws plain text.
func (md *markdown) lines(text string, w int) []string {
	plain := func() []string { return wrap(block(text), w) }
	if md == nil || md.raw || strings.TrimSpace(text) == "" {
		return plain()
	}
	k := mdKey{text, w}
	if l, ok := md.cache[k]; ok {
		return l
	}
	if !md.filling {
		return plain()
	}
	l, err := md.render(text, w)
	if err != nil {
		l = plain()
	}
	if len(md.cache) >= mdCacheMax {
		clear(md.cache)
	}
	md.cache[k] = l
	return l
}

// render runs glamour on the sanitized text and keeps text and SGR of its output.
func (md *markdown) render(text string, w int) ([]string, error) {
	r := md.renderers[w]
	if r == nil {
		var err error
		r, err = glamour.NewTermRenderer(glamour.WithStyles(mdStyle(md.style)), glamour.WithWordWrap(w))
		if err != nil {
			return nil, err
		}
		md.renderers[w] = r
	}
	src, marks := unhide(block(text))
	out, err := r.Render(src)
	if err != nil {
		return nil, err
	}
	out = sgrOnly(out)
	if md.strip {
		out = ansi.Strip(out)
	}
	lines := applyMarks(strings.Split(strings.Trim(out, "\n"), "\n"), marks, md.warn)
	// glamour pads lines to the wrap width and frames the document with blank lines.
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[0])) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[len(lines)-1])) == "" {
		lines = lines[:len(lines)-1]
	}
	var wrapped []string
	for _, l := range lines {
		if ansi.StringWidth(l) > w {
			// only a marked hidden part (applyMarks) makes a line wider than glamour wrapped it
			wrapped = append(wrapped, strings.Split(ansi.Wrap(l, w, ""), "\n")...)
			continue
		}
		wrapped = append(wrapped, l)
	}
	return wrapped, nil
}

// mdStyle is glamour's standard style of that name, flush left (no document margin, as
// the other detail lines) and in the terminal's own text color (the theme's Fg is the
// terminal default).
func mdStyle(name string) gansi.StyleConfig {
	var cfg gansi.StyleConfig
	switch name {
	case "light":
		cfg = styles.LightStyleConfig
	case "notty":
		cfg = styles.NoTTYStyleConfig
	default:
		cfg = styles.DarkStyleConfig
	}
	zero := uint(0)
	cfg.Document.Margin = &zero
	cfg.Document.Color = nil
	return cfg
}

// sgrOnly keeps the printable text, line breaks and SGR sequences (CSI … m) of s and drops
// every other escape sequence and control character.
func sgrOnly(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	var state byte
	for len(s) > 0 {
		seq, width, n, newState := ansi.DecodeSequence(s, state, nil)
		state = newState
		switch {
		case width > 0:
			b.WriteString(seq)
		case seq == "\n", seq == string(mdMarkOpen), seq == string(mdMarkClose):
			b.WriteString(seq)
		case isSGR(seq):
			b.WriteString(seq)
		}
		s = s[n:]
	}
	return b.String()
}

// isSGR reports whether seq is a Select Graphic Rendition sequence: ESC [, digits and
// separators, m.
func isSGR(seq string) bool {
	if !ansi.HasCsiPrefix(seq) || len(seq) < 3 || seq[len(seq)-1] != 'm' {
		return false
	}
	return strings.Trim(seq[2:len(seq)-1], "0123456789;:") == ""
}

// fillMarkdown renders, in Update, the markdown the focused list pane shows: its view is
// drawn once with the cache filling, so the View that follows finds every rendering.
func (m *model) fillMarkdown() {
	if m.c.md == nil || m.c.md.raw || m.lay.tooSmall || m.width == 0 {
		return
	}
	switch m.focus {
	case paneTools, paneResources, panePrompts:
	default:
		return
	}
	m.c.md.filling = true
	if m.c.gfx != nil {
		m.c.gfx.filling = true
	}
	_ = m.panes[m.focus].view(m.now())
	m.c.md.filling = false
	if m.c.gfx != nil {
		m.c.gfx.filling = false
	}
}

// darkPalette reports whether a theme is drawn on a dark background: its own Bg's, else
// dark unless it is the light theme (the others are made for dark terminals or follow the
// terminal, which markdownBackground then asks).
func darkPalette(pal themes.Palette, name string) bool {
	if pal.Bg != nil {
		r, g, b, _ := pal.Bg.RGBA()
		return 299*r+587*g+114*b < 500*0xffff
	}
	return name != "light"
}

// markdownBackground takes the terminal's background answer for the markdown style when
// the theme has no background of its own.
func (m *model) markdownBackground(msg tea.BackgroundColorMsg) {
	if msg.Color != nil && m.c.st.Palette.Bg == nil {
		m.c.md.setDark(msg.IsDark())
	}
}

// isMarkdown reports whether a MIME type is markdown (text/markdown, RFC 7763; also the
// common text/x-markdown).
func isMarkdown(mimeType string) bool {
	mt := strings.ToLower(strings.TrimSpace(strings.SplitN(mimeType, ";", 2)[0]))
	return mt == "text/markdown" || mt == "text/x-markdown"
}
