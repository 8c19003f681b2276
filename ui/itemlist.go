package ui

import (
	"cmp"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/mcp-inspect/mcp-inspect/themes"
	"github.com/sahilm/fuzzy"
)

// listItem is one row of an itemList. Text is raw server text; the list sanitizes it.
type listItem struct {
	// key identifies the item across refreshes (a uri, a name, a task id).
	key string
	// label is the row text; tag a muted suffix; mark a short flag before the label
	// ("●" subscribed, "↻" updated, a task status …).
	label string
	tag   string
	mark  string
	// search is what the filter matches (label when empty).
	search string
}

// itemList is the selectable, fuzzy-filterable list every list pane shares (Tools,
// Resources, Prompts, Tasks). The first row is a title or the filter.
type itemList struct {
	c     *common
	title string
	// empty says why there is nothing to list.
	empty string
	// heading, when set, draws the title row instead of title (the Tools pane's count and
	// listing errors); emptyRow likewise draws the row shown when nothing is listed.
	heading  func(w int) string
	emptyRow func(w int) string
	// noMarks drops the mark column (rows are " label tag").
	noMarks bool
	// noMatch is said when the filter hides every item ("" = "nothing matches").
	noMatch string
	items   []listItem
	// repeats flag items a later page of the listing repeated, by key ("⚠ pages 1,3");
	// pageNote follows the title while the listing is stepped a page at a time.
	repeats  map[string]string
	pageNote string
	shown    []int
	sel      int
	top      int
	// anchor is the key of the item last chosen (moved to, clicked, selected by name): a
	// filter change selects it again when it shows, else the nearest shown item before it.
	anchor string

	filter    textinput.Model
	filtering bool
	// find is the "/" search: it moves the selection among the shown rows, the filter ("F")
	// narrows them.
	find listSearch
	r    rect
}

func newItemList(c *common, title, empty string) *itemList {
	ti := textinput.New()
	ti.Prompt = "filter: "
	ti.Placeholder = "show only what matches"
	ti.SetStyles(inputStyles(c.st))
	return &itemList{c: c, title: title, empty: empty, filter: ti, find: newListSearch(c)}
}

// typing reports whether the filter or the search input takes the keys.
func (l *itemList) typing() bool { return l.filtering || l.find.typing }

// rowText is what the filter and the search match in shown row r.
func (l *itemList) rowText(r int) string {
	it := &l.items[l.shown[r]]
	if it.search != "" {
		return it.search
	}
	return it.label
}

// setItems replaces the items, keeping the selection on the same key when it is still there.
func (l *itemList) setItems(items []listItem) {
	cur := l.chosen()
	l.items = items
	l.refilter(cur)
}

// refilter recomputes the shown rows and selects the row with key cur (or the first).
func (l *itemList) refilter(cur string) {
	q := strings.TrimSpace(l.filter.Value())
	l.shown = l.shown[:0]
	if q == "" {
		for i := range l.items {
			l.shown = append(l.shown, i)
		}
	} else {
		names := make([]string, len(l.items))
		for i, it := range l.items {
			names[i] = cmp.Or(it.search, it.label)
		}
		for _, m := range fuzzy.Find(q, names) {
			l.shown = append(l.shown, m.Index)
		}
	}
	l.anchor = cur
	l.sel = l.nearest(cur)
	l.top = 0
	l.scrollIntoView()
}

// nearest is the shown row of the item with key cur, else of the shown item nearest
// before it in the items' order (after it when none is before), else 0.
func (l *itemList) nearest(cur string) int {
	at := slices.IndexFunc(l.items, func(it listItem) bool { return it.key == cur })
	if at < 0 {
		return 0
	}
	before, after := -1, -1
	for r, i := range l.shown {
		switch {
		case i == at:
			return r
		case i < at && (before < 0 || i > l.shown[before]):
			before = r
		case i > at && (after < 0 || i < l.shown[after]):
			after = r
		}
	}
	if before >= 0 {
		return before
	}
	return max(after, 0)
}

// chosen is the key a filter change keeps: the item last chosen while it is listed, else
// the selected one.
func (l *itemList) chosen() string {
	if l.anchor != "" && slices.ContainsFunc(l.items, func(it listItem) bool { return it.key == l.anchor }) {
		return l.anchor
	}
	return l.selectedKey()
}

// selectedIndex is the index in items of the selected row, -1 when none.
func (l *itemList) selectedIndex() int {
	if l.sel < 0 || l.sel >= len(l.shown) {
		return -1
	}
	return l.shown[l.sel]
}

// selected returns the selected item, or nil.
func (l *itemList) selected() *listItem {
	if l.sel < 0 || l.sel >= len(l.shown) {
		return nil
	}
	return &l.items[l.shown[l.sel]]
}

// selectKey moves the selection to the item with key k; false when it is not shown.
func (l *itemList) selectKey(k string) bool {
	for r, i := range l.shown {
		if l.items[i].key == k {
			l.sel, l.anchor = r, k
			l.scrollIntoView()
			return true
		}
	}
	return false
}

func (l *itemList) setSize(r rect) {
	l.r = r
	l.filter.SetWidth(max(r.w-3, 1))
	l.scrollIntoView()
}

func (l *itemList) scrollIntoView() {
	l.top = topFor(l.top, l.sel, len(l.shown), max(l.r.h-1, 1))
}

func (l *itemList) move(d int) {
	if len(l.shown) == 0 {
		return
	}
	l.sel = min(max(l.sel+d, 0), len(l.shown)-1)
	l.anchor = l.selectedKey()
	l.scrollIntoView()
}

// handleKey handles list navigation and the filter. moved is set when the selection
// changed (the pane then resets its detail scroll).
func (l *itemList) handleKey(msg tea.KeyPressMsg) (handled, moved bool, cmd tea.Cmd) {
	k := l.c.keys
	before := l.sel
	if !l.filtering {
		if ok, to, c := l.find.key(&k, msg, len(l.shown), l.sel, l.rowText); ok {
			if to != l.sel {
				l.sel, l.anchor = to, l.items[l.shown[to]].key
				l.scrollIntoView()
			}
			return true, l.sel != before, c
		}
	}
	if l.filtering {
		// Letters are text here: only the keys that no filter text uses navigate.
		switch {
		case key.Matches(msg, k.Dialog.Dismiss):
			l.filtering = false
			l.filter.Blur()
			l.filter.SetValue("")
			l.refilter(l.chosen())
		case key.Matches(msg, k.Dialog.Confirm):
			l.filtering = false
			l.filter.Blur()
		case key.Matches(msg, k.List.FilterUp):
			l.move(-1)
		case key.Matches(msg, k.List.FilterDown):
			l.move(1)
		default:
			old := l.filter.Value()
			l.filter, cmd = l.filter.Update(msg)
			if l.filter.Value() != old {
				l.refilter(l.chosen())
			}
		}
		return true, l.sel != before, cmd
	}
	switch {
	case key.Matches(msg, k.List.Filter):
		l.filtering = true
		if l.filter.Value() != "" {
			l.filter.SetValue("")
			l.refilter(l.chosen())
		}
		return true, false, l.filter.Focus()
	case key.Matches(msg, k.Dialog.Dismiss) && l.filter.Value() != "":
		l.filter.SetValue("")
		l.refilter(l.chosen())
	default:
		d, ok := k.List.scrollStep(msg, max(l.r.h-2, 1), len(l.shown))
		if !ok {
			return false, false, nil
		}
		l.move(d)
	}
	return true, l.sel != before, nil
}

// paneKey is handleKey for a list beside a detail scrolled by *detailOff: a move of the
// selection puts the detail back at its top.
func (l *itemList) paneKey(msg tea.KeyPressMsg, detailOff *int) (bool, tea.Cmd) {
	handled, moved, cmd := l.handleKey(msg)
	if moved {
		*detailOff = 0
	}
	return handled, cmd
}

func (l *itemList) selectedKey() string {
	if it := l.selected(); it != nil {
		return it.key
	}
	return ""
}

// view draws the list into its rectangle.
func (l *itemList) view() string {
	st := l.c.st
	w, h := l.r.w, l.r.h
	rows := make([]string, 0, h)
	switch {
	case l.find.shown() && !l.filtering:
		line := l.find.line(l.c, w)
		if f := l.filter.Value(); f != "" {
			line = fit(st.Muted.Render(l.filter.Prompt+clean(f)+"  ")+line, w)
		}
		rows = append(rows, line)
	case l.filtering || l.filter.Value() != "":
		rows = append(rows, fit(l.filter.View(), w))
	case l.heading != nil:
		rows = append(rows, l.heading(w))
	default:
		rows = append(rows, st.Title.Render(fit(" "+l.title, w)))
	}
	switch {
	case len(l.shown) > 0:
	case len(l.items) > 0:
		msg := l.noMatch
		if msg == "" {
			msg = "nothing matches"
		}
		rows = append(rows, st.Muted.Render(fit(" "+msg, w)))
	case l.emptyRow != nil:
		rows = append(rows, l.emptyRow(w))
	default:
		// Wrapped, not cut: the empty text often says how to get items (Tasks pane).
		for _, line := range wrapSpaces(l.empty, max(w-1, 1)) {
			rows = append(rows, st.Muted.Render(fit(" "+line, w)))
		}
	}
	for r := l.top; r < len(l.shown) && len(rows) < h; r++ {
		it := &l.items[l.shown[r]]
		text := " " + clean(it.label)
		if !l.noMarks {
			mark := " "
			if it.mark != "" {
				mark = clean(it.mark)
			}
			text = " " + mark + text
		}
		rep := l.repeats[it.key]
		if r == l.sel {
			if it.tag != "" {
				text += " " + clean(it.tag)
			}
			if rep != "" {
				text += " " + rep
			}
			rows = append(rows, selectRow(st, text, w))
			continue
		}
		if l.find.matches(l.rowText(r)) {
			text = markMatches(st, text, l.find.query())
		}
		if it.tag != "" {
			text += st.Muted.Render(" " + clean(it.tag))
		}
		if rep != "" {
			text += " " + st.Warning.Render(rep)
		}
		rows = append(rows, fit(text, w))
	}
	for len(rows) < h {
		rows = append(rows, strings.Repeat(" ", max(w, 0)))
	}
	return strings.Join(rows[:h], "\n")
}

// splitView lays a list and a detail side by side (wide) or stacked (narrow), like the
// Tools pane, and returns the two rectangles: the list takes share percent of the pane
// (0: its default, sized to n items when stacked), or zoom gives one side all of it.
func splitView(r rect, n, share int, zoom zoomMode) (list, det rect, stacked bool) {
	if r.w < wideTools {
		lh := splitSize(r.h, max(min(n+2, r.h/3), 4), share, sideMinRows)
		list, det = rect{r.x, r.y, r.w, lh}, rect{r.x, r.y + lh + 1, r.w, max(r.h-lh-1, 0)}
		list, det = zoomRects(r, list, det, zoom)
		return list, det, true
	}
	lw := splitSize(r.w, min(max(r.w/3, 24), 48), share, sideMinCols)
	list, det = rect{r.x, r.y, lw, r.h}, rect{r.x + lw + 1, r.y, max(r.w-lw-1, 0), r.h}
	list, det = zoomRects(r, list, det, zoom)
	return list, det, false
}

// splitView is splitView with the session's split and zoom.
func (c *common) splitView(r rect, n int) (list, det rect, stacked bool) {
	return splitView(r, n, c.split, c.zoom)
}

// joinSplit draws a list beside (or above) its detail with the theme's border between.
func joinSplit(st *themes.Styles, list string, lr rect, det string, stacked bool) string {
	switch {
	case lr.w == 0 || lr.h == 0: // zoomed on the detail
		return det
	case det == "": // zoomed on the list (a detail of no rows draws nothing)
		return list
	}
	if stacked {
		return list + "\n" + st.Border.Render(strings.Repeat("─", max(lr.w, 0))) + "\n" + det
	}
	ll := strings.Split(list, "\n")
	dl := strings.Split(det, "\n")
	out := make([]string, len(ll))
	for i := range ll {
		d := ""
		if i < len(dl) {
			d = dl[i]
		}
		out[i] = ll[i] + st.Border.Render("│") + d
	}
	return strings.Join(out, "\n")
}

// listDetailView draws a list beside (or above) its detail in det (the list in the
// rectangle it was sized to): the open form when there is one, else the detail lines,
// scrolled by off (drawn in range; the pane keeps it in range with clampDetail before it
// scrolls). Resources, Prompts and Tasks share it.
func listDetailView(c *common, list *itemList, det rect, stacked bool, form *formPane, off int, lines func() []string) string {
	lr := list.r
	var body string
	if form != nil {
		body = form.view() // sized by the pane's sync
	} else {
		ls := lines()
		body = strings.Join(window(ls, clampScroll(off, len(ls), det.h), det.h, det.w), "\n")
	}
	return joinSplit(c.st, list.view(), lr, body, stacked)
}

// clampDetail keeps a detail offset within the n lines there are now in h rows, before a
// key scrolls it (the view draws it in range but does not write it back).
func clampDetail(off *int, n, h int) { *off = clampScroll(*off, n, h) }

// noticeLines are a pane's errors and warnings, wrapped to w, for the top of its detail.
func noticeLines(st *themes.Styles, errs, warnings []string, w int) []string {
	var out []string
	for _, e := range errs {
		out = append(out, wrapStyled(st.Error, e, w)...)
	}
	for _, wn := range warnings {
		out = append(out, wrapStyled(st.Warning, "⚠ "+clean(wn), w)...)
	}
	return out
}
