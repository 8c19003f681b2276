package ui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"charm.land/bubbles/v2/progress"

	"github.com/mcp-inspect/mcp-inspect/session"
)

// formList is what the Resources and Prompts panes share: a list beside a detail that an
// argument form takes over (a template's variables, a prompt's arguments), the listing's
// state and the requests in flight.
type formList struct {
	c    *common
	ops  *session.Inflight
	ids  *formIDs
	list *itemList
	bar  progress.Model

	// listed is set once the first listing arrived; status says what the pane waits for.
	listed   bool
	status   string
	warnings []string
	errs     []string

	form  *formPane
	forms map[string]*formPane

	detailOff int
	// area is the pane's rectangle; lr and det the list's and the detail's.
	area    rect
	lr, det rect
	stacked bool
	// detail draws the selected item's detail (the pane's detailLines).
	detail func(now time.Time) []string
	// result is the selected item's last result as the server sent it (a read, a get;
	// nil for none) and its name; js is it as a JSON view that enter explores while the
	// detail is zoomed (enter otherwise reads or gets), jsOff its scroll offset.
	result func() (src []byte, name string)
	js     detailJSON
	jsOff  int
}

func newFormList(c *common, ops *session.Inflight, ids *formIDs, title string) formList {
	return formList{c: c, ops: ops, ids: ids, list: newItemList(c, title, "waiting for the handshake…"), bar: newBar(c.st), forms: map[string]*formPane{}}
}

// setUp gives the list its heading (title, page note, warnings) and the detail its
// lines; p must be where the formList stays (the pane's).
func (p *formList) setUp(detail func(now time.Time) []string) {
	p.list.heading = func(w int) string { return listHeading(p.c.st, p.list.title+p.list.pageNote, p.warnings, w) }
	p.detail = detail
}

// layOut sizes the list of n items and the detail (and an open form) in r.
func (p *formList) layOut(r rect, n int) {
	p.area = r
	p.lr, p.det, p.stacked = p.c.splitView(r, n)
	p.list.setSize(p.lr)
	p.bar.SetWidth(min(max(p.det.w-20, 10), 40))
	if p.form != nil {
		p.form.setSize(p.det.w, p.det.h)
	}
}

// view draws the list and the selected item's detail (or the open form).
func (p *formList) view(now time.Time) string {
	if p.js.exploring() && p.form == nil {
		return p.viewJSON()
	}
	return listDetailView(p.c, p.list, p.det, p.stacked, p.form, p.detailOff, func() []string { return p.detail(now) })
}

// detailStart is the detail's width for its lines (at least 10), and the lines it starts
// with: the listing's errors and warnings.
func (p *formList) detailStart() (int, []string) {
	w := max(p.det.w, 10)
	return w, noticeLines(p.c.st, p.errs, p.warnings, w)
}

// listShare is the list's share of the pane in percent (the split keys step from it).
func (p *formList) listShare() int { return share(p.lr, p.det, p.stacked) }

// syncJSON keeps the selected item's result as a JSON view (masked as drawn), while the
// detail is zoomed; otherwise the view is let go.
func (p *formList) syncJSON() {
	var src []byte
	name := ""
	if p.result != nil && p.c.zoom == zoomDetail && p.form == nil {
		src, name = p.result()
	}
	if src == nil {
		p.js = detailJSON{}
		return
	}
	p.js.set([]byte(p.c.maskText(string(src))), "."+name, max(p.r().w, 10))
	p.js.at = 1
}

// r is the pane's rectangle (the list's and the detail's together).
func (p *formList) r() rect { return p.area }

// jsonKey handles the JSON keys on the explored result (enter starts while zoomed).
func (p *formList) jsonKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if p.form != nil || p.list.typing() {
		return false, nil
	}
	return p.js.key(p.c, msg, p.c.zoom == zoomDetail, &p.jsOff, max(p.r().h-1, 1))
}

// viewJSON draws the explored result: a heading, the JSON view from jsOff and the
// cursor's path under it.
func (p *formList) viewJSON() string {
	r := p.r()
	v := p.js.view
	lines := append([]string{p.c.st.Title.Render(fit(" result "+clean(v.prefix)+" (esc goes back)", r.w))}, p.js.rows(p.c.st)...)
	rows := window(lines, clampScroll(p.jsOff, len(lines), r.h-1), r.h-1, r.w)
	return strings.Join(append(rows, v.pathLine(p.c.st, &p.c.keys, r.w)), "\n")
}
