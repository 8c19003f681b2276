package ui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Glamour drops what a browser would not draw: HTML comments and tags (bluemonday strips
// them), link and image titles, and reference definitions. A server's description can hide
// steering text there (tool poisoning), so unhide rewrites the markdown before glamour sees
// it: each hidden part becomes a placeholder, which render replaces with the part's text
// in the theme's Warning style. Zero-width and other invisible characters
// are already shown as <U+…> by the sanitizer; images show their alt text and URL.

// mdMarkOpen and mdMarkClose delimit a placeholder's number in glamour's input and output:
// private-use runes that the server's own text cannot carry (unhide escapes them). The
// marked text itself bypasses glamour so that it shows exactly as written.
const (
	mdMarkOpen  = '\uE000'
	mdMarkClose = '\uE001'
)

// mdEdit replaces source[from:to] with repl.
type mdEdit struct {
	from, to int
	repl     string
}

// unhide returns src with every part glamour would hide replaced by (or, for parts without
// a place in the text, followed by) a placeholder, and the texts of the placeholders in
// order. src is sanitized text.
func unhide(src string) (string, []string) {
	src = strings.NewReplacer(string(mdMarkOpen), "<U+E000>", string(mdMarkClose), "<U+E001>").Replace(src)
	source := []byte(src)
	md := goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList))
	pc := parser.NewContext()
	doc := md.Parser().Parse(text.NewReader(source), parser.WithContext(pc))
	var edits []mdEdit
	var notes, marks []string
	// a reference link's title is its definition's, shown with the definition.
	refTitles := map[string]bool{}
	for _, r := range pc.References() {
		refTitles[string(r.Title())] = true
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			lines := n.Lines()
			if lines.Len() == 0 {
				return ast.WalkSkipChildren, nil
			}
			from, to := lines.At(0).Start, lines.At(lines.Len()-1).Stop
			if n.HasClosure() {
				to = n.ClosureLine.Stop
			}
			repl := mark(&marks, htmlWhat(string(source[from:to])), string(source[from:to]))
			if strings.HasSuffix(string(source[from:to]), "\n") {
				repl += "\n" // the block's end stays a line end
			}
			edits = append(edits, mdEdit{from, to, repl})
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			if n.Segments.Len() == 0 {
				return ast.WalkSkipChildren, nil
			}
			from, to := n.Segments.At(0).Start, n.Segments.At(n.Segments.Len()-1).Stop
			edits = append(edits, mdEdit{from, to, mark(&marks, htmlWhat(string(source[from:to])), string(source[from:to]))})
			return ast.WalkSkipChildren, nil
		case *ast.Link:
			if strings.TrimFunc(string(nodeText(n, source)), invisible) == "" {
				notes = append(notes, mark(&marks, "link with no text", string(n.Destination)))
			}
			if len(n.Title) > 0 && !refTitles[string(n.Title)] {
				notes = append(notes, mark(&marks, "link title", string(n.Title)))
			}
		case *ast.Image:
			if len(n.Title) > 0 {
				notes = append(notes, mark(&marks, "image title", string(n.Title)))
			}
		}
		return ast.WalkContinue, nil
	})
	for _, r := range pc.References() {
		def := fmt.Sprintf("[%s]: %s", r.Label(), r.Destination())
		if len(r.Title()) > 0 {
			def += fmt.Sprintf(" %q", r.Title())
		}
		notes = append(notes, mark(&marks, "link definition", def))
	}
	if len(edits) == 0 && len(notes) == 0 {
		return src, nil
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].from < edits[j].from })
	var b strings.Builder
	at := 0
	for _, e := range edits {
		if e.from < at {
			continue // nested in an edit already made
		}
		b.Write(source[at:e.from])
		b.WriteString(e.repl)
		at = e.to
	}
	b.Write(source[at:])
	for _, n := range notes {
		b.WriteString("\n\n")
		b.WriteString(n)
	}
	return b.String(), marks
}

// htmlWhat names a piece of raw HTML: a comment or other HTML.
func htmlWhat(raw string) string {
	if strings.HasPrefix(strings.TrimSpace(raw), "<!--") {
		return "html comment"
	}
	return "html"
}

// mark keeps "[hidden WHAT: TEXT]" in marks and returns its placeholder; TEXT's
// whitespace runs become one space so a block stays one marked line.
func mark(marks *[]string, what, s string) string {
	*marks = append(*marks, "[hidden "+what+": "+strings.Join(strings.Fields(s), " ")+"]")
	return string(mdMarkOpen) + strconv.Itoa(len(*marks)-1) + string(mdMarkClose)
}

// nodeText is the source text of n's Text descendants.
func nodeText(n ast.Node, source []byte) []byte {
	var out []byte
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			out = append(out, t.Segment.Value(source)...)
		}
		return ast.WalkContinue, nil
	})
	return out
}

// invisible reports whether r draws nothing (the sanitizer already spelled zero-width
// runes as <U+…>, which stays visible).
func invisible(r rune) bool { return unicode.IsSpace(r) }

// applyMarks puts the marked texts back in place of their placeholders in rendered
// lines, in the Warning style (warn is its SGR prefix; "" adds no styling).
func applyMarks(lines, marks []string, warn string) []string {
	if len(marks) == 0 {
		return lines
	}
	for i, l := range lines {
		if !strings.ContainsRune(l, mdMarkOpen) {
			continue
		}
		var b strings.Builder
		for {
			before, rest, ok := strings.Cut(l, string(mdMarkOpen))
			b.WriteString(before)
			if !ok {
				break
			}
			num, after, ok := strings.Cut(rest, string(mdMarkClose))
			k, err := strconv.Atoi(num)
			if !ok || err != nil || k < 0 || k >= len(marks) {
				b.WriteString(rest)
				break
			}
			if warn != "" {
				b.WriteString(warn + marks[k] + "\x1b[m")
			} else {
				b.WriteString(marks[k])
			}
			l = after
		}
		lines[i] = b.String()
	}
	return lines
}
