package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/themes"
)

// listSearch is the "/" search of a list, the Logs pane, the Call pane's calls and the JSON
// explorer (issue 27: "/" searches, "F" filters, in every pane, as in the wire): typing a
// query moves the selection to the first row holding it (from the row selected when the
// search opened, wrapping), enter keeps the position and the query (its rows stay marked,
// n/N step through them), esc clears it. A row matches when its text holds the query,
// case-insensitively.
type listSearch struct {
	in     textinput.Model
	typing bool
	// from is the row selected when the search opened: the query is sought from there.
	from int
	// none says no row holds the query (the line says so, as the wire's search does).
	none bool
}

func newListSearch(c *common) listSearch {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "search"
	ti.SetStyles(inputStyles(c.st))
	return listSearch{in: ti}
}

// query is the search in force, lower-cased ("" = none).
func (s *listSearch) query() string { return strings.ToLower(strings.TrimSpace(s.in.Value())) }

// shown reports whether the search line is drawn: while typing, or a query in force.
func (s *listSearch) shown() bool { return s.typing || s.query() != "" }

// matches reports whether text holds the query in force (false without one).
func (s *listSearch) matches(text string) bool {
	q := s.query()
	return q != "" && strings.Contains(strings.ToLower(text), q)
}

// key handles the search keys of a list of n rows with row sel selected; text is row i's
// searchable text. to is the row to select (sel when the selection stays).
func (s *listSearch) key(k *keyMap, msg tea.KeyPressMsg, n, sel int, text func(int) string) (handled bool, to int, cmd tea.Cmd) {
	if s.typing {
		switch {
		case key.Matches(msg, k.Dialog.Dismiss):
			s.typing = false
			s.in.Blur()
			s.in.SetValue("")
		case key.Matches(msg, k.Dialog.Confirm):
			s.typing = false
			s.in.Blur()
		default:
			old := s.in.Value()
			s.in, cmd = s.in.Update(msg)
			if s.in.Value() != old {
				r := s.find(n, s.from, 1, text)
				s.none = r < 0 && s.query() != ""
				if r >= 0 {
					return true, r, cmd
				}
			}
		}
		return true, sel, cmd
	}
	switch {
	case key.Matches(msg, k.List.Search):
		s.typing, s.from, s.none = true, sel, false
		s.in.SetValue("")
		return true, sel, s.in.Focus()
	case s.query() != "" && key.Matches(msg, k.List.SearchNext):
		return true, max(s.find(n, sel+1, 1, text), sel), nil
	case s.query() != "" && key.Matches(msg, k.List.SearchPrev):
		if r := s.find(n, sel-1, -1, text); r >= 0 {
			return true, r, nil
		}
		return true, sel, nil
	case s.query() != "" && key.Matches(msg, k.Dialog.Dismiss):
		s.in.SetValue("")
		s.none = false
		return true, sel, nil
	}
	return false, sel, nil
}

// find is the first of n rows from start, stepping by dir and wrapping, whose text holds
// the query; -1 when none does.
func (s *listSearch) find(n, start, dir int, text func(int) string) int {
	if n == 0 || s.query() == "" {
		return -1
	}
	for i := range n {
		r := ((start+dir*i)%n + n) % n
		if s.matches(text(r)) {
			return r
		}
	}
	return -1
}

// line is the search line w wide: the input while typing, else the query and its keys.
func (s *listSearch) line(c *common, w int) string {
	none := ""
	if s.none && s.query() != "" {
		none = c.st.Warning.Render("  no match")
	}
	if s.typing {
		return fit(s.in.View()+none, w)
	}
	k := &c.keys.List
	return fit(c.st.Accent.Render("/"+clean(s.in.Value()))+none+
		c.st.Muted.Render("  "+k.SearchNext.Help().Key+"/"+k.SearchPrev.Help().Key+" next/previous · esc clears"), w)
}

// markMatches draws the occurrences of q (lower-case) in text (clean, unstyled) in the
// theme's match style; text as it is when its lower-case form has other byte offsets.
func markMatches(st *themes.Styles, text, q string) string {
	low := strings.ToLower(text)
	if q == "" || len(low) != len(text) {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(low, q)
		if i < 0 {
			break
		}
		b.WriteString(text[:i])
		b.WriteString(st.Match.Render(text[i : i+len(q)]))
		text, low = text[i+len(q):], low[i+len(q):]
	}
	b.WriteString(text)
	return b.String()
}
