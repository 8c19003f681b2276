package ui

import (
	"container/list"
	"math"
	"sort"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// tlEvent is one event as the timeline keeps it: what a list row, the filters, the pairing
// links and the detail's header need, in 40 bytes. The parsed message is never kept (it is
// read again from the bytes when a pane needs it); the bytes are kept beside it on a live
// session (timeline.raws) and read from the trace on demand when a trace is opened with a
// loader, so a session of a million events costs tens of megabytes, not a gigabyte (#5, #8).
// An HTTP session has two events a message (the SSE frame and the message in it), so the
// summary is packed (#15): the stream offset is not kept where it continues its stream
// (offsetOf), and the rare values that do not fit (an offset that does not continue, a
// frame of 4 GiB, a pair two billion events away, the 65,536th method or problem list)
// are kept by Seq in the timeline's wide map.
type tlEvent struct {
	seq uint64
	at  int64 // nanoseconds since timeline.base
	// size is the frame's length; sizeWide when the timeline's wide map holds it.
	size uint32
	line uint32
	// pair is mcpclient.Event.Pair for responses, notifications and our replies; for a
	// request it is the Seq of its first response (0 until one comes). It is kept as the
	// difference from seq (0 = none; pairWide: in the wide map); see pairOf and setPair.
	pair int32
	// id is the JSON-RPC id: its value when idKind is idNum, an index into timeline.strs
	// when idStr (ids as written: strings, big or odd numbers).
	id     int32
	method uint16 // index into timeline.methods; 0 = none; methodWide: in the wide map
	probs  uint16 // index into timeline.plists; 0 = none; probsWide: in the wide map
	dir    mcpclient.Direction
	kind   mcpclient.Kind
	idKind uint8
	flags  uint8
}

const (
	idNone uint8 = iota
	idNum
	idStr
)

const (
	// evControls marks frames whose bytes hold terminal control or invisible characters
	// (computed once on arrival: the badge is exact and costs nothing per frame drawn).
	evControls uint8 = 1 << iota
	// evCode marks an error response whose code is in timeline.codes.
	evCode
	// evToolError marks a tools/call result with isError: true (the tool's name is in
	// timeline.toolNames by the response's Seq).
	evToolError
	// evRunOff marks an event whose stream offset continues its stream (see noteOffset).
	evRunOff
	// evEdited and evInjected mark a frame a tap wrote itself (mcpclient.Event.Written).
	evEdited
	evInjected
)

// writtenFlag is the flag of mcpclient.Event.Written (0 for a frame forwarded as it came).
func writtenFlag(w mcpclient.NoteCond) uint8 {
	switch w {
	case mcpclient.NoteEdited:
		return evEdited
	case mcpclient.NoteInjected:
		return evInjected
	}
	return 0
}

// chunkInfo is an event's read boundaries (mcpclient.Event.Chunks and ChunkCount), kept
// only for the events that arrived in more than one read.
type chunkInfo struct {
	marks []int
	count int
}

// stderrKeep is how many stderr lines the timeline keeps as text for the Server pane,
// whether or not it keeps the bytes of every event.
const stderrKeep = 256

// evBlock is how many events one block of tlEvents holds (1 MiB): a million events never
// need one 64 MB array allocated and copied as it grows, which would stall a keypress and
// double the memory for a moment.
const evBlock = 1 << 14

// tlEvents holds the timeline's events in fixed blocks; at and push are its slice.
type tlEvents struct {
	blocks [][]tlEvent
	n      int
}

// at is the event at position i (0 <= i < n).
func (s *tlEvents) at(i int) *tlEvent { return &s.blocks[i/evBlock][i%evBlock] }

// push appends e. The first block grows as a slice does (a short session stays small);
// later ones are allocated whole.
func (s *tlEvents) push(e tlEvent) {
	if len(s.blocks) == 0 || len(s.blocks[len(s.blocks)-1]) == evBlock {
		c := evBlock
		if len(s.blocks) == 0 {
			c = 64
		}
		s.blocks = append(s.blocks, make([]tlEvent, 0, c))
	}
	last := &s.blocks[len(s.blocks)-1]
	*last = append(*last, e)
	s.n++
}

// timeline keeps every event in arrival order plus the indexes the panes need, built
// incrementally as events arrive so nothing is recomputed per frame.
type timeline struct {
	evs  tlEvents
	base time.Time
	// raws holds the bytes of the events from position rawBase on: every event's when
	// nothing is loaded on demand (load nil), none for an opened trace, and the latest ones
	// (up to keep events and keepBytes bytes) for a live session that reads older events
	// back from its recording (setReadBack). rawBytes is their total length (plus each
	// frame's own cost for an unrecorded session: rawCost).
	raws      [][]byte
	rawBase   int
	rawBytes  int64
	keep      int
	keepBytes int64
	// Filter indexes: positions in evs.
	messages []int32
	problems []int32
	stderr   []int32
	// flows are the HTTP requests (the flow view's rows); exchanges holds what each
	// exchange's events are, by its request's Seq (wireflows.go).
	flows     []int32
	exchanges map[uint64]*tlExchange
	// violations counts events with at least one Warning problem.
	violations int
	// crlf counts the server's lines that end in "\r\n" (an Info problem on each frame,
	// so not in the problems filter, which is is:problem); crlfFirst is the first one's
	// Seq. The Server pane says it once, with the count.
	crlf      int
	crlfFirst uint64

	// strs interns odd ids; strIdx finds them. strs[0] is "".
	strs   []string
	strIdx map[string]uint32
	// methods interns methods (tlEvent.method); methodIdx finds them. methods[0] is "".
	methods   []string
	methodIdx map[string]uint16
	// wide holds, by Seq, the values too wide for an event's tlEvent (see tlEvent).
	wide map[uint64]wideVals
	// runOff is each stream's running offset (by Direction) after the last event; offMarks
	// holds it as it was at every offStride-th position (see offsetOf).
	runOff   [8]int64
	offMarks [][8]int64

	// plists are the events' problem lists, each distinct list once (a million frames
	// before initialize share one); plistIdx finds them by content, up to plistInterned.
	plists   [][]mcpclient.Problem
	plistIdx map[string]uint32
	pkey     []byte

	// Sparse per-event data, by Seq: the few events that have it.
	lives map[uint64]*mcpclient.LifeInfo
	// encs says how content-encoded HTTP bodies decode (KindHTTPEncoded).
	encs   map[uint64]*mcpclient.Encoding
	chunks map[uint64]chunkInfo
	codes  map[uint64]int64
	// toolNames holds the tool name of each tools/call request (by its Seq) and of each
	// isError result (by the response's Seq).
	toolNames map[uint64]string

	// tail keeps the last stderrKeep stderr lines as a terminal shows them (progress
	// bars redrawn in place, unfinished lines continued).
	tail mcpclient.StderrTail

	// load reads one event back from the recording by Seq (Options.LoadEvent); nil keeps
	// the bytes in raws. It is only called from a tea.Cmd.
	load func(seq uint64) (mcpclient.Event, error)
	// cache holds the events loaded lately (raw bytes and parsed message).
	cache *eventCache
	// loading marks the Seqs a load Cmd is reading; want queues those asked for since.
	loading map[uint64]bool
	want    []uint64
	// failed holds the Seqs that could not be read back, with why (not asked again).
	failed map[uint64]error
	// showCreds shows HTTP credentials as sent (Options.ShowCredentials, the reveal key);
	// see shownRaw. redact masks the session's secrets (Options.Redact); maskedDetail caches
	// the detail's masked frame.
	showCreds    bool
	redact       func([]byte) []byte
	maskedDetail maskedFrame
	// noFile says why an unrecorded live session drops its older frames' bytes (setNoFile);
	// droppedFrames and droppedBytes count what it dropped.
	noFile        string
	droppedFrames int
	droppedBytes  int64
}

func newTimeline() *timeline {
	return &timeline{
		strs:      []string{""},
		strIdx:    map[string]uint32{"": 0},
		methods:   []string{""},
		methodIdx: map[string]uint16{"": 0},
		wide:      map[uint64]wideVals{},
		plists:    [][]mcpclient.Problem{nil},
		plistIdx:  map[string]uint32{},
		lives:     map[uint64]*mcpclient.LifeInfo{},
		encs:      map[uint64]*mcpclient.Encoding{},
		chunks:    map[uint64]chunkInfo{},
		codes:     map[uint64]int64{},
		toolNames: map[uint64]string{},
		exchanges: map[uint64]*tlExchange{},
	}
}

// setLoader makes the timeline keep summaries only and read the bytes through load.
func (t *timeline) setLoader(load func(seq uint64) (mcpclient.Event, error)) {
	t.load = load
	t.cache = newEventCache(cacheEvents, cacheBytes)
	t.loading = map[uint64]bool{}
	t.failed = map[uint64]error{}
}

// setReadBack makes a live session's timeline keep the bytes of its latest events only
// (recentEvents, recentBytes) and read older ones back through load, from the recording
// that holds every byte: its memory follows the screen and the caches, not the session's
// length (#15).
func (t *timeline) setReadBack(load func(seq uint64) (mcpclient.Event, error)) {
	t.setLoader(load)
	t.keep, t.keepBytes = recentEvents, recentBytes
}

// recentEvents and recentBytes bound the bytes a live session keeps in memory: the events
// that arrived last, a few screens of a flood, whatever their size (the newest event is
// always kept).
const (
	recentEvents = 8192
	recentBytes  = 64 << 20
)

// keepRaw files the bytes of the event just added, dropping the oldest kept beyond the
// bounds when older events can be read back.
func (t *timeline) keepRaw(raw []byte) {
	if t.load != nil && t.keep == 0 {
		return
	}
	t.raws = append(t.raws, raw)
	t.rawBytes += t.rawCost(raw)
	if t.keep == 0 {
		return
	}
	for len(t.raws) > 1 && (len(t.raws) > t.keep || t.rawBytes > t.keepBytes) {
		t.dropped(t.rawBase, len(t.raws[0]))
		t.rawBytes -= t.rawCost(t.raws[0])
		t.raws[0] = nil
		t.raws = t.raws[1:]
		t.rawBase++
	}
}

// kept returns the bytes of the event at position i when they are in raws.
func (t *timeline) kept(i int) ([]byte, bool) {
	if i < t.rawBase || i-t.rawBase >= len(t.raws) {
		return nil, false
	}
	return t.raws[i-t.rawBase], true
}

// loadErr is why the event seq could not be read back from the trace (nil if it was, or
// is still to be).
func (t *timeline) loadErr(seq uint64) error {
	if t.noFile != "" {
		if i, ok := t.index(seq); ok && t.droppedAt(i) {
			return droppedError{t}
		}
	}
	if t.failed == nil {
		return nil
	}
	return t.failed[seq]
}

// intern returns s's index in strs, adding it the first time.
func (t *timeline) intern(s string) uint32 {
	if i, ok := t.strIdx[s]; ok {
		return i
	}
	i := uint32(len(t.strs))
	t.strs = append(t.strs, s)
	t.strIdx[s] = i
	return i
}

// plistInterned bounds the problem lists found by content: beyond it, new lists (texts
// that name an id or an offset are all different) are kept without a lookup entry.
const plistInterned = 4096

// internProblems returns the index of ps in plists, sharing equal lists.
func (t *timeline) internProblems(ps []mcpclient.Problem) uint32 {
	if len(ps) == 0 {
		return 0
	}
	k := t.pkey[:0]
	for _, p := range ps {
		k = append(k, byte(p.Severity))
		k = append(k, p.Code...)
		k = append(k, 0)
		k = append(k, p.Text...)
		k = append(k, 1)
	}
	t.pkey = k
	if i, ok := t.plistIdx[string(k)]; ok {
		return i
	}
	i := uint32(len(t.plists))
	// Capacity cut to length: an append to a rebuilt event's Problems must copy, never
	// write into a list other events share.
	t.plists = append(t.plists, ps[:len(ps):len(ps)])
	if len(t.plistIdx) < plistInterned {
		t.plistIdx[string(k)] = i
	}
	return i
}

// counts is how many of an event's problems are warnings (or worse) and how many are not.
func (t *timeline) counts(e *tlEvent) (warn, info int) {
	for _, p := range t.probsOf(e) {
		if p.Severity >= mcpclient.Warning {
			warn++
		} else {
			info++
		}
	}
	return warn, info
}

// len is the number of events.
func (t *timeline) len() int { return t.evs.n }

func hasWarning(ev *mcpclient.Event) bool {
	for _, p := range ev.Problems {
		if p.Severity >= mcpclient.Warning {
			return true
		}
	}
	return false
}

// numericID parses an id written as a plain decimal integer ("7", "-3"): the only form
// that round-trips through an int64 byte for byte.
func numericID(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	s := b
	if s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 || (s[0] == '0' && len(s) > 1) || (b[0] == '-' && s[0] == '0') {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	return n, err == nil
}

func (t *timeline) add(ev mcpclient.Event) {
	if t.evs.n == 0 {
		t.base = ev.Time
	}
	i := t.evs.n
	e := tlEvent{
		seq:  ev.Seq,
		at:   int64(ev.Time.Sub(t.base)),
		line: uint32(min(max(ev.Line, 0), math.MaxUint32)),
		dir:  ev.Dir,
		kind: ev.Kind,
	}
	t.setSize(&e, ev.Size)
	t.noteOffset(&e, i, ev.Offset)
	if ev.Kind != mcpclient.KindRequest {
		t.setPair(&e, ev.Pair)
	}
	e.flags |= writtenFlag(ev.Written)
	if ev.Dir != mcpclient.Lifecycle && ev.Kind != mcpclient.KindHTTPEncoded && linesHaveControls(ev.Raw) {
		// (Compressed bytes are binary: they are shown as hex, never as text.)
		e.flags |= evControls
	}
	if m := ev.Msg; m != nil {
		switch {
		case len(m.ID) == 0:
		default:
			if n, ok := numericID(m.ID); ok && n >= math.MinInt32 && n <= math.MaxInt32 {
				e.id, e.idKind = int32(n), idNum
			} else {
				e.id, e.idKind = int32(t.intern(string(m.ID))), idStr
			}
		}
		if m.Method != "" {
			t.setMethod(&e, m.Method)
		}
		if m.Error != nil {
			t.codes[ev.Seq] = m.Error.Code
			e.flags |= evCode
		}
	}
	if e.method == 0 && ev.Method != "" {
		t.setMethod(&e, ev.Method)
	}
	t.setProbs(&e, t.internProblems(ev.Problems))
	t.noteToolCall(&ev, &e)
	if ev.Life != nil {
		t.lives[ev.Seq] = ev.Life
	}
	if ev.Encoding != nil {
		t.encs[ev.Seq] = ev.Encoding
	}
	if ev.ChunkCount > 0 || len(ev.Chunks) > 0 {
		t.chunks[ev.Seq] = chunkInfo{ev.Chunks, ev.ChunkCount}
	}
	t.evs.push(e)
	t.keepRaw(ev.Raw)
	if ev.Kind.IsMessage() || ev.Kind == mcpclient.KindBatch {
		t.messages = append(t.messages, int32(i))
	}
	crlf := ev.Dir == mcpclient.ServerToClient && mcpclient.HasCode(ev.Problems, mcpclient.CodeCRLF)
	if crlf {
		if t.crlf == 0 {
			t.crlfFirst = ev.Seq
		}
		t.crlf++
	}
	if hasWarning(&ev) {
		t.problems = append(t.problems, int32(i))
		t.violations++
	} else if e.flags&evToolError != 0 {
		t.problems = append(t.problems, int32(i)) // shown by the problems filter, not a violation
	}
	if ev.Dir == mcpclient.Stderr {
		t.stderr = append(t.stderr, int32(i))
		if t.tail.Keep == 0 {
			t.tail.Keep = stderrKeep
		}
		t.tail.Add(ev.Raw)
	}
	if ev.Pair != 0 && (ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse) {
		if j, ok := t.index(ev.Pair); ok && t.evs.at(j).kind == mcpclient.KindRequest && t.evs.at(j).pair == 0 {
			t.setPair(t.evs.at(j), ev.Seq)
		}
	}
	if ev.Pair != 0 && ev.Kind == mcpclient.KindHTTPResponse {
		// An HTTP request and its response: p jumps between them, as for JSON-RPC.
		if j, ok := t.index(ev.Pair); ok && t.evs.at(j).kind == mcpclient.KindHTTPRequest && t.evs.at(j).pair == 0 {
			t.setPair(t.evs.at(j), ev.Seq)
		}
	}
	if ev.Kind == mcpclient.KindBatch && ev.Batch != nil {
		t.linkBatch(i, ev.Batch)
	}
	if ev.Dir == mcpclient.HTTPOut || ev.Dir == mcpclient.HTTPIn || ev.Exchange != 0 {
		t.noteExchange(i, &ev)
	}
}

// linkBatch links each request answered by a response inside the batch at position i to
// the batch frame (the client completes such a request with the batch's Seq), and the
// batch back to the first request it answers, so p jumps there and back.
func (t *timeline) linkBatch(i int, b *mcpclient.Batch) {
	seq := t.evs.at(i).seq
	for _, el := range b.Elems {
		if el.Pair == 0 || (el.Kind != mcpclient.KindResponse && el.Kind != mcpclient.KindErrorResponse) {
			continue
		}
		if j, ok := t.index(el.Pair); ok && t.evs.at(j).kind == mcpclient.KindRequest && t.evs.at(j).pair == 0 {
			t.setPair(t.evs.at(j), seq)
			if t.evs.at(i).pair == 0 {
				t.setPair(t.evs.at(i), el.Pair)
			}
		}
	}
}

// hasControls reports whether the event at position i holds control characters.
func (t *timeline) hasControls(i int) bool {
	return i >= 0 && i < t.evs.n && t.evs.at(i).flags&evControls != 0
}

// index finds the position of the event with the given Seq.
func (t *timeline) index(seq uint64) (int, bool) {
	// Seqs normally count from 1 without gaps: try the direct slot first.
	if seq >= 1 && int(seq-1) < t.evs.n && t.evs.at(int(seq-1)).seq == seq {
		return int(seq - 1), true
	}
	i := sort.Search(t.evs.n, func(k int) bool { return t.evs.at(k).seq >= seq })
	return i, i < t.evs.n && t.evs.at(i).seq == seq
}

// time is when the event at position i happened.
func (t *timeline) time(i int) time.Time { return t.base.Add(time.Duration(t.evs.at(i).at)) }

// methodOf is the method of a request or notification, or the method a response answers.
func (t *timeline) methodOf(e *tlEvent) string {
	if e.method == methodWide {
		return t.wide[e.seq].method
	}
	return t.methods[e.method]
}

// idOf is the JSON-RPC id as written, "" for none.
func (t *timeline) idOf(e *tlEvent) string {
	switch e.idKind {
	case idNum:
		return strconv.FormatInt(int64(e.id), 10)
	case idStr:
		return t.strs[e.id]
	}
	return ""
}

// problemsAt are the problems of the event at position i.
func (t *timeline) problemsAt(i int) []mcpclient.Problem { return t.probsOf(t.evs.at(i)) }

// rawAt is the bytes of the event at position i, when kept or loaded.
func (t *timeline) rawAt(i int) ([]byte, bool) {
	e := t.evs.at(i)
	if raw, ok := t.kept(i); ok || t.load == nil {
		return raw, !t.droppedAt(i)
	}
	if e.dir == mcpclient.Lifecycle {
		return nil, true
	}
	if c, ok := t.cache.peek(e.seq); ok {
		// Only peeked (views read it): need marks the shown events used.
		return c.Raw, true
	}
	return nil, false
}

// event rebuilds the event at position i as mcpclient made it, without the parsed
// message (Msg is nil: see message). ok is false when its bytes are still to be loaded
// (Raw is then nil).
func (t *timeline) event(i int) (mcpclient.Event, bool) {
	e := t.evs.at(i)
	ev := mcpclient.Event{
		Seq:      e.seq,
		Time:     t.time(i),
		Dir:      e.dir,
		Kind:     e.kind,
		Size:     t.sizeOf(e),
		Offset:   t.offsetOf(i),
		Line:     int64(e.line),
		Problems: t.probsOf(e),
		Life:     t.lives[e.seq],
		Encoding: t.encs[e.seq],
	}
	if e.kind != mcpclient.KindRequest {
		ev.Pair = t.pairOf(e)
	}
	if e.kind == mcpclient.KindResponse || e.kind == mcpclient.KindErrorResponse {
		ev.Method = t.methodOf(e)
	}
	if c, ok := t.chunks[e.seq]; ok {
		ev.Chunks, ev.ChunkCount = c.marks, c.count
	}
	ev.Written = writtenOf(e.flags)
	raw, ok := t.rawAt(i)
	ev.Raw = raw
	return ev, ok
}

// full is event with the parsed message: parsed again from the kept bytes, or as loaded.
// ok is false when the bytes are still to be loaded.
func (t *timeline) full(i int) (mcpclient.Event, bool) {
	ev, ok := t.event(i)
	if !ok || ev.Dir == mcpclient.Lifecycle || ev.Dir == mcpclient.Stderr {
		return ev, ok
	}
	if _, kept := t.kept(i); !kept && t.load != nil {
		if c, ok := t.cache.get(ev.Seq); ok {
			ev.Msg = c.Msg
		}
		return ev, true
	}
	if ev.Kind.IsMessage() {
		_, ev.Msg, _ = mcpclient.Classify(ev.Raw)
	}
	return ev, true
}

// partner is the Seq of the event linked to the one at position i: its response for a
// request, its request for a response, the request a notification reports on, or the
// request our reply answers.
func (t *timeline) partner(i int) (uint64, bool) {
	e := t.evs.at(i)
	return t.pairOf(e), e.pair != 0
}

// sameReadWindow is how close in time two adjacent frames of one stream must complete for
// sameRead to say they probably came in one read(): frames of one read are framed one
// after the other without waiting, frames of separate reads wait for the server's next
// write.
const sameReadWindow = time.Millisecond

// sameRead finds the frame the event at position i probably shared its first read() with:
// the frame before it on the same stream (stdout or stderr), which ended exactly where it
// begins, when it came whole in that read and was complete within sameReadWindow of it
// (case B02: a notification and a response written in one buffer). mcpclient does not mark
// where reads begin between frames yet, so this is inferred from offsets and times.
func (t *timeline) sameRead(i int) (uint64, bool) {
	ev := t.evs.at(i)
	if (ev.dir != mcpclient.ServerToClient && ev.dir != mcpclient.Stderr) || t.chunks[ev.seq].count > 0 {
		return 0, false
	}
	off := t.offsetOf(i)
	if off == 0 {
		return 0, false
	}
	// Look back a bounded number of events for the previous frame of the stream.
	for j := i - 1; j >= 0 && j >= i-4096; j-- {
		prev := t.evs.at(j)
		if prev.dir != ev.dir {
			continue
		}
		if t.offsetOf(j)+t.sizeOf(prev) == off && time.Duration(ev.at-prev.at) < sameReadWindow {
			return prev.seq, true
		}
		return 0, false
	}
	return 0, false
}

// sameReadGap is the time between the event at position i and the frame seq, for
// sameRead's note.
func (t *timeline) sameReadGap(i int, seq uint64) time.Duration {
	if j, ok := t.index(seq); ok {
		return time.Duration(t.evs.at(i).at - t.evs.at(j).at).Round(time.Microsecond)
	}
	return 0
}

// stderrTail returns the last n stderr lines (raw text, unsanitized), at most stderrKeep.
func (t *timeline) stderrTail(n int) []string {
	return t.tail.Lines(min(n, stderrKeep))
}

// stderrLive is the server's unfinished last stderr line (a progress bar's latest state);
// ok is false when the last line ended.
func (t *timeline) stderrLive() (string, bool) { return t.tail.Live() }

func trimEOL(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// need asks for the bytes of the event at position i when they are loaded on demand and
// not at hand; loadCmd then reads them.
func (t *timeline) need(i int) {
	if t.load == nil || i < 0 || i >= t.evs.n {
		return
	}
	e := t.evs.at(i)
	if _, kept := t.kept(i); kept {
		return
	}
	if e.dir == mcpclient.Lifecycle || t.loading[e.seq] || t.failed[e.seq] != nil {
		return
	}
	if _, ok := t.cache.get(e.seq); ok {
		return // kept, and now marked used
	}
	t.loading[e.seq] = true
	t.want = append(t.want, e.seq)
}

// eventsLoadedMsg carries events read back from the recording by a load Cmd; errs holds
// the Seqs that could not be read.
type eventsLoadedMsg struct {
	events []mcpclient.Event
	errs   map[uint64]error
}

// loadCmd reads the events asked for since the last call, in one Cmd (file reads never
// run in Update).
func (t *timeline) loadCmd() tea.Cmd {
	if len(t.want) == 0 {
		return nil
	}
	seqs, load := t.want, t.load
	t.want = nil
	return func() tea.Msg {
		msg := eventsLoadedMsg{}
		for _, s := range seqs {
			ev, err := load(s)
			if err != nil {
				if msg.errs == nil {
					msg.errs = map[uint64]error{}
				}
				msg.errs[s] = err
				continue
			}
			ev.Seq = s
			msg.events = append(msg.events, ev)
		}
		return msg
	}
}

// loaded files events read back into the cache. A Seq that could not be read is kept
// with its error (failed), so it is not asked for again and again.
func (t *timeline) loaded(msg eventsLoadedMsg) {
	if t.load == nil {
		return
	}
	for _, ev := range msg.events {
		delete(t.loading, ev.Seq)
		t.cache.put(ev)
	}
	for s, err := range msg.errs {
		delete(t.loading, s)
		if len(t.failed) >= failedKeep {
			clear(t.failed) // a trace with that many bad lines: ask again later
		}
		t.failed[s] = err
	}
}

// failedKeep bounds the remembered load failures.
const failedKeep = 4096

// cacheEvents and cacheBytes bound the loaded-event cache: a screen of rows and the
// selected frames, whatever their size (the newest entry is always kept).
const (
	cacheEvents = 512
	cacheBytes  = 64 << 20
)

// eventCache is a small LRU of loaded events, bounded in count and in bytes.
type eventCache struct {
	max   int
	bytes int64
	limit int64
	ll    *list.List
	m     map[uint64]*list.Element
}

func newEventCache(maxEvents int, limit int64) *eventCache {
	return &eventCache{max: maxEvents, limit: limit, ll: list.New(), m: map[uint64]*list.Element{}}
}

// get returns a cached event and marks it used.
func (c *eventCache) get(seq uint64) (mcpclient.Event, bool) {
	el, ok := c.m[seq]
	if !ok {
		return mcpclient.Event{}, false
	}
	c.ll.MoveToFront(el)
	return el.Value.(mcpclient.Event), true
}

// peek returns a cached event without marking it used.
func (c *eventCache) peek(seq uint64) (mcpclient.Event, bool) {
	el, ok := c.m[seq]
	if !ok {
		return mcpclient.Event{}, false
	}
	return el.Value.(mcpclient.Event), true
}

// put adds an event, dropping the least recently used beyond the bounds.
func (c *eventCache) put(ev mcpclient.Event) {
	if el, ok := c.m[ev.Seq]; ok {
		c.bytes -= int64(len(el.Value.(mcpclient.Event).Raw))
		c.ll.Remove(el)
	}
	c.m[ev.Seq] = c.ll.PushFront(ev)
	c.bytes += int64(len(ev.Raw))
	for c.ll.Len() > 1 && (c.ll.Len() > c.max || c.bytes > c.limit) {
		old := c.ll.Back()
		o := old.Value.(mcpclient.Event)
		c.bytes -= int64(len(o.Raw))
		delete(c.m, o.Seq)
		c.ll.Remove(old)
	}
}
