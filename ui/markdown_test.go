package ui

import (
	"encoding/json"
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// mdSession has a tool, a prompt and a resource whose descriptions are markdown, and a
// text/markdown resource.
func mdSession() *fakeSession {
	s := moreSession()
	desc := "# Usage\n\nCall it with **care**.\n\n- one\n- two\n\nSee [the docs](https://docs.example/x)."
	s.tools = []mcpclient.Tool{{Name: "md", Description: desc, InputSchema: json.RawMessage(`{"type":"object"}`)}}
	s.prompts = []mcpclient.Prompt{{Name: "mdp", Description: desc}}
	s.resources = []mcpclient.Resource{{URI: "mem://readme", Name: "readme", MimeType: "text/markdown", Description: desc}}
	s.contents = map[string]*mcpclient.ReadResourceResult{
		"mem://readme": {Contents: []mcpclient.ResourceContents{{URI: "mem://readme", MimeType: "text/markdown", Text: "## Readme\n\nSome `code` and **bold** words."}}},
	}
	return s
}

// #16 item 7: descriptions render as markdown (bold as SGR bold, no asterisks, a list
// with bullets, a link's URL as text without an OSC 8 hyperlink), and m shows the raw
// text, in every pane that shows one.
func TestMarkdownDescriptions(t *testing.T) {
	m := connected(t, mdSession(), 120, 40, func(o *Options) { o.Theme = "dark" })
	for _, pane := range []string{"1", "6", "5"} {
		keys(t, m, pane)
		out := view(m)
		mustContain(t, "pane "+pane, out, "Usage", "• one", "https://docs.example/x")
		if strings.Contains(out, "**care**") || strings.Contains(out, "# Usage") {
			t.Errorf("pane %s: markdown not rendered:\n%s", pane, out)
		}
		if !strings.Contains(out, "\x1b[1mcare") && !strings.Contains(out, ";1mcare") {
			t.Errorf("pane %s: **care** not bold:\n%q", pane, out)
		}
		if strings.Contains(out, "\x1b]") {
			t.Errorf("pane %s: an OSC sequence reached the screen:\n%q", pane, out)
		}
	}
	keys(t, m, "m")
	for _, pane := range []string{"1", "6", "5"} {
		keys(t, m, pane)
		mustContain(t, "raw, pane "+pane, view(m), "Call it with **care**.", "# Usage", "- one")
	}
	keys(t, m, "m")
	mustContain(t, "rendered again", view(m), "• one")
}

// A text/markdown resource's contents render too.
func TestMarkdownResourceContents(t *testing.T) {
	m := connected(t, mdSession(), 120, 40, func(o *Options) { o.Theme = "dark" })
	keys(t, m, "5", "enter")
	out := view(m)
	mustContain(t, "read", out, "Readme", "bold")
	if strings.Contains(out, "## Readme") || strings.Contains(out, "**bold**") {
		t.Errorf("markdown contents not rendered:\n%s", out)
	}
}

// Server text is sanitized before glamour: an escape in a description stays visible as
// text, never a sequence, and glamour's own output keeps only SGR.
func TestMarkdownSanitized(t *testing.T) {
	s := mdSession()
	s.tools[0].Description = "**x**\x1b[2J\x1b]8;;https://evil.example\x07click\x1b]8;;\x07 \u202e"
	m := connected(t, s, 120, 40, func(o *Options) { o.Theme = "dark" })
	keys(t, m, "1")
	out := view(m)
	mustContain(t, "tools", out, `\x1b[2J`, `\x1b]8;;https://evil.example\x07click`, "<U+202E>")
	for _, bad := range []string{"\x1b[2J", "\x1b]", "\x07", "\u202e"} {
		if strings.Contains(out, bad) {
			t.Errorf("the screen holds %q:\n%q", bad, out)
		}
	}
}

// In the plain theme markdown still renders, with no escape at all.
func TestMarkdownPlainTheme(t *testing.T) {
	m := connected(t, mdSession(), 120, 40)
	keys(t, m, "1")
	out := view(m)
	mustContain(t, "plain", out, "• one", "Usage")
	if strings.Contains(out, "\x1b") {
		t.Errorf("plain theme output holds an escape:\n%q", out)
	}
}

func TestSGROnly(t *testing.T) {
	in := "\x1b[1mbold\x1b[m \x1b]8;;https://x\x07link\x1b]8;;\x07 \x1b[2J\x1b[?25l\x1b[>4mend\x07\n\x1b[38;5;35;1mok\x1b[0m"
	want := "\x1b[1mbold\x1b[m link end\n\x1b[38;5;35;1mok\x1b[0m"
	if got := sgrOnly(in); got != want {
		t.Errorf("sgrOnly = %q, want %q", got, want)
	}
}

func TestIsMarkdown(t *testing.T) {
	for mt, want := range map[string]bool{"text/markdown": true, "text/markdown; charset=utf-8": true, "TEXT/X-MARKDOWN": true, "text/plain": false, "": false} {
		if isMarkdown(mt) != want {
			t.Errorf("isMarkdown(%q) = %v", mt, !want)
		}
	}
}

// The terminal's answer about its background picks glamour's light or dark style.
func TestMarkdownFollowsBackground(t *testing.T) {
	m := connected(t, mdSession(), 120, 40, func(o *Options) { o.Theme = "dark" })
	keys(t, m, "1")
	dark := view(m)
	drive(t, m, tea.BackgroundColorMsg{Color: color.White})
	if m.c.md.style != "light" {
		t.Fatalf("style after a white background = %q", m.c.md.style)
	}
	light := view(m)
	if light == dark || !strings.Contains(light, "• one") {
		t.Errorf("the light rendering is the dark one:\n%q", light)
	}
	drive(t, m, tea.BackgroundColorMsg{Color: color.Black})
	if m.c.md.style != "dark" || view(m) != dark {
		t.Errorf("back on black: style %q", m.c.md.style)
	}
	// Without colors the answer changes nothing.
	p := connected(t, mdSession(), 120, 40)
	drive(t, p, tea.BackgroundColorMsg{Color: color.White})
	if p.c.md.style != "notty" {
		t.Errorf("plain theme style = %q", p.c.md.style)
	}
}

// A theme's own background, or the light theme, picks the markdown style from the start.
func TestMarkdownStyleFromTheme(t *testing.T) {
	for theme, want := range map[string]string{"dark": "dark", "light": "light", "high-contrast": "dark", "nocolor": "notty", "plain": "notty"} {
		m := connected(t, mdSession(), 100, 30, func(o *Options) { o.Theme = theme })
		if m.c.md.style != want {
			t.Errorf("theme %s: markdown style %q, want %q", theme, m.c.md.style, want)
		}
	}
}
