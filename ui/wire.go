package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// wirePane is the timeline: one line per event, virtualized, and the selected frame's raw
// bytes and parsed message beside it.
type wirePane struct {
	c  *common
	tl *timeline

	filter wireFilter
	// flows is the flow view's state (wireflows.go).
	flows wireFlows
	// find is the search and the filter expression (wiresearch.go); an expression in
	// force chooses the rows instead of filter.
	find   wireFind
	sel    int // position in the filtered view
	top    int // first visible row
	follow bool

	detailOff int
	// detail caches the drawn lines of the selected frame: computed once per selection,
	// width and show-all state, never per frame.
	detail struct {
		seq   uint64
		w     int
		full  bool
		lines []string
	}
	// js is the selected frame's parsed JSON view, below detail.lines (wirejson.go).
	js wireJSON
	// renders counts detail computations (tests check a keypress does not redo one).
	renders int
	// full is the Seq of the frame shown in full ("show all"), 0 for none.
	full uint64
	// saved says where the last saved frame went (or why it was not saved).
	saved struct {
		seq  uint64
		text string
	}

	list, det rect
	stacked   bool

	// expect is the number of events of the trace being opened (0 when unknown), and
	// closed is set by the root once every event has arrived: the title counts the events
	// read until then.
	expect int
	closed bool
}

func newWirePane(c *common, tl *timeline) *wirePane {
	return &wirePane{c: c, tl: tl, follow: true}
}

// selPos returns the selected event's position in the timeline.
func (p *wirePane) selPos() (int, bool) {
	if p.count() == 0 {
		return 0, false
	}
	p.sel = min(max(p.sel, 0), p.count()-1)
	return p.at(p.sel), true
}

// selected returns the selected event's summary, or nil.
func (p *wirePane) selected() *tlEvent {
	i, ok := p.selPos()
	if !ok {
		return nil
	}
	return p.tl.evs.at(i)
}

// setSize lays the list and the detail out: side by side when wide, stacked when narrow,
// the list taking the session's share (half the rows stacked by default: at 80×24 ten
// frames and ten detail lines), or one side all of it when zoomed.
func (p *wirePane) setSize(r rect) {
	p.stacked = r.w < wideWire
	if p.stacked {
		lh := splitSize(r.h, r.h/2, p.c.split, sideMinRows)
		p.list = rect{r.x, r.y, r.w, lh}
		p.det = rect{r.x, r.y + lh + 1, r.w, max(r.h-lh-1, 0)}
	} else {
		lw := splitSize(r.w, r.w*11/20, p.c.split, sideMinCols)
		p.list = rect{r.x, r.y, lw, r.h}
		p.det = rect{r.x + lw + 1, r.y, max(r.w-lw-1, 0), r.h}
	}
	p.list, p.det = zoomRects(r, p.list, p.det, p.c.zoom)
	p.scrollIntoView()
}

// listShare is the list's share of the pane in percent (the split keys step from it).
func (p *wirePane) listShare() int { return share(p.list, p.det, p.stacked) }

// appended is called after events arrive: a following view stays at the end; the
// returned Cmd goes on with the filter's scan and the search when the new events are
// more than a chunk.
func (p *wirePane) appended() tea.Cmd {
	cmd := tea.Batch(p.filterLive(), p.searchLive())
	if p.flowsShown() {
		p.rebuildFlows()
	}
	if p.follow && p.count() > 0 {
		p.sel = p.count() - 1
		p.detailOff = 0
	}
	p.scrollIntoView()
	return cmd
}

func (p *wirePane) scrollIntoView() {
	p.top = topFor(p.top, p.sel, p.count(), max(p.list.h, 1))
}

// visibleTop is the first row the list draws: the selection stays inside the body rows
// (the title takes one line).
func (p *wirePane) visibleTop() int {
	body := p.bodyRows()
	top := p.top
	if p.sel >= top+body {
		top = p.sel - body + 1
	}
	return clampScroll(top, p.count(), body)
}

// needShown asks the timeline for the bytes the screen needs when they are loaded on
// demand: the selected frame's, and those of the visible rows drawn from their bytes.
func (p *wirePane) needShown() {
	if p.tl.load == nil || p.count() == 0 {
		return
	}
	if i, ok := p.selPos(); ok {
		p.tl.need(i)
	}
	top := p.visibleTop()
	for r := top; r < min(top+p.bodyRows(), p.count()); r++ {
		if i := p.at(r); rowNeedsBytes(p.tl.evs.at(i)) {
			p.tl.need(i)
		}
		p.needHead(p.at(r))
	}
}

// needHead asks for the response head of the HTTP request at position i, which its row
// summarizes (status, time) though the head's own row may be far off or filtered out.
func (p *wirePane) needHead(i int) {
	if p.tl.evs.at(i).kind != mcpclient.KindHTTPRequest {
		return
	}
	if seq, ok := p.tl.partner(i); ok {
		if j, ok := p.tl.index(seq); ok {
			p.tl.need(j)
		}
	}
}

func (p *wirePane) move(d int) {
	n := p.count()
	if n == 0 {
		return
	}
	p.sel = min(max(p.sel+d, 0), n-1)
	p.follow = p.sel == n-1 && d > 0
	p.detailOff = 0
	p.find.want = wantNone
	p.scrollIntoView()
}

// jump selects the event with the given Seq, switching to "all" if the filter hides it.
func (p *wirePane) jump(seq uint64) bool {
	i, ok := p.tl.index(seq)
	if !ok {
		return false
	}
	if (p.filter != filterAll || p.exprOn()) && p.at(p.rowOf(i)) != i {
		p.filter = filterAll
		p.clearExpr()
	}
	p.sel = p.rowOf(i)
	p.follow = false
	p.detailOff = 0
	p.scrollIntoView()
	return true
}

// view draws the list and the detail into the pane's rectangle.
func (p *wirePane) view(time.Time) string {
	list := p.viewList()
	det := p.viewDetail()
	switch {
	case p.list.h == 0 || p.list.w == 0: // zoomed on the detail
		return det
	case p.det.h == 0 || p.det.w == 0: // zoomed on the list
		return list
	}
	if p.stacked {
		sep := p.c.st.Border.Render(strings.Repeat("─", p.list.w))
		return lipgloss.JoinVertical(lipgloss.Left, list, sep, det)
	}
	bar := make([]string, p.list.h)
	for i := range bar {
		bar[i] = p.c.st.Border.Render("│")
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, list, strings.Join(bar, "\n"), det)
}

func (p *wirePane) viewList() string {
	w, h := p.list.w, p.list.h
	if h <= 0 {
		return ""
	}
	rows := make([]string, 0, h)
	title := fmt.Sprintf(" wire · %s · %d/%d", p.filterLabel(), p.count(), p.tl.len())
	if p.expect > 0 && !p.closed {
		title += fmt.Sprintf(" · reading the trace: %d of %d", p.tl.len(), p.expect)
	}
	if p.follow {
		title += " · following"
	}
	rows = append(rows, p.c.st.Title.Render(fit(title, w)))
	if p.droppedLine() {
		rows = append(rows, p.c.st.Warning.Render(fit(" "+p.tl.droppedNotice(), w)))
	}
	head := len(rows)
	n := p.count()
	body := p.bodyRows()
	find := p.findLine(w)
	top := p.visibleTop()
	// The number column is as wide as the largest number (a million events still fit).
	seqW, relW := 3, 7
	if k := p.tl.len(); k > 0 {
		last := p.tl.evs.at(k - 1)
		seqW = max(len(strconv.FormatUint(last.seq, 10)), seqW)
		relW = max(len(strconv.FormatInt(time.Duration(last.at).Milliseconds(), 10)), relW)
	}
	for r := top; r < top+body; r++ {
		if r >= n {
			rows = append(rows, strings.Repeat(" ", w))
			continue
		}
		i := p.at(r)
		row := p.row(i, seqW, relW, w, r == p.sel)
		if p.find.query != "" && p.isHit(i) {
			row = p.c.st.Match.Render("▸") + p.highlight(ansi.Cut(row, 1, w))
		}
		rows = append(rows, row)
	}
	if n == 0 {
		msg := " no events yet"
		if p.filtering() {
			msg = " no match yet: " + p.filterLabel()
		} else if p.tl.len() > 0 {
			msg = fmt.Sprintf(" no events match this filter (%s); %s shows the next one", p.filterLabel(), p.c.keys.Wire.WireFilter.Help().Key)
		}
		rows[head] = p.c.st.Muted.Render(fit(msg, w))
	}
	if body < h-1 {
		rows = append(rows, find)
	}
	return strings.Join(rows, "\n")
}

// arrow draws the direction.
func arrow(d mcpclient.Direction) string {
	switch d {
	case mcpclient.ClientToServer:
		return "→"
	case mcpclient.ServerToClient:
		return "←"
	case mcpclient.Stderr:
		return "«"
	case mcpclient.HTTPOut:
		return "⇒"
	case mcpclient.HTTPIn:
		return "⇐"
	}
	return "•"
}

// rowNeedsBytes says whether an event's row is drawn from its bytes (a stderr line, a
// frame that is not a JSON-RPC message) rather than from its summary.
func rowNeedsBytes(e *tlEvent) bool {
	switch e.kind {
	case mcpclient.KindRequest, mcpclient.KindNotification, mcpclient.KindResponse, mcpclient.KindErrorResponse, mcpclient.KindLifecycle, mcpclient.KindHTTPEncoded:
		return false
	}
	return true
}

// summary is the method, "result", "error <code>", the stderr line or the lifecycle text
// of the event at position i; for a frame a tap wrote itself, followed by what it is.
func (t *timeline) summary(i int) string {
	s := t.summaryOf(i)
	if w := writtenText(writtenOf(t.evs.at(i).flags)); w != "" {
		s += " · " + w
	}
	return s
}

// writtenText says what a tap did to a frame it wrote (mcpclient.Event.Written); "" for
// one it forwarded as it came.
func writtenText(w mcpclient.NoteCond) string {
	switch w {
	case mcpclient.NoteEdited:
		return "edited by the tap"
	case mcpclient.NoteInjected:
		return "injected by the tap"
	}
	return ""
}

// frameNoteLines are what the detail says of a frame above its bytes: its problems, the
// trace context it carries, and whether a tap wrote it.
func frameNoteLines(st *themes.Styles, ev *mcpclient.Event, w int) []string {
	out := append(problemLines(st, ev.Problems, w), traceContextLines(st, ev, w)...)
	switch ev.Written {
	case mcpclient.NoteEdited:
		out = append(out, wrapStyled(st.Warning, "edited by the tap: sent in place of the message as it came, which is recorded before it with the note that says why", w)...)
	case mcpclient.NoteInjected:
		out = append(out, wrapStyled(st.Warning, "injected by the tap: no side sent this message (the note before it says why)", w)...)
	}
	return out
}

// writtenOf is mcpclient.Event.Written of a timeline event's flags.
func writtenOf(flags uint8) mcpclient.NoteCond {
	switch {
	case flags&evEdited != 0:
		return mcpclient.NoteEdited
	case flags&evInjected != 0:
		return mcpclient.NoteInjected
	}
	return ""
}

// summaryOf is summary without the tap's mark.
func (t *timeline) summaryOf(i int) string {
	ev := t.evs.at(i)
	switch ev.kind {
	case mcpclient.KindRequest, mcpclient.KindNotification:
		if ev.method != 0 {
			if ev.kind == mcpclient.KindNotification && ev.pair != 0 {
				return clean(t.methodOf(ev)) + " (#" + strconv.FormatUint(t.pairOf(ev), 10) + ")"
			}
			return clean(t.methodOf(ev))
		}
	case mcpclient.KindResponse:
		if ev.flags&evToolError != 0 {
			return t.toolErrorSummary(ev)
		}
		if ev.method != 0 {
			return "result (" + clean(t.methodOf(ev)) + ")"
		}
		return "result"
	case mcpclient.KindErrorResponse:
		if ev.flags&evCode != 0 {
			code := t.codes[ev.seq]
			s := "error " + strconv.FormatInt(code, 10)
			if name := mcpclient.ErrorCodeName(code); name != "" {
				s += " " + name
			}
			return s
		}
		return "error"
	case mcpclient.KindLifecycle:
		if l := t.lives[ev.seq]; l != nil {
			return clean(l.Text)
		}
		return ""
	case mcpclient.KindHTTPEncoded:
		return encodedSummary(t.encs[ev.seq], t.sizeOf(ev))
	}
	raw, ok := t.rawAt(i)
	raw, _ = t.shownPrefix(ev.dir, raw, rowMaskBytes)
	if !ok {
		if t.droppedAt(i) {
			return "(bytes dropped: " + t.noFile + ")"
		}
		if t.loadErr(ev.seq) != nil {
			return "(could not read this event from the trace)"
		}
		return "loading…"
	}
	if ev.kind == mcpclient.KindSSEFrame {
		if s, ok := sseLabel(raw); ok {
			return s
		}
	}
	if ev.kind == mcpclient.KindHTTPRequest {
		return t.exchangeSummary(i, raw)
	}
	if len(raw) > 512 {
		raw = raw[:512]
	}
	return clean(trimEOL(string(raw)))
}

// row formats the event at position pos on one line: seq, time, arrow, kind, summary, id,
// size, badge. seqW and relW are the widths of the number and time columns.
func (p *wirePane) row(pos, seqW, relW, w int, selected bool) string {
	st := p.c.st
	ev := p.tl.evs.at(pos)
	rel := time.Duration(ev.at).Milliseconds()
	meta := fmt.Sprintf(" %*d %*dms ", seqW, ev.seq, relW, rel)
	kind := fmt.Sprintf("%s %-12s ", arrow(ev.dir), ansi.Truncate(ev.kind.String(), 12, ""))
	left := meta + kind
	var right string
	if id := p.tl.idOf(ev); id != "" {
		right += " id=" + ansi.Truncate(clean(id), 12, "…")
	}
	if ev.dir != mcpclient.Lifecycle {
		right += fmt.Sprintf(" %6s", humanSize(p.tl.sizeOf(ev)))
	}
	warn, info := p.tl.counts(ev)
	badge := "   "
	switch {
	case warn > 0:
		badge = fmt.Sprintf(" ⚠%d", min(warn, 9))
	case p.tl.hasControls(pos):
		badge = " ␛ "
	case info > 0:
		badge = " · "
	}
	mid := max(w-ansi.StringWidth(left)-ansi.StringWidth(right)-3, 0)
	var text string
	if p.flowsShown() {
		text = fit(p.flowSummary(pos), mid)
	} else {
		text = fit(p.tl.summary(pos), mid)
	}
	if selected {
		return selectRow(st, left+text+right+badge, w)
	}
	var dirSt lipgloss.Style
	switch {
	case ev.kind == mcpclient.KindErrorResponse || ev.flags&evToolError != 0 || (ev.dir == mcpclient.ServerToClient && !ev.kind.IsMessage()):
		dirSt = st.Error
	case ev.dir == mcpclient.Stderr:
		dirSt = st.Stderr
	case ev.dir == mcpclient.Lifecycle:
		dirSt = st.Lifecycle
	case ev.kind == mcpclient.KindNotification:
		dirSt = st.Notification
	case ev.dir == mcpclient.ClientToServer:
		dirSt = st.Request
	default:
		dirSt = st.Response
	}
	badgeSt := st.Muted
	if warn > 0 {
		badgeSt = st.Warning
	}
	return fit(st.Muted.Render(meta)+dirSt.Render(kind)+text+st.Muted.Render(right)+badgeSt.Render(badge), w)
}

// detailLines draws the event at position pos (ev, rebuilt by timeline.event); loaded is
// false while its bytes are still being read from the trace. The parsed JSON goes to js
// (a view drawn below the lines) when js is not nil.
func (p *wirePane) detailLines(ev *mcpclient.Event, pos, w int, full, loaded bool, js *wireJSON) []string {
	st := p.c.st
	out := p.detailHead(ev, pos, w)
	add := func(lines ...string) { out = append(out, lines...) }
	add(frameNoteLines(st, ev, w)...)
	if ev.Kind == mcpclient.KindBatch && loaded {
		add(p.batchLines(ev, pos, w)...)
	}
	if ev.Life != nil {
		add("", st.Title.Render("lifecycle"))
		add(wrapStyled(st.Lifecycle, clean(ev.Life.Text), w)...)
		if ev.Life.Err != nil && ev.Life.Err.Error() != ev.Life.Text {
			add(wrapStyled(st.Error, clean(ev.Life.Err.Error()), w)...)
		}
		return out
	}
	if p.tl.hasControls(pos) {
		add(wrapStyled(st.Warning, "␛ holds terminal control characters (shown escaped, never sent to your terminal)", w)...)
	}
	if !loaded {
		if p.tl.droppedAt(pos) {
			add("")
			add(wrapStyled(st.Warning, p.tl.loadErr(ev.Seq).Error(), w)...)
			return out
		}
		if err := p.tl.loadErr(ev.Seq); err != nil {
			add("")
			add(wrapStyled(st.Error, "could not read this event from the trace: "+clean(err.Error()), w)...)
			return out
		}
		add("", st.Muted.Render("loading the frame's bytes from the trace…"))
		return out
	}
	limit := previewBytes
	if full {
		limit = showAllBytes
	}
	if ev.Kind == mcpclient.KindHTTPEncoded {
		mask := func(b []byte) []byte { shown, _ := p.tl.shownRaw(ev.Dir, b); return shown }
		return append(out, encodedLines(st, ev, limit, w, mask)...)
	}
	raw, masked := p.tl.shownDetail(ev.Seq, ev.Dir, ev.Raw, limit)
	if masked { // sizes and offsets below are of the bytes shown
		e := *ev
		e.Raw, e.Size = raw, ev.Size-int64(len(ev.Raw)-len(raw))
		ev = &e
	}
	shown := runeCut(raw, limit)
	if p.saved.seq == ev.Seq && p.saved.text != "" {
		add(wrapStyled(st.Accent, p.saved.text, w)...)
	}
	if ev.Size > int64(shown) || full && len(raw) > previewBytes {
		for _, l := range p.cutNote(ev, shown, full) {
			add(wrapStyled(st.Warning, l, w)...)
		}
	}
	if masked {
		add("", st.Title.Render("raw bytes")+st.Muted.Render("  (credentials masked as in traces, --no-redact shows them; controls and line ending made visible)"))
	} else {
		add("", st.Title.Render("raw bytes")+st.Muted.Render("  (exact; controls and line ending made visible)"))
	}
	chunks := ev.Chunks
	for len(chunks) > 0 && chunks[len(chunks)-1] >= shown {
		chunks = chunks[:len(chunks)-1]
	}
	add(rawLines(st, raw[:shown], chunks, w)...)
	if more := ev.Size - int64(shown); more > 0 {
		add(st.Muted.Render(fmt.Sprintf("… %s more not shown", jsontext.Count(int(more), "byte", "bytes"))))
	}
	if ev.Dir == mcpclient.Stderr || ev.Dir == mcpclient.HTTPOut || ev.Dir == mcpclient.HTTPIn {
		// HTTP bytes: the message inside is the c2s/s2c event next to this one.
		return append(out, challengeLines(st, ev.Kind, raw[:shown], w)...)
	}
	add("", st.Title.Render("parsed"))
	if !looksJSON(ev, shown) {
		add(st.Muted.Render("(not JSON)"))
		return out
	}
	// A Content-Length frame's header block is framing, shown in the raw bytes above:
	// the parsed view starts at the message.
	body, skip := raw[:shown], 0
	if hdr, b, ok := mcpclient.SplitHeader(body); ok {
		body, skip = b, len(hdr)
	}
	if js != nil {
		if v := p.parsedView(ev.Seq, full, body, w); v != nil {
			v.masked = masked
			*js = wireJSON{seq: ev.Seq, full: full, view: v, tail: parsedTail(st, v, skip, ev.Size, w)}
			return out
		}
	}
	pretty, used := jsontext.IndentPrefix(body, previewLines)
	used += skip
	add(wrap(block(pretty), w)...)
	if int64(used) < ev.Size {
		add(st.Muted.Render(fmt.Sprintf("… parsed view stops at byte %d of %d", used, ev.Size)))
	}
	return out
}

// detailHead is the detail's heading: the event's number, direction and kind, its
// size and place in the stream, and the event it pairs with.
func (p *wirePane) detailHead(ev *mcpclient.Event, pos, w int) []string {
	st := p.c.st
	var out []string
	add := func(lines ...string) { out = append(out, lines...) }
	head := fmt.Sprintf("#%d %s %s %s", ev.Seq, arrow(ev.Dir), ev.Dir, ev.Kind)
	if ev.Dir == mcpclient.Stderr || ev.Dir == mcpclient.Lifecycle {
		// The kind says it all ("stderr", "lifecycle"): no "stderr stderr".
		head = fmt.Sprintf("#%d %s %s", ev.Seq, arrow(ev.Dir), ev.Kind)
	}
	if ev.Method != "" && !ev.Kind.IsMessage() || ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse {
		if ev.Method != "" {
			head += " (" + clean(ev.Method) + ")"
		}
	}
	add(st.Title.Render(ansi.Truncate(head, w, "…")))
	var facts []string
	if ev.Dir != mcpclient.Lifecycle {
		facts = append(facts, jsontext.Count(int(ev.Size), "byte", "bytes"), fmt.Sprintf("line %d", ev.Line), fmt.Sprintf("offset %d", ev.Offset))
	}
	if ev.ChunkCount > 0 {
		facts = append(facts, fmt.Sprintf("arrived in %d reads (¦)", ev.ChunkCount+1))
	}
	facts = append(facts, fmt.Sprintf("+%dms", ev.Time.Sub(p.tl.base).Milliseconds()))
	add(wrapStyled(st.Muted, strings.Join(facts, " · "), w)...)
	if seq, ok := p.tl.sameRead(pos); ok {
		add(wrapStyled(st.Muted, fmt.Sprintf("arrived in the same read as #%d (inferred: it begins where #%d ends and was complete %s after it)",
			seq, seq, p.tl.sameReadGap(pos, seq)), w)...)
	}
	if seq, ok := p.tl.partner(pos); ok {
		what := "request"
		switch {
		case ev.Kind == mcpclient.KindRequest:
			what = "response"
		case ev.Kind == mcpclient.KindNotification:
			what = "request it reports on"
		}
		add(st.Accent.Render(ansi.Truncate(fmt.Sprintf("%s: #%d  (p jumps there)", what, seq), w, "…")))
	} else if ev.Kind == mcpclient.KindRequest && ev.Dir == mcpclient.ClientToServer {
		add(st.Muted.Render("no response yet"))
	}
	return out
}

// problemLines lists an event's problems: warnings (counted as violations) under
// "problems", informational notes (an allowed batch, say) under a neutral "notes".
func problemLines(st *themes.Styles, probs []mcpclient.Problem, w int) []string {
	var out []string
	add := func(lines ...string) { out = append(out, lines...) }
	for _, warn := range []bool{true, false} {
		head := "problems"
		if !warn {
			head = "notes"
		}
		for _, pr := range probs {
			if (pr.Severity >= mcpclient.Warning) != warn {
				continue
			}
			if head != "" {
				add("", st.Title.Render(head))
				head = ""
			}
			mark, sty := "·", st.Muted
			if warn {
				mark, sty = "⚠", st.Warning
			}
			add(wrapStyled(sty, mark+" "+clean(pr.Text)+" ["+clean(string(pr.Code))+"]", w)...)
		}
	}
	return out
}

// cutNote says how much of a frame the detail shows and how to see the rest.
func (p *wirePane) cutNote(ev *mcpclient.Event, shown int, full bool) []string {
	k := p.c.keys
	out := []string{fmt.Sprintf("showing the first %s of %s (%d of %d bytes)", humanSize(int64(shown)), humanSize(ev.Size), shown, ev.Size)}
	if int64(shown) == ev.Size {
		out[0] = fmt.Sprintf("showing all %s (%d bytes)", humanSize(ev.Size), ev.Size)
	}
	if int64(len(ev.Raw)) < ev.Size {
		out = append(out, fmt.Sprintf("only the first %d bytes were kept: the frame was over --max-message", len(ev.Raw)))
	}
	var keys string
	switch {
	case !full && shown < len(ev.Raw):
		keys = fmt.Sprintf("%s shows all (up to %s) · ", k.Detail.ShowAll.Help().Key, humanSize(showAllBytes))
	case full:
		keys = fmt.Sprintf("%s shows the preview again · ", k.Detail.ShowAll.Help().Key)
	}
	return append(out, keys+fmt.Sprintf("%s saves the frame to %s", k.Detail.Save.Help().Key, saveDir(p.c.hist.dir)))
}

// looksJSON says whether the parsed view should indent a frame: messages and other
// JSON parsed by mcpclient, the kept head of an oversize frame, and small frames that are
// valid JSON whatever their kind.
func looksJSON(ev *mcpclient.Event, shown int) bool {
	switch {
	case ev.Kind.IsMessage() || ev.Kind == mcpclient.KindBatch || ev.Kind == mcpclient.KindNotJSONRPC:
		return true
	case ev.Kind == mcpclient.KindOversize:
		head := bytes.TrimLeft(ev.Raw, " \t\r\n")
		return len(head) > 0 && (head[0] == '{' || head[0] == '[')
	case ev.Kind == mcpclient.KindNotJSON:
		return false
	}
	return shown == len(ev.Raw) && len(bytes.TrimSpace(ev.Raw)) > 0 && json.Valid(ev.Raw)
}

// wrapStyled wraps sanitized text and styles each line.
func wrapStyled(s lipgloss.Style, text string, w int) []string {
	lines := wrap(text, w)
	for i, l := range lines {
		lines[i] = s.Render(l)
	}
	return lines
}

// rawLines renders exact bytes through the sanitizer's raw walk, wrapped to w, with escapes
// and read boundaries styled. Display lines end after each visible "\n".
func rawLines(st *themes.Styles, raw []byte, chunks []int, w int) []string {
	var out []string
	var cur strings.Builder
	curW := 0
	newline := func() {
		out = append(out, cur.String())
		cur.Reset()
		curW = 0
	}
	write := func(text string, sty *lipgloss.Style) {
		if sty != nil {
			cur.WriteString(sty.Render(text))
		} else {
			cur.WriteString(text)
		}
	}
	// put measures only a bounded prefix of text per display line, so a long run costs
	// O(len) in all, not O(len²/w) (case B03).
	put := func(text string, sty *lipgloss.Style) {
		for text != "" {
			room := w - curW
			if room <= 0 {
				newline()
				continue
			}
			if n := asciiPrefix(text, room); n > 0 && (sty == nil || n == len(text)) {
				// Printable ASCII (Plain text is sanitized): one cell per byte.
				write(text[:n], sty)
				curW += n
				text = text[n:]
				if curW >= w && text != "" {
					newline()
				}
				continue
			}
			piece := text
			if lim := room*4 + 16; len(piece) > lim {
				piece = piece[:runeCut(piece, lim)]
			}
			tw := ansi.StringWidth(piece)
			if tw <= room {
				write(piece, sty)
				curW += tw
				text = text[len(piece):]
				continue
			}
			if sty != nil && len(piece) == len(text) && tw <= w && curW > 0 {
				// Keep a short escape whole on the next line.
				newline()
				continue
			}
			head := ansi.Truncate(piece, room, "")
			if !strings.HasPrefix(piece, head) {
				head = ""
			}
			if head == "" {
				if curW > 0 {
					newline()
					continue
				}
				// One character wider than the whole line: draw it anyway.
				_, n := utf8.DecodeRuneInString(piece)
				head = piece[:n]
			}
			write(head, sty)
			text = text[len(head):]
			newline()
		}
	}
	sanitize.Raw(raw, chunks, func(text string, t sanitize.Token) {
		switch t {
		case sanitize.Plain:
			put(text, nil)
		case sanitize.Escaped:
			put(text, &st.Escape)
		case sanitize.Chunk:
			put(text, &st.Muted)
		case sanitize.Break:
			newline()
		}
	})
	if curW > 0 || len(out) == 0 {
		newline()
	}
	return out
}

// asciiPrefix is how many of the first max bytes of s are ASCII (one cell each).
func asciiPrefix(s string, max int) int {
	n := min(len(s), max)
	for i := 0; i < n; i++ {
		if s[i] >= utf8.RuneSelf {
			return i
		}
	}
	return n
}
