package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/internal/wirefilter"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// wireFilter is a preset filter of the wire list (the f key steps them); each is an
// expression of the filter language too (presetExpr).
type wireFilter uint8

const (
	filterAll wireFilter = iota
	filterMessages
	filterProblems
	filterStderr
	filterFlows
	filterCount
)

func (f wireFilter) String() string {
	return [...]string{"all", "messages", "problems", "stderr", "flows"}[f]
}

// findMode is what the wire pane's input line edits, if anything.
type findMode uint8

const (
	findNone findMode = iota
	findSearch
	findFilter
)

// wireFind is the wire pane's search and filter expression (#16): the expression's
// matching rows and the search's hits are kept as events arrive, never computed per frame.
type wireFind struct {
	// expr is the active filter expression (Empty: the preset filter applies); rows are
	// the positions it matches among the first scan.done events, scanned a chunk per
	// message (filterLive).
	expr wirefilter.Filter
	rows []int32
	scan liveScan
	// keep is the event selected when the filter was applied, selected again once the
	// scan reaches it (while keeping); kept is the row selected meanwhile, -1 before
	// (a key that moves the selection ends the wait).
	keep, kept int
	keeping    bool
	// hist holds the filters applied this session, oldest first; histAt is the one the
	// input shows while ↑/↓ walk it (len(hist) for the line being typed).
	hist   []string
	histAt int
	typed  string
	// query is the search; hits are the positions of the events it finds among the first
	// search.done events (all of them, whatever the filter shows); search.gen numbers the
	// searches (a chunk read from the trace for an older one is dropped too).
	query  string
	hits   []int32
	search liveScan
	// shown are the hits among the rows shown, kept by syncHits for the count; shownKey
	// says for which hits, rows and filter.
	shown    []int32
	shownKey shownKey
	// page is the search's hits inside the selected frame's detail (wirehits.go); want
	// is the one to scroll to once the frame's detail is drawn.
	page pageHits
	want hitWant
	// anchor is the event a filter change was asked to keep (pos) and the row and event
	// it selected instead (row, at): while that row stays selected the next filter change
	// keeps pos again, so narrowing then widening comes back to the same event.
	anchor struct {
		pos, row, at int
		ok           bool
	}

	mode findMode
	in   lineInput
	// err is why the expression being typed does not parse (the last good one stays).
	err *wirefilter.SyntaxError
	// from is the selection when the search input opened (esc goes back to it).
	from       int
	fromFollow bool
}

// presetExpr is the expression equal to a preset filter.
func presetExpr(f wireFilter) string {
	return [...]string{"", "kind:request|notification|response|error|batch", "is:problem | is:tool-error", "dir:stderr", "kind:http dir:out"}[f]
}

// filterLabel is the active filter as the title shows it.
func (p *wirePane) filterLabel() string {
	if !p.find.expr.Empty() {
		if p.filtering() {
			return fmt.Sprintf("filter: %s · filtering… %d%%", clean(p.find.expr.String()), p.find.scan.done*100/p.tl.len())
		}
		return "filter: " + clean(p.find.expr.String())
	}
	return p.filter.String()
}

// exprOn reports whether a filter expression chooses the rows.
func (p *wirePane) exprOn() bool { return !p.find.expr.Empty() }

// wireEv is the event at position i as the filter language reads it.
type wireEv struct {
	tl *timeline
	i  int
}

var _ wirefilter.Event = wireEv{}

func (e wireEv) ev() *tlEvent { return e.tl.evs.at(e.i) }

func (e wireEv) Dir() string {
	switch e.ev().dir {
	case mcpclient.ClientToServer, mcpclient.HTTPOut:
		return "out"
	case mcpclient.ServerToClient, mcpclient.HTTPIn:
		return "in"
	case mcpclient.Stderr:
		return "stderr"
	}
	return "lifecycle"
}

func (e wireEv) Kind() string {
	switch k := e.ev().kind; k {
	case mcpclient.KindRequest, mcpclient.KindNotification, mcpclient.KindResponse, mcpclient.KindBatch, mcpclient.KindStderr, mcpclient.KindLifecycle:
		return k.String()
	case mcpclient.KindErrorResponse:
		return "error"
	case mcpclient.KindNotJSONRPC, mcpclient.KindNotJSON, mcpclient.KindEmpty, mcpclient.KindOversize, mcpclient.KindHeader, mcpclient.KindPartial:
		return "invalid"
	}
	return "http"
}

func (e wireEv) Method() string { return e.tl.methodOf(e.ev()) }

// Exchange is the HTTP exchange of an HTTP event: the request's own Seq, or for the
// response's events the request they pair to.
func (e wireEv) Exchange() uint64 {
	switch ev := e.ev(); {
	case ev.kind == mcpclient.KindHTTPRequest:
		return ev.seq
	case ev.dir == mcpclient.HTTPIn:
		return e.tl.pairOf(ev)
	}
	return 0
}
func (e wireEv) ID() string             { return e.tl.idOf(e.ev()) }
func (e wireEv) Elapsed() time.Duration { return time.Duration(e.ev().at) }

func (e wireEv) HasProblem() bool {
	warn, _ := e.tl.counts(e.ev())
	return warn > 0
}

func (e wireEv) Raw() ([]byte, bool) {
	raw, ok := e.tl.rawAt(e.i)
	if e.ev().dir == mcpclient.Lifecycle {
		// A lifecycle event has no bytes: its text is what a search reads.
		return []byte(e.tl.summary(e.i)), true
	}
	return raw, ok
}

// Tool is params.name of a tools/call request, or of the request a response answers.
func (e wireEv) Tool() string {
	ev := e.ev()
	if e.tl.methodOf(ev) != "tools/call" {
		return ""
	}
	i := e.i
	if ev.kind != mcpclient.KindRequest {
		j, ok := e.tl.index(e.tl.pairOf(ev))
		if !ok {
			return ""
		}
		i = j
	}
	raw, ok := e.tl.rawAt(i)
	if !ok {
		return ""
	}
	var m struct {
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	return m.Params.Name
}

// ToolError reports a tools/call response whose result says isError.
func (e wireEv) ToolError() bool {
	ev := e.ev()
	if ev.kind != mcpclient.KindResponse || e.tl.methodOf(ev) != "tools/call" {
		return false
	}
	raw, ok := e.tl.rawAt(e.i)
	if !ok {
		return false
	}
	var m struct {
		Result struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	return json.Unmarshal(raw, &m) == nil && m.Result.IsError
}

// keptPos is the event a filter change keeps: the selected one, or the one an earlier
// filter change kept while its stand-in is still selected.
func (p *wirePane) keptPos() (int, bool) {
	cur, had := p.selPos()
	if a := p.find.anchor; had && a.ok && p.sel == a.row && cur == a.at {
		return a.pos, true
	}
	return cur, had
}

// setExpr makes f the active filter, keeping the selected event selected when it passes
// (once the scan reaches it); the returned Cmd goes on with the scan (filterLive).
func (p *wirePane) setExpr(f wirefilter.Filter) tea.Cmd {
	cur, had := p.keptPos()
	if p.find.keeping && p.sel == p.find.kept {
		// The older filter's scan had not reached the event to keep yet.
		cur, had = p.find.keep, true
	}
	p.find.expr, p.find.rows = f, nil
	p.find.scan.restart()
	// An empty filter shows every event at once: nothing to wait for.
	p.find.keep, p.find.kept, p.find.keeping = cur, -1, had && !p.follow && !f.Empty()
	cmd := p.filterLive()
	if !p.find.keeping {
		p.reselect(cur, had)
	}
	return cmd
}

// clearExpr ends the filter expression (the preset filter applies); its scan's
// messages are dropped.
func (p *wirePane) clearExpr() {
	p.find.expr, p.find.rows = wirefilter.Filter{}, nil
	p.find.scan.restart()
	p.find.keeping = false
}

// reselect selects event position cur in the new view, or the nearest row before it
// (after it when none is before).
func (p *wirePane) reselect(cur int, had bool) {
	p.find.anchor.ok = false
	if had && p.count() > 0 {
		p.sel = p.rowOf(cur)
		if p.at(p.sel) > cur && p.sel > 0 {
			p.sel--
		}
		p.find.anchor.pos, p.find.anchor.row, p.find.anchor.at, p.find.anchor.ok = cur, p.sel, p.at(p.sel), true
	} else {
		p.sel = 0
	}
	p.follow = p.count() == 0 || p.sel == p.count()-1
	p.detailOff = 0
	p.scrollIntoView()
}

// matchRows adds the events at positions from..to that the filter expression matches.
func (p *wirePane) matchRows(from, to int) {
	for i := from; i < to; i++ {
		if p.find.expr.Match(wireEv{p.tl, i}) {
			p.find.rows = append(p.find.rows, int32(i))
		}
	}
}

// searchRows adds the events at positions from..to that the search finds.
func (p *wirePane) searchRows(from, to int) {
	for i := from; i < to; i++ {
		if raw, ok := (wireEv{p.tl, i}).Raw(); ok && wirefilter.Contains(raw, p.find.query) {
			p.find.hits = append(p.find.hits, int32(i))
		}
	}
}

// step takes the next chunk of the live search or of the filter's scan.
func (p *wirePane) step(msg wireStepMsg) tea.Cmd {
	if msg.what == scanFilter {
		return p.filterStep(msg)
	}
	return p.searchStep(msg)
}

// searchLive searches the next liveChunkLen events of the live timeline at most and,
// while more remain, asks for the next chunk by a message (liveScan).
func (p *wirePane) searchLive() tea.Cmd {
	if p.find.query == "" || p.tl.load != nil {
		return nil
	}
	return p.find.search.step(scanSearch, p.tl.len(), p.searchRows)
}

// searchStep takes the next chunk of a live search (a stale search's message is dropped).
func (p *wirePane) searchStep(msg wireStepMsg) tea.Cmd {
	if !p.find.search.take(msg) {
		return nil
	}
	cmd := p.searchLive()
	p.selectFirstHit()
	return cmd
}

// selectFirstHit selects the first match from where the search began when a chunk of the
// search brings it and the selection has not moved since the search began.
func (p *wirePane) selectFirstHit() {
	if p.find.query == "" || p.count() == 0 || p.isHit(p.at(p.sel)) {
		return
	}
	// The selection is where the search began, or still follows the newest event as it did.
	unmoved := p.sel == p.find.from || (p.find.fromFollow && p.follow)
	// A search confirmed with enter before its first match was read (the chunks come in
	// Cmds) still jumps to it when it comes, unless the selection was moved meanwhile.
	if !unmoved {
		return
	}
	p.nextHit(p.find.from, 1, true)
}

// searching reports whether the search has events still to read.
func (p *wirePane) searching() bool {
	return p.find.query != "" && (p.tl.load != nil && p.find.search.done < p.tl.len() || p.find.search.pending(p.tl.len()))
}

// isHit reports whether the event at position i matches the search.
func (p *wirePane) isHit(i int) bool {
	_, ok := slices.BinarySearch(p.find.hits, int32(i))
	return ok
}

// setQuery searches for q, a chunk at a time: a timeline that reads the bytes on demand
// by Cmds (searchChunk), the live one here a chunk per message (searchLive). A newer
// query numbers a new search, so the older one's chunks are dropped.
func (p *wirePane) setQuery(q string) tea.Cmd {
	p.find.query, p.find.hits = q, nil
	p.find.search.restart()
	if p.tl.load != nil && q != "" {
		return p.searchChunk()
	}
	return p.searchLive()
}

// searchChunkLen is how many events one search Cmd reads from the trace.
const searchChunkLen = 2048

// wireSearchMsg is a chunk of a search read from the trace: the positions from..to were
// searched, hits are those that match; gen says which search it belongs to.
type wireSearchMsg struct {
	gen      int
	from, to int
	hits     []int32
}

// searchChunk reads the next chunk of events from the trace, in a Cmd, and searches them.
func (p *wirePane) searchChunk() tea.Cmd {
	from, to := p.find.search.done, min(p.find.search.done+searchChunkLen, p.tl.len())
	if from >= to {
		return nil
	}
	gen, q, load := p.find.search.gen, p.find.query, p.tl.load
	seqs := make([]uint64, to-from)
	life := make([]string, to-from)
	for i := range seqs {
		seqs[i] = p.tl.evs.at(from + i).seq
		if p.tl.evs.at(from+i).dir == mcpclient.Lifecycle {
			life[i] = p.tl.summary(from + i)
		}
	}
	return func() tea.Msg {
		msg := wireSearchMsg{gen: gen, from: from, to: to}
		for i, seq := range seqs {
			raw := []byte(life[i])
			if life[i] == "" {
				ev, err := load(seq)
				if err != nil {
					continue
				}
				raw = ev.Raw
			}
			if wirefilter.Contains(raw, q) {
				msg.hits = append(msg.hits, int32(from+i))
			}
		}
		return msg
	}
}

// searchRead takes a chunk searched by a Cmd (a stale search's is dropped) and asks for
// the next; the first match found is selected (selectFirstHit).
func (p *wirePane) searchRead(msg wireSearchMsg) tea.Cmd {
	if msg.gen != p.find.search.gen || msg.from != p.find.search.done {
		return nil
	}
	p.find.hits = append(p.find.hits, msg.hits...)
	p.find.search.done = msg.to
	p.selectFirstHit()
	return p.searchChunk()
}

// nextHit selects the next (d > 0) or previous shown row whose event matches the search,
// from row from (included when incl), wrapping around; false when none does.
func (p *wirePane) nextHit(from, d int, incl bool) bool {
	n := p.count()
	if n == 0 || len(p.find.hits) == 0 {
		return false
	}
	start := 1
	if incl {
		start = 0
	}
	for k := start; k < n+start; k++ {
		r := ((from+d*k)%n + n) % n
		if p.isHit(p.at(r)) {
			p.sel = r
			p.follow = false
			p.detailOff = 0
			p.find.want = wantFirst
			if d < 0 {
				p.find.want = wantLast
			}
			p.find.page.at = -1
			p.scrollIntoView()
			return true
		}
	}
	return false
}

// openFind opens the input line for a search or a filter expression.
func (p *wirePane) openFind(mode findMode) tea.Cmd {
	p.find.mode = mode
	p.find.err = nil
	p.find.in = newLineInput(p.c)
	p.sizeInput()
	if mode == findSearch {
		// The input starts empty (enter on it keeps the search in force, as in less).
		p.find.from, p.find.fromFollow = p.sel, p.follow
	} else {
		p.find.in.SetValue(p.find.expr.String())
		p.find.histAt = len(p.find.hist)
	}
	p.find.in.CursorEnd()
	return p.find.in.Focus()
}

// findKey handles a key while the input line is open: every key is the input's.
func (p *wirePane) findKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	k := p.c.keys
	switch {
	case key.Matches(msg, k.Dialog.Dismiss):
		if p.find.mode == findSearch {
			p.sel, p.follow = p.find.from, p.find.fromFollow
			p.setQuery("")
			p.scrollIntoView()
		}
		p.closeFind()
		return true, nil
	case key.Matches(msg, k.Dialog.Confirm):
		if p.find.mode == findFilter {
			return true, p.applyFilter()
		}
		p.closeFind()
		return true, nil
	case p.find.mode == findFilter && key.Matches(msg, k.List.FilterUp):
		p.recall(-1)
		return true, nil
	case p.find.mode == findFilter && key.Matches(msg, k.List.FilterDown):
		p.recall(1)
		return true, nil
	}
	before := p.find.in.Value()
	var cmd tea.Cmd
	p.find.in, cmd = p.find.in.Update(msg)
	if v := p.find.in.Value(); v != before {
		if p.find.mode == findSearch {
			// Incremental: the first match from where the search began.
			cmd = tea.Batch(cmd, p.setQuery(v))
			if !p.nextHit(p.find.from, 1, true) {
				p.sel = p.find.from
				p.scrollIntoView()
			}
		} else {
			p.find.err = nil
			p.find.histAt = len(p.find.hist)
		}
	}
	return true, cmd
}

// applyFilter parses the typed expression: a good one becomes the filter (and joins the
// history), a bad one keeps the input open with the column of the error and the filter
// as it was.
func (p *wirePane) applyFilter() tea.Cmd {
	src := strings.TrimSpace(p.find.in.Value())
	f, err := wirefilter.Parse(src)
	if err != nil {
		p.find.err = new(wirefilter.SyntaxError)
		if !errors.As(err, &p.find.err) {
			p.find.err.Msg = err.Error()
		}
		return nil
	}
	if src != "" && (len(p.find.hist) == 0 || p.find.hist[len(p.find.hist)-1] != src) {
		p.find.hist = append(p.find.hist, src)
	}
	p.filter = filterAll
	cmd := p.setExpr(f)
	p.closeFind()
	return cmd
}

// recall shows the filter d steps back (-1) or forward (1) in the history.
func (p *wirePane) recall(d int) {
	if p.find.histAt == len(p.find.hist) {
		p.find.typed = p.find.in.Value()
	}
	at := min(max(p.find.histAt+d, 0), len(p.find.hist))
	if at == p.find.histAt {
		return
	}
	p.find.histAt = at
	v := p.find.typed
	if at < len(p.find.hist) {
		v = p.find.hist[at]
	}
	p.find.in.SetValue(v)
	p.find.in.CursorEnd()
	p.find.err = nil
	p.sizeInput()
}

func (p *wirePane) closeFind() {
	p.find.mode = findNone
	p.find.in.Blur()
}

// cyclePreset steps the preset filters (all, messages, problems, stderr); a filter
// expression in force gives way to the preset after the one last chosen.
func (p *wirePane) cyclePreset() {
	cur, had := p.keptPos()
	p.filter = (p.filter + 1) % filterCount
	if p.filter == filterFlows && len(p.tl.flows) == 0 {
		p.filter = filterAll // a stdio session has no HTTP exchanges
	}
	p.clearExpr()
	p.rebuildFlows()
	p.reselect(cur, had)
}

// findLine is the list's bottom line: the input while one is open, else the search and
// its position; "" when there is neither.
func (p *wirePane) findLine(w int) string {
	st := p.c.st
	switch p.find.mode {
	case findSearch:
		return fit("/"+p.find.in.View()+" "+st.Muted.Render(p.hitCount()), w)
	case findFilter:
		line := fit("filter: "+p.find.in.View(), w)
		if p.find.err != nil {
			// The error above the input, its caret under the column named.
			caret := strings.Repeat(" ", max(min(8+p.find.err.Col-1, w-1), 0)) + "^ "
			line = st.Error.Render(fit(caret+p.find.err.Error(), w)) + "\n" + line
		}
		return line
	}
	if p.find.query == "" {
		return ""
	}
	return st.Muted.Render(fit(fmt.Sprintf(" /%s · %s · %s/%s next/previous", clean(p.find.query), p.hitCount(),
		p.c.keys.Wire.SearchNext.Help().Key, p.c.keys.Wire.SearchPrev.Help().Key), w))
}

// hitCount says how many events the search finds, and which of them is selected.
func (p *wirePane) hitCount() string {
	if p.find.query == "" {
		return ""
	}
	n := len(p.find.shown)
	if p.searching() && n == 0 {
		if p.tl.load == nil {
			// Short: it fits the room sizeInput leaves.
			return fmt.Sprintf("searching… %d%%", p.find.search.done*100/p.tl.len())
		}
		return fmt.Sprintf("searching the trace: %d of %d", p.find.search.done, p.tl.len())
	}
	more := ""
	if p.searching() {
		more = "…" // still counting (the room is short: sizeInput)
	}
	if n == 0 {
		if len(p.find.hits) > 0 {
			return jsontext.Count(len(p.find.hits), "match", "matches") + ", none shown by the filter"
		}
		return "no match"
	}
	if i, ok := p.selPos(); ok {
		if k, found := slices.BinarySearch(p.find.shown, int32(i)); found {
			return fmt.Sprintf("match %d of %d%s%s", k+1, n, more, p.inFrame())
		}
	}
	return jsontext.Count(n, "match", "matches") + more
}

// highlight marks the search's occurrences in a drawn line (styles kept).
func (p *wirePane) highlight(line string) string {
	q := p.find.query
	if q == "" {
		return line
	}
	plain := ansi.Strip(line)
	var rs []lipgloss.Range
	for off := 0; off < len(plain); {
		i, j := wirefilter.Find([]byte(plain[off:]), q)
		if i < 0 {
			break
		}
		start := ansi.StringWidth(plain[:off+i])
		end := start + ansi.StringWidth(plain[off+i:off+j])
		rs = append(rs, lipgloss.NewRange(start, end, p.c.st.Match))
		off += j
	}
	return lipgloss.StyleRanges(line, rs...)
}

// bodyRows is the number of list rows: the list's height less the title, and less the
// search line when there is one.
func (p *wirePane) bodyRows() int {
	body := p.list.h - 1
	if p.droppedLine() {
		body--
	}
	if (p.find.mode != findNone || p.find.query != "") && body > 1 {
		body--
	}
	if p.find.mode == findFilter && p.find.err != nil && body > 1 {
		body--
	}
	return body
}

// updateInput passes a cursor blink to the open input line.
func (p *wirePane) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	if p.find.mode == findNone {
		return nil, false
	}
	var cmd tea.Cmd
	p.find.in, cmd = p.find.in.Update(msg)
	return cmd, true
}

// sizeInput leaves room on the input line for its prompt and what follows the input (the
// match count, the filter's error).
func (p *wirePane) sizeInput() {
	rest := 8 + len("match 99 of 999")
	if p.find.mode == findFilter {
		rest = 9
	}
	p.find.in.SetWidth(max(p.list.w-rest, 8))
}

// syncHits keeps the hits the filter shows (the search line counts them), redone only
// when the hits, the rows or the filter change.
func (p *wirePane) syncHits() {
	k := shownKey{len(p.find.hits), p.count(), p.filterLabel()}
	if k == p.find.shownKey && p.find.shown != nil {
		return
	}
	p.find.shownKey = k
	p.find.shown = p.find.shown[:0:0]
	if p.count() == p.tl.len() {
		p.find.shown = p.find.hits
		return
	}
	for _, h := range p.find.hits {
		if p.count() > 0 && p.at(p.rowOf(int(h))) == int(h) {
			p.find.shown = append(p.find.shown, h)
		}
	}
}

// shownKey is what wireFind.shown was computed for.
type shownKey struct {
	hits, rows int
	filter     string
}
