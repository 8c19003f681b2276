package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// logLevels are the RFC 5424 levels MCP logging uses, least severe first
// (MCP server/utilities/logging).
func logLevels() []string {
	return []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
}

// levelRank orders a level; unknown levels rank as info.
func levelRank(level string) int {
	for i, l := range logLevels() {
		if l == level {
			return i
		}
	}
	return 1
}

// logKind says where a log entry came from.
type logKind uint8

const (
	// logServer is a notifications/message.
	logServer logKind = iota
	// logNotice is another server notification (list_changed, resources/updated …).
	logNotice
	// logClient is something mcp-inspect did or noticed (a refresh, an answer, a warning).
	logClient
	// logStderr is a line of the server's stderr, redrawn or continued in place while it
	// is unfinished (a progress bar).
	logStderr
)

// logEntry is one line of the Logs pane. It is kept small: a flood of notifications/message
// makes one per message (level and logger strings are shared, not copied per entry, and a
// JSON data value is pretty-printed only when its entry is shown in full).
type logEntry struct {
	seq  uint64
	at   time.Time
	kind logKind
	// isJSON says text is a log message's data as JSON (not a string).
	isJSON bool
	level  string
	logger string
	// text is raw (sanitized when drawn): the data string, or the data's JSON.
	text string
}

// Bounds of the Logs pane: it keeps the last logsKeep entries and at most logsKeep +
// logsDropChunk; beyond that the oldest logsDropChunk leave the view at once (one copy per
// chunk, not per entry). The pane counts them and says where they still are: every server
// message on the wire pane and in the recording.
const (
	logsKeep      = 10_000
	logsDropChunk = 2_500
)

// logsPane shows notifications/message (level, logger, data), the other server
// notifications, and mcp-inspect's own notes, filterable by level; "l" sets the server's
// level (logging/setLevel, or the modern _meta level).
type logsPane struct {
	c *common
	// tl is the timeline: times are shown relative to its first event.
	tl *timeline
	// entries are the kept entries, oldest first; dropped counts older ones let go.
	entries []logEntry
	dropped int
	// droppedStderr and droppedStderrBytes count the stderr lines among the dropped
	// entries, and their bytes.
	droppedStderr, droppedStderrBytes int
	// line is the server's stderr line being written (stderrFrame): a frame that redraws
	// or continues it updates its entry instead of adding one.
	line mcpclient.StderrTail
	// minLevel hides entries below it ("" shows all, notes included).
	minLevel string
	shown    []int
	sel      int
	top      int
	follow   bool

	// choosing is set while the level chooser is open; choice indexes logLevels.
	choosing bool
	choice   int
	// serverLevel is the level last set (empty: the server decides).
	serverLevel string
	r           rect
	// js is the selected entry's JSON data as a view: enter explores it (the detail then
	// takes the pane), esc leaves; jsOff is that view's scroll offset.
	js    detailJSON
	jsOff int
	// find is the "/" search; filterIn the "F" filter (filterTyping while it has focus).
	find         listSearch
	filterIn     textinput.Model
	filterTyping bool
}

func newLogsPane(c *common, tl *timeline) *logsPane {
	return &logsPane{c: c, tl: tl, follow: true, choice: 1, find: newListSearch(c), filterIn: newLogsFilter(c)}
}

// add appends an entry and keeps the view following the end.
func (p *logsPane) add(e logEntry) {
	if len(p.entries) >= logsKeep+logsDropChunk {
		p.dropOldest(logsDropChunk)
	}
	if n := len(p.entries); n > 0 && e.logger != "" && p.entries[n-1].logger == e.logger {
		e.logger = p.entries[n-1].logger // share one string (a flood usually has one logger)
	}
	// Entries stay in time order: mcp-inspect's notes are stamped when the UI makes them,
	// server events when they arrived, so a note can be later than an event shown after it.
	at := len(p.entries)
	for at > 0 && p.entries[at-1].at.After(e.at) {
		at--
	}
	if at == len(p.entries) {
		p.entries = append(p.entries, e)
		if p.visible(&e) {
			p.shown = append(p.shown, at)
		}
	} else {
		p.insertAt(at, e)
	}
	if p.follow && !p.js.exploring() { // an explored entry stays selected
		p.sel = max(len(p.shown)-1, 0)
	}
	p.scrollIntoView()
}

// stderrFrame shows a frame of the server's stderr: a line of its own, or, while the last
// stderr line is unfinished, that line redrawn (a progress bar's next state) or continued.
func (p *logsPane) stderrFrame(ev *mcpclient.Event) {
	if p.line.Keep == 0 {
		p.line.Keep = 1
	}
	_, open := p.line.Live()
	p.line.Add(ev.Raw)
	text := p.line.Lines(1)[0]
	if open {
		// The entry is at the end, or a few notes or notifications before it.
		for i := len(p.entries) - 1; i >= max(len(p.entries)-64, 0); i-- {
			if p.entries[i].kind == logStderr {
				p.entries[i].text = text
				return
			}
		}
	}
	p.add(logEntry{seq: ev.Seq, at: ev.Time, kind: logStderr, level: "info", text: text})
}

// logOffset writes d as signed milliseconds right-aligned in w digits ("+   341ms"), the
// wire pane's time column; before the first event (no events yet) it is negative.
func logOffset(d time.Duration, w int) string {
	sign, ms := "+", d.Milliseconds()
	if ms < 0 {
		sign, ms = "-", -ms
	}
	return fmt.Sprintf("%s%*dms", sign, w, ms)
}

// insertAt puts e at index at (before later entries), keeping the selection on the entry
// it was on.
func (p *logsPane) insertAt(at int, e logEntry) {
	p.entries = slices.Insert(p.entries, at, e)
	pos := len(p.shown)
	for i, j := range p.shown {
		if j >= at {
			if i < pos {
				pos = i
			}
			p.shown[i] = j + 1
		}
	}
	if p.visible(&e) {
		p.shown = slices.Insert(p.shown, pos, at)
		if pos <= p.sel && !p.follow && len(p.shown) > 1 {
			p.sel++
		}
	}
}

// visible applies the level filter.
func (p *logsPane) visible(e *logEntry) bool {
	if q := p.filterQuery(); q != "" && !strings.Contains(strings.ToLower(p.entryText(e)), q) {
		return false
	}
	if p.minLevel == "" {
		return true
	}
	lv := e.level
	if lv == "" {
		lv = "info"
	}
	return levelRank(lv) >= levelRank(p.minLevel)
}

// dropOldest lets the oldest n entries go, keeping the selection on the entry it was on
// (or the oldest kept one when that entry went).
func (p *logsPane) dropOldest(n int) {
	n = min(n, len(p.entries))
	for i := range p.entries[:n] {
		if e := &p.entries[i]; e.kind == logStderr {
			p.droppedStderr++
			p.droppedStderrBytes += len(e.text)
		}
	}
	kept := copy(p.entries, p.entries[n:])
	clear(p.entries[kept:]) // release the dropped entries' strings
	p.entries = p.entries[:kept]
	p.dropped += n
	gone := 0
	for gone < len(p.shown) && p.shown[gone] < n {
		gone++
	}
	for i, j := range p.shown[gone:] {
		p.shown[i] = j - n
	}
	p.shown = p.shown[:len(p.shown)-gone]
	p.sel = max(p.sel-gone, 0)
	p.top = max(p.top-gone, 0)
	p.scrollIntoView()
}

func (p *logsPane) refilter() {
	p.shown = p.shown[:0]
	for i := range p.entries {
		if p.visible(&p.entries[i]) {
			p.shown = append(p.shown, i)
		}
	}
	p.sel = max(len(p.shown)-1, 0)
	p.follow = true
	p.scrollIntoView()
}

// logMessage turns a notifications/message event into an entry.
func logMessage(ev *mcpclient.Event) logEntry {
	var p struct {
		Level  string          `json:"level"`
		Logger string          `json:"logger"`
		Data   json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(ev.Msg.Params, &p)
	e := logEntry{seq: ev.Seq, at: ev.Time, kind: logServer, level: knownLevel(p.Level), logger: p.Logger}
	var s string
	if json.Unmarshal(p.Data, &s) == nil {
		e.text = s
	} else {
		e.text, e.isJSON = strings.TrimSpace(string(p.Data)), true
	}
	return e
}

// knownLevel returns level as the constant string of logLevels when it is one (so a million
// entries share eight strings), "info" when empty, else level itself.
func knownLevel(level string) string {
	if level == "" {
		return "info"
	}
	for _, l := range logLevels() {
		if l == level {
			return l
		}
	}
	return level
}

// detailLines are what the pane shows of the selected entry in full, w wide: structured
// JSON data (an object or array) highlighted as the JSON view draws it, else the text.
func (e *logEntry) detailLines(st *themes.Styles, w int) []string {
	if e.isJSON && (strings.HasPrefix(e.text, "{") || strings.HasPrefix(e.text, "[")) {
		if lines, ok := jsonLines(st, []byte(e.text), w); ok && len(lines) > 1 {
			return lines
		}
	}
	return wrap(block(e.text), w)
}

func (p *logsPane) setSize(r rect) {
	p.r = r
	p.scrollIntoView()
}

// listHeight is how many rows the list gets (the selected entry's detail takes the rest):
// the session's share of the pane, all of it or none when zoomed.
func (p *logsPane) listHeight() int {
	switch p.c.zoom {
	case zoomDetail:
		return 0
	case zoomList:
		return max(p.r.h, 1)
	}
	return max(splitSize(p.r.h, p.r.h*3/5-1, p.c.split, sideMinRows), 1)
}

// listShare is the list's share of the pane in percent (the split keys step from it).
func (p *logsPane) listShare() int { return p.listHeight() * 100 / max(p.r.h-1, 1) }

func (p *logsPane) scrollIntoView() {
	p.top = topFor(p.top, p.sel, len(p.shown), max(p.listHeight(), 1))
}

func (p *logsPane) move(d int) {
	if len(p.shown) == 0 {
		return
	}
	p.sel = min(max(p.sel+d, 0), len(p.shown)-1)
	p.follow = p.sel == len(p.shown)-1 && d > 0
	p.scrollIntoView()
}

// inputFocused reports whether the level chooser owns the keys.
func (p *logsPane) inputFocused() bool {
	return p.choosing || p.find.typing || p.filterTyping || p.js.view.searching()
}

// logAction is what a key asks the root to do: send logging/setLevel with level.
type logAction struct {
	setLevel string
}

func (p *logsPane) title() string                       { return "Logs" }
func (p *logsPane) updateInput(tea.Msg) (tea.Cmd, bool) { return nil, false }

func (p *logsPane) bindings() []key.Binding {
	if p.js.exploring() {
		return jsonBindings(&p.c.keys)
	}
	return p.c.keys.offered("logs")
}

// sync keeps the selected entry's JSON data (an object or array, masked as drawn) as a
// view the JSON keys explore; its first row goes under the entry's meta line.
func (p *logsPane) sync() {
	e := p.selectedEntry()
	if e == nil || !e.isJSON || !(strings.HasPrefix(e.text, "{") || strings.HasPrefix(e.text, "[")) || p.r.w <= 0 {
		p.js = detailJSON{}
		return
	}
	p.js.set([]byte(p.c.maskText(e.text)), "", max(p.r.w, 10))
	p.js.at = 1
}

// selectedEntry is the selected entry, or nil.
func (p *logsPane) selectedEntry() *logEntry {
	if p.sel >= len(p.shown) || len(p.shown) == 0 {
		return nil
	}
	return &p.entries[p.shown[p.sel]]
}

// handleKey handles the pane's keys: ctrl+x cancels; act is a logAction when the user
// chose a level to send.
func (p *logsPane) handleKey(msg tea.KeyPressMsg) (bool, tea.Msg, tea.Cmd) {
	if cancelKey(p.c, msg) {
		return true, cancelAct{}, nil
	}
	handled, act, cmd := p.listKey(msg)
	if act != nil {
		return true, *act, cmd
	}
	return handled, nil, cmd
}

// listKey handles the list's and the level chooser's keys. act is set when the user chose
// a level to send.
func (p *logsPane) listKey(msg tea.KeyPressMsg) (handled bool, act *logAction, cmd tea.Cmd) {
	k := p.c.keys
	if p.choosing {
		switch {
		case key.Matches(msg, k.Dialog.ChoosePrev, k.List.Up):
			p.choice = max(p.choice-1, 0)
		case key.Matches(msg, k.Dialog.ChooseNext, k.List.Down):
			p.choice = min(p.choice+1, len(logLevels())-1)
		case key.Matches(msg, k.List.Top):
			p.choice = 0
		case key.Matches(msg, k.List.Bottom):
			p.choice = len(logLevels()) - 1
		case key.Matches(msg, k.Dialog.Confirm):
			p.choosing = false
			return true, &logAction{setLevel: logLevels()[p.choice]}, nil
		case key.Matches(msg, k.Dialog.Dismiss):
			p.choosing = false
		}
		return true, nil, nil
	}
	if ok, c := p.js.key(p.c, msg, true, &p.jsOff, max(p.r.h-1, 1)); ok {
		return true, nil, c
	}
	if !p.js.exploring() {
		if ok, c := p.findKey(msg); ok {
			return true, nil, c
		}
	}
	if ok, c := p.c.copyShownKey(msg, p.copySource); ok {
		return true, nil, c
	}
	switch {
	case key.Matches(msg, k.Logs.SetLevel):
		p.choosing = true
		if p.serverLevel != "" {
			p.choice = levelRank(p.serverLevel)
		}
	case key.Matches(msg, k.Logs.LevelFilter):
		levels := append([]string{""}, logLevels()...)
		i := 0
		for j, l := range levels {
			if l == p.minLevel {
				i = j
			}
		}
		p.minLevel = levels[(i+1)%len(levels)]
		p.refilter()
	default:
		d, ok := k.List.scrollStep(msg, max(p.listHeight()-1, 1), len(p.shown))
		if !ok {
			return false, nil, nil
		}
		p.move(d)
		p.follow = p.follow || key.Matches(msg, k.List.Bottom)
	}
	return true, nil, nil
}

// levelStyle picks a theme token for a level.
func levelStyle(st *themes.Styles, e *logEntry) func(...string) string {
	switch {
	case e.kind == logClient:
		return st.Accent.Render
	case e.kind == logNotice:
		return st.Notification.Render
	case e.kind == logStderr:
		return st.Stderr.Render
	case levelRank(e.level) >= levelRank("error"):
		return st.Error.Render
	case levelRank(e.level) >= levelRank("warning"):
		return st.Warning.Render
	case e.level == "debug":
		return st.Muted.Render
	}
	return st.Base.Render
}

// view draws the entries, their times relative to the timeline's first event (now when
// there is none).
func (p *logsPane) view(now time.Time) string {
	base := now
	if p.tl.len() > 0 {
		base = p.tl.base
	}
	return p.draw(base)
}

func (p *logsPane) draw(base time.Time) string {
	st := p.c.st
	w, h := p.r.w, p.r.h
	if p.js.exploring() {
		return p.drawJSON()
	}
	filter := "all"
	if p.minLevel != "" {
		filter = p.minLevel + " and above"
	}
	level := "server decides"
	if p.serverLevel != "" {
		level = p.serverLevel
	}
	head := st.Title.Render(fmt.Sprintf(" logs & notifications (%d)", p.dropped+len(p.entries))) +
		st.Muted.Render(fmt.Sprintf("  showing %s · server level: %s · %s levels · %s filter · %s search", filter, level,
			p.c.keys.Logs.LevelFilter.Help().Key, p.c.keys.List.Filter.Help().Key, p.c.keys.List.Search.Help().Key))
	if p.c.keys.Logs.SetLevel.Enabled() {
		head += st.Muted.Render(" · l set level") // only with a live server to tell
	}
	lines := []string{fit(head, w)}
	if l := p.findLine(w); l != "" {
		lines = append(lines, l)
	}
	if p.dropped > 0 {
		stderr := ""
		if p.droppedStderr > 0 {
			stderr = fmt.Sprintf(", %s of stderr in %d of them", humanSize(int64(p.droppedStderrBytes)), p.droppedStderr)
		}
		lines = append(lines, fit(st.Warning.Render(fmt.Sprintf(" %d older entries dropped from view%s (the pane keeps the last %d or more); every server message and stderr line is on the wire pane (3) and in the recording", p.dropped, stderr, logsKeep)), w))
	}
	if p.choosing {
		var parts []string
		for i, l := range logLevels() {
			if i == p.choice {
				parts = append(parts, selectRow(st, "‹"+l+"›", len(l)+2))
			} else {
				parts = append(parts, l)
			}
		}
		lines = append(lines, fit(" set level: "+strings.Join(parts, " ")+st.Muted.Render("  ←/→ enter esc"), w))
	}
	lh := p.listHeight()
	// One width for the whole time column, milliseconds as on the wire pane: as wide as
	// the newest entry's offset needs, at least "+123456ms" (two minutes).
	relW := 6
	if n := len(p.entries); n > 0 {
		relW = max(len(logOffset(p.entries[n-1].at.Sub(base), 0))-3, relW)
	}
	if len(p.shown) == 0 {
		lines = append(lines, st.Muted.Render(" nothing logged yet"))
	}
	for r := p.top; r < len(p.shown) && r < p.top+lh; r++ {
		e := &p.entries[p.shown[r]]
		when := logOffset(e.at.Sub(base), relW)
		src := clean(e.level)
		switch e.kind {
		case logClient:
			src = "inspect"
		case logNotice:
			src = "notify"
		case logStderr:
			src = "stderr"
		}
		text := clean(p.c.maskText(e.text))
		if e.logger != "" {
			text = "[" + clean(e.logger) + "] " + text
		}
		row := fmt.Sprintf(" %s %-8s %s", when, src, text)
		switch {
		case r == p.sel:
			lines = append(lines, selectRow(st, row, w))
		case p.find.matches(p.rowText(r)):
			lines = append(lines, fit(markMatches(st, row, p.find.query()), w))
		default:
			lines = append(lines, fit(levelStyle(st, e)(row), w))
		}
	}
	// The selected entry in full.
	if p.sel < len(p.shown) && len(p.shown) > 0 && p.c.zoom != zoomList {
		e := &p.entries[p.shown[p.sel]]
		lines = append(lines, st.Border.Render(strings.Repeat("─", max(w, 0))))
		lines = append(lines, st.Muted.Render(p.entryMeta(e)))
		shown := *e
		shown.text = p.c.maskText(e.text)
		lines = append(lines, shown.detailLines(st, max(w, 10))...)
	}
	return strings.Join(window(lines, 0, h, w), "\n")
}

// drawJSON draws the selected entry's data explored: its meta line, the JSON view from
// jsOff and the cursor's path under it; the detail takes the pane.
func (p *logsPane) drawJSON() string {
	w, h := p.r.w, p.r.h
	lines := append([]string{p.c.st.Muted.Render(p.entryMeta(p.selectedEntry()))}, p.js.rows(p.c.st)...)
	rows := window(lines, clampScroll(p.jsOff, len(lines), h-1), h-1, w)
	return strings.Join(append(rows, p.js.view.pathLine(p.c.st, &p.c.keys, w)), "\n")
}

// entryMeta is the line above an entry's detail: its level (or stderr), logger and frame.
func (p *logsPane) entryMeta(e *logEntry) string {
	meta := fmt.Sprintf("level %s", clean(e.level))
	if e.kind == logStderr {
		meta = "server stderr (first frame)" // redraws and pieces are the frames after it
	}
	if e.logger != "" {
		meta += " · logger " + clean(e.logger)
	}
	if e.seq != 0 {
		meta += fmt.Sprintf(" · wire #%d", e.seq)
	}
	return meta
}
