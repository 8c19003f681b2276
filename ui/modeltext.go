package ui

import (
	"fmt"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/internal/findings"
	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// descLines are the form header's view of the tool's text for the model: folded, the
// description's first line, its length when more is hidden, and a count of steering marks;
// open (Form.Describe), every text in full with its length and the lint's marks.
func (p *formPane) descLines() []string {
	st, w := p.c.st, p.w
	key := p.c.keys.Form.Describe.Help().Key
	if p.descOpen {
		var out []string
		for _, t := range p.texts {
			out = append(out, st.Title.Render(fit(fmt.Sprintf("%s (%d chars):", t.Field, t.Chars), w)))
			out = append(out, wrap(block(t.Text), w)...)
			for _, l := range t.Lint {
				out = append(out, wrapStyled(st.Warning, "⚠ steering? "+clean(l), w)...)
			}
		}
		if len(out) == 0 {
			out = append(out, st.Muted.Render("(no description)"))
		}
		return append(out, st.Muted.Render(fit(key+" folds the text for the model", w)))
	}
	var out []string
	if d := jsontext.FirstLine(p.tool.Description); d != "" {
		line := clean(d)
		if n := utf8.RuneCountInString(p.tool.Description); d != p.tool.Description || utf8.RuneCountInString(line) > w {
			tail := fmt.Sprintf("  (%d chars · %s shows all)", n, key)
			line = ansi.Truncate(line, max(w-ansi.StringWidth(tail), 10), "…") + tail
		}
		out = append(out, st.Muted.Render(fit(line, w)))
	}
	if p.marks > 0 {
		out = append(out, wrapStyled(st.Warning, fmt.Sprintf("⚠ %d steering mark(s) in the text for the model (for your review) · %s shows it", p.marks, key), w)...)
	}
	return out
}

// steeringLines are a tool's findings for the Tools pane's detail: the schema shapes and
// the lint of its text for the model, one warning each.
func steeringLines(st *themes.Styles, fs []findings.Finding, w int) []string {
	var out []string
	for _, f := range fs {
		out = append(out, wrapStyled(st.Warning, "⚠ "+clean(f.String()), w)...)
	}
	if len(out) > 0 {
		out = append(out, "")
	}
	return out
}
