package ui

import (
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// wheelLines is how far one wheel notch scrolls a detail or a result; over a list it moves
// the selection one row.
const wheelLines = 3

// clicker and wheeler are the panes the mouse reaches: a left click at (x, y) and a wheel
// notch (d is -1 up, +1 down) at (x, y), in screen cells. Hit-testing reads the rectangles
// the panes were sized to (layout.go) and the scroll offsets sync keeps.
type clicker interface{ click(x, y int) tea.Cmd }
type wheeler interface{ wheel(x, y, d int) tea.Cmd }

var (
	_ clicker = (*toolsPane)(nil)
	_ clicker = (*callPane)(nil)
	_ clicker = (*wirePane)(nil)
	_ clicker = (*resourcesPane)(nil)
	_ clicker = (*promptsPane)(nil)
	_ clicker = (*logsPane)(nil)
	_ clicker = (*tasksPane)(nil)
	_ wheeler = (*toolsPane)(nil)
	_ wheeler = (*callPane)(nil)
	_ wheeler = (*wirePane)(nil)
	_ wheeler = (*serverPane)(nil)
	_ wheeler = (*resourcesPane)(nil)
	_ wheeler = (*promptsPane)(nil)
	_ wheeler = (*logsPane)(nil)
	_ wheeler = (*tasksPane)(nil)
)

// contains reports whether cell (x, y) is inside r.
func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// handleMouse routes a click or a wheel notch (Options.Mouse on; View only asks for mouse
// events then). A dialog in front takes keys only: the mouse never answers a server request.
func (m *model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	if !m.mouse || m.lay.tooSmall || m.width == 0 || m.overlay.front() != nil {
		return nil
	}
	ms := msg.Mouse()
	switch msg.(type) {
	case tea.MouseWheelMsg:
		d := 0
		switch ms.Button {
		case tea.MouseWheelUp:
			d = -1
		case tea.MouseWheelDown:
			d = 1
		}
		if d == 0 {
			return nil
		}
		if m.help.shown {
			m.help.off += d * wheelLines
			m.clampHelp()
			return nil
		}
		if w, ok := m.panes[m.focus].(wheeler); ok && m.lay.body.contains(ms.X, ms.Y) {
			return w.wheel(ms.X, ms.Y, d)
		}
	case tea.MouseClickMsg:
		if ms.Button != tea.MouseLeft || m.help.shown {
			return nil
		}
		if ms.Y == m.lay.header.y {
			if m.focus != paneCall && m.panes[m.focus].inputFocused() {
				return nil // a prompt (search, filter) has the keys: a pane key would type too
			}
			if id, ok := m.tabAt(ms.X); ok {
				m.focus = id
			}
			return nil
		}
		if c, ok := m.panes[m.focus].(clicker); ok && m.lay.body.contains(ms.X, ms.Y) {
			double := m.doubleClick(ms.X, ms.Y)
			cmd := c.click(ms.X, ms.Y)
			if double {
				return tea.Batch(cmd, m.openSelected())
			}
			return cmd
		}
	}
	return nil
}

// doubleClickTime is how soon a second click on the same row makes a double click.
const doubleClickTime = 400 * time.Millisecond

// rowClick is a left click on a list row: when, where and in which pane.
type rowClick struct {
	at    time.Time
	y     int
	focus paneID
}

// opener is a pane whose list rows a double click opens as its enter key does: rowOpen
// is that key's binding when (x, y) is a row of the list (and nothing else, such as an
// open form, has the pane).
type opener interface {
	rowOpen(x, y int) (key.Binding, bool)
}

// doubleClick records a click at (x, y) and reports whether it is the second on the same
// row of the focused pane's list within doubleClickTime (a third click starts again).
func (m *model) doubleClick(x, y int) bool {
	o, ok := m.panes[m.focus].(opener)
	if !ok {
		return false
	}
	if _, onRow := o.rowOpen(x, y); !onRow {
		m.lastClick = rowClick{}
		return false
	}
	now := m.now()
	last := m.lastClick
	if !last.at.IsZero() && last.focus == m.focus && last.y == y && now.Sub(last.at) >= 0 && now.Sub(last.at) <= doubleClickTime {
		m.lastClick = rowClick{}
		return true
	}
	m.lastClick = rowClick{at: now, y: y, focus: m.focus}
	return false
}

// openSelected does what the focused pane's enter key does to its selected row, through
// the key's binding (moved by a key override, it still works).
func (m *model) openSelected() tea.Cmd {
	o, ok := m.panes[m.focus].(opener)
	if !ok {
		return nil
	}
	b, _ := o.rowOpen(-1, -1)
	for _, k := range b.Keys() {
		if press, ok := keyPress(k); ok {
			return m.handleKey(press)
		}
	}
	return nil
}

// keyPress is a key press whose name (KeyPressMsg.String) is k, for the keys a double
// click stands for: a named key or a character, after ctrl+ or alt+.
func keyPress(k string) (tea.KeyPressMsg, bool) {
	var press tea.KeyPressMsg
	base := k
	for {
		switch {
		case strings.HasPrefix(base, "ctrl+") && len(base) > 5:
			press.Mod |= tea.ModCtrl
			base = base[5:]
			continue
		case strings.HasPrefix(base, "alt+") && len(base) > 4:
			press.Mod |= tea.ModAlt
			base = base[4:]
			continue
		}
		break
	}
	named := map[string]rune{"enter": tea.KeyEnter, "tab": tea.KeyTab, "space": tea.KeySpace, "esc": tea.KeyEscape, "backspace": tea.KeyBackspace, "delete": tea.KeyDelete, "insert": tea.KeyInsert, "home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight}
	if r, ok := named[base]; ok {
		press.Code = r
	} else if rs := []rune(base); len(rs) == 1 {
		press.Code = rs[0]
		if press.Mod == 0 {
			press.Text = base
		}
	}
	return press, press.Code != 0 && press.String() == k
}

// tabAt is the pane whose tab the header draws at column x, as header lays them out.
func (m *model) tabAt(x int) (paneID, bool) {
	labels := m.tabLabels()
	full := " " + strings.Join(labels[:], "  ") + "  "
	short := ansi.StringWidth(full+m.requestBadge()) > m.width
	at, sep := 1, 2
	if short {
		sep = 1
	}
	for id, label := range labels {
		if short && paneID(id) != m.focus {
			label = strconv.Itoa(id + 1)
		}
		w := ansi.StringWidth(label)
		if x >= at && x < at+w {
			return paneID(id), true
		}
		at += w + sep
	}
	return 0, false
}

// rowAt is the shown row drawn at screen line y (the first line is the title or filter),
// false when y holds no row.
func (l *itemList) rowAt(x, y int) (int, bool) {
	if !l.r.contains(x, y) || len(l.shown) == 0 || y == l.r.y {
		return 0, false
	}
	r := l.top + y - l.r.y - 1
	return r, r < len(l.shown)
}

// clickRow selects the row at (x, y); false when there is none there.
func (l *itemList) clickRow(x, y int) bool {
	r, ok := l.rowAt(x, y)
	if ok {
		l.sel = r
		l.anchor = l.selectedKey()
		l.scrollIntoView()
	}
	return ok
}

// scrollDetail moves a detail offset by a wheel notch, kept within n lines in h rows.
func scrollDetail(off *int, d, n, h int) {
	*off = clampScroll(*off+d*wheelLines, n, h)
}

func (p *toolsPane) click(x, y int) tea.Cmd {
	if p.callBy == nil && p.list.clickRow(x, y) {
		p.detailOff = 0
	}
	return nil
}

func (p *toolsPane) wheel(x, y, d int) tea.Cmd {
	switch {
	case p.lr.contains(x, y):
		p.list.move(d)
		p.detailOff = 0
	case p.det.contains(x, y) && p.callBy == nil:
		scrollDetail(&p.detailOff, d, len(p.detailLines(p.banner(p.det.w))), p.det.h)
	}
	return nil
}

// frameAt is the frame drawn at (x, y) of the wire list, false when no row is there.
func (p *wirePane) frameAt(x, y int) (int, bool) {
	row := y - p.list.y - 1
	if p.droppedLine() {
		row-- // the dropped-frames notice under the title
	}
	if !p.list.contains(x, y) || row < 0 || row >= p.bodyRows() {
		return 0, false
	}
	i := p.visibleTop() + row
	return i, i < p.count()
}

func (p *wirePane) click(x, y int) tea.Cmd {
	i, ok := p.frameAt(x, y)
	if !ok {
		return nil
	}
	p.top, p.sel, p.follow, p.detailOff = p.visibleTop(), i, false, 0
	p.scrollIntoView()
	return nil
}

func (p *wirePane) wheel(x, y, d int) tea.Cmd {
	switch {
	case p.list.contains(x, y):
		p.move(d)
	case p.det.contains(x, y):
		// sync keeps it within the drawn detail.
		p.detailOff = max(p.detailOff+d*wheelLines, 0)
	}
	return nil
}

func (p *callPane) click(x, y int) tea.Cmd {
	switch {
	case p.form != nil:
		return p.form.clickLine(y - p.r.y)
	case p.past != nil:
		p.past.clickRow(y-p.r.y, p.r.h)
	}
	return nil
}

func (p *callPane) wheel(_, y, d int) tea.Cmd {
	switch {
	case p.form != nil:
		if f := p.form; !f.rawMode && f.keyObj == nil {
			// The form keeps the focused field in view: the wheel moves the focus.
			return f.clickFocus(min(max(f.cur+d, 0), len(f.fields)))
		}
	case p.past != nil:
		p.past.wheel(y-p.r.y, p.r.h, d)
	default:
		p.off += d * wheelLines // clampOff keeps it in range
	}
	return nil
}

// clickLine focuses the field drawn at line y of the form (0 is its first line), or the
// send button (a click never sends).
func (p *formPane) clickLine(y int) tea.Cmd {
	if p.rawMode || p.keyObj != nil {
		return nil
	}
	lay := p.layout()
	i := y - len(lay.head)
	if i < 0 || i >= lay.bodyH {
		return nil
	}
	line := lay.scroll(p.off) + i
	n := len(p.fields)
	if line >= len(lay.lines) || len(lay.starts) != n+1 {
		return nil
	}
	if line == lay.starts[n] {
		return p.clickFocus(n)
	}
	for f := n - 1; f >= 0; f-- {
		if line >= lay.starts[f] {
			if line >= lay.starts[n]-1 {
				return nil // the blank line above send, or the preview under it
			}
			return p.clickFocus(f)
		}
	}
	return nil
}

// clickFocus focuses field i as tab would.
func (p *formPane) clickFocus(i int) tea.Cmd {
	p.flash, p.quitArmed, p.typeahead = "", false, ""
	if i == p.cur {
		return nil
	}
	cmd := p.focus(i)
	p.preview = nil // committing the input may have changed the value
	return cmd
}

// clickRow selects the recorded call drawn at line y of the pane (h lines high).
func (p *pastCalls) clickRow(y, h int) {
	n := p.shownLen()
	row := y - 1
	if n == 0 || row < 0 || row >= p.listRows(h) {
		return
	}
	top := p.topFor(min(max(p.sel, 0), n-1), p.listRows(h))
	if top+row < n {
		p.sel, p.top, p.off = top+row, top, 0
	}
}

// wheel moves the selection over the list rows, else scrolls the detail.
func (p *pastCalls) wheel(y, h, d int) {
	if y >= 1 && y <= p.listRows(h) {
		p.sel, p.off = min(max(p.sel+d, 0), max(p.shownLen()-1, 0)), 0
		return
	}
	p.off = max(p.off+d*wheelLines, 0) // sync keeps it in range
}

func (p *serverPane) wheel(_, _, d int) tea.Cmd {
	scrollDetail(&p.off, d, len(p.draw(p.r.w)), p.r.h)
	return nil
}

// listDetailClick is the Resources and Prompts click: a row of the list, or, while an
// argument form is open in the detail, one of its fields.
func listDetailClick(l *itemList, det rect, form *formPane, detailOff *int, x, y int) tea.Cmd {
	if form != nil {
		if det.contains(x, y) {
			return form.clickLine(y - det.y)
		}
		return nil
	}
	if l.clickRow(x, y) {
		*detailOff = 0
	}
	return nil
}

// listDetailWheel moves a list's selection under the pointer, or scrolls the detail (not
// called while a form or a prompt has the detail).
func listDetailWheel(l *itemList, det rect, detailOff *int, n func() int, x, y, d int) {
	switch {
	case l.r.contains(x, y):
		l.move(d)
		*detailOff = 0
	case det.contains(x, y):
		scrollDetail(detailOff, d, n(), det.h)
	}
}

func (p *resourcesPane) click(x, y int) tea.Cmd {
	if p.save != nil {
		return nil
	}
	return listDetailClick(p.list, p.det, p.form, &p.detailOff, x, y)
}

func (p *resourcesPane) wheel(x, y, d int) tea.Cmd {
	n := func() int { return len(p.detailLines(p.c.now())) }
	if p.form == nil && p.save == nil {
		listDetailWheel(p.list, p.det, &p.detailOff, n, x, y, d)
	}
	return nil
}

func (p *promptsPane) click(x, y int) tea.Cmd {
	return listDetailClick(p.list, p.det, p.form, &p.detailOff, x, y)
}

func (p *promptsPane) wheel(x, y, d int) tea.Cmd {
	n := func() int { return len(p.detailLines(p.c.now())) }
	if p.form == nil {
		listDetailWheel(p.list, p.det, &p.detailOff, n, x, y, d)
	}
	return nil
}

func (p *tasksPane) click(x, y int) tea.Cmd {
	return listDetailClick(p.list, p.det, nil, &p.detailOff, x, y)
}

func (p *tasksPane) wheel(x, y, d int) tea.Cmd {
	n := func() int { return len(p.detailLines(p.c.now())) }
	listDetailWheel(p.list, p.det, &p.detailOff, n, x, y, d)
	return nil
}

// firstRow is the screen line of the logs list's first row (under the heading, the
// dropped-entries warning and the level chooser, as view draws them).
func (p *logsPane) firstRow() int {
	y := p.r.y + 1
	if p.dropped > 0 {
		y++
	}
	if p.choosing {
		y++
	}
	return y
}

func (p *logsPane) click(x, y int) tea.Cmd {
	row := y - p.firstRow()
	if p.choosing || !p.r.contains(x, y) || row < 0 || row >= p.listHeight() || p.top+row >= len(p.shown) {
		return nil
	}
	p.sel = p.top + row
	p.follow = false
	p.scrollIntoView()
	return nil
}

func (p *logsPane) wheel(_, _, d int) tea.Cmd {
	if !p.choosing {
		p.move(d)
	}
	return nil
}

var (
	_ opener = (*toolsPane)(nil)
	_ opener = (*wirePane)(nil)
	_ opener = (*resourcesPane)(nil)
	_ opener = (*promptsPane)(nil)
	_ opener = (*tasksPane)(nil)
)

func (p *toolsPane) rowOpen(x, y int) (key.Binding, bool) {
	_, ok := p.list.rowAt(x, y)
	return p.c.keys.Tools.OpenForm, ok && p.callBy == nil
}

func (p *wirePane) rowOpen(x, y int) (key.Binding, bool) {
	_, ok := p.frameAt(x, y)
	return p.c.keys.JSON.Explore, ok
}

func (p *resourcesPane) rowOpen(x, y int) (key.Binding, bool) {
	_, ok := p.list.rowAt(x, y)
	return p.c.keys.List.Open, ok && p.form == nil && p.save == nil
}

func (p *promptsPane) rowOpen(x, y int) (key.Binding, bool) {
	_, ok := p.list.rowAt(x, y)
	return p.c.keys.List.OpenPrompt, ok && p.form == nil
}

func (p *tasksPane) rowOpen(x, y int) (key.Binding, bool) {
	_, ok := p.list.rowAt(x, y)
	return p.c.keys.List.OpenTask, ok
}
