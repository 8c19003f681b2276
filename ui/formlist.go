package ui

import (
	"time"

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
	lr, det   rect
	stacked   bool
	// detail draws the selected item's detail (the pane's detailLines).
	detail func(now time.Time) []string
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
	p.lr, p.det, p.stacked = p.c.splitView(r, n)
	p.list.setSize(p.lr)
	p.bar.SetWidth(min(max(p.det.w-20, 10), 40))
	if p.form != nil {
		p.form.setSize(p.det.w, p.det.h)
	}
}

// view draws the list and the selected item's detail (or the open form).
func (p *formList) view(now time.Time) string {
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
