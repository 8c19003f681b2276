package tap

// Fault injection: `tap --inject 'FILTER => ACTION'`. A rule's FILTER is the wire filter
// language (internal/wirefilter), matched against each JSON-RPC frame the tap forwards,
// both ways; the first rule that matches a frame acts on it, and the rest of the frames
// pass as they came. With no rules the forward path is unchanged (bytes as they arrive);
// with rules a stdio tap forwards whole lines, as it must see a frame whole to match it.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/internal/suggest"
	"github.com/mcp-inspect/mcp-inspect/internal/wirefilter"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	mcpsession "github.com/mcp-inspect/mcp-inspect/session"
)

// ActionKind names what a rule does to a matching frame.
type ActionKind uint8

const (
	// ActDrop forwards nothing: the receiver never sees the frame.
	ActDrop ActionKind = iota + 1
	// ActDelay forwards the frame Action.Delay later; frames behind it in the same
	// direction wait too, so the order is kept.
	ActDelay
	// ActError answers a request with a JSON-RPC error (Action.Code, Action.Message) in
	// place of the receiver; a response is replaced by an error response with its id.
	ActError
	// ActReplace forwards Action.JSON (validated, compacted) in place of the frame.
	ActReplace
	// ActTruncate forwards the frame's first Action.N bytes, then its line ending.
	ActTruncate
	// ActCorrupt forwards the frame with its first byte that is not white space replaced
	// by '!': same length, never valid JSON.
	ActCorrupt
)

// actionNames are the action words, in the order the help lists them.
func actionNames() []string {
	return []string{"drop", "delay", "error", "replace", "truncate", "corrupt"}
}

// Action is a rule's ACTION, parsed.
type Action struct {
	Kind ActionKind
	// Delay is ActDelay's duration.
	Delay time.Duration
	// Code and Message are ActError's JSON-RPC error.
	Code    int64
	Message string
	// JSON is ActReplace's message, compact, without a line ending.
	JSON []byte
	// N is ActTruncate's length in bytes.
	N int
}

// Rule is one --inject rule: which frames (Filter) and what is done to them (Action).
type Rule struct {
	// Src is the rule as given.
	Src    string
	Filter wirefilter.Filter
	Action Action
}

// InjectExample is a rule that parses, for messages and help.
const InjectExample = `--inject 'method:tools/call => delay 2s'`

// RuleError is a rule that does not parse: Col is the 1-based column (in runes) of the
// offending text in the rule.
type RuleError struct {
	Rule string
	Col  int
	Msg  string
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("--inject %q: column %d: %s (example: %s)", e.Rule, e.Col, e.Msg, InjectExample)
}

// ParseRule parses "FILTER => ACTION". ACTION is one of: drop; delay DURATION (a Go
// duration: 2s, 150ms); error CODE MESSAGE (an integer code, the rest of the rule the
// message); replace JSON (one JSON value); truncate N (bytes, N >= 0); corrupt. Errors are
// *RuleError.
func ParseRule(src string) (Rule, error) {
	fail := func(col int, format string, args ...any) (Rule, error) {
		return Rule{}, &RuleError{Rule: src, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	at := arrowAt(src)
	if at < 0 {
		return fail(utf8.RuneCountInString(src)+1, `no "=>" between the filter and the action`)
	}
	fsrc, asrc := src[:at], src[at+2:]
	if strings.TrimSpace(fsrc) == "" {
		return fail(1, "the filter before => is empty: say which messages, e.g. method:tools/call or dir:in kind:response")
	}
	f, err := wirefilter.Parse(fsrc)
	if err != nil {
		var se *wirefilter.SyntaxError
		if errors.As(err, &se) {
			return fail(se.Col, "filter: %s", se.Msg)
		}
		return fail(1, "filter: %v", err)
	}
	// Columns in the action count from the rule's start.
	base := utf8.RuneCountInString(src[:at+2])
	trimmed := strings.TrimLeft(asrc, " \t")
	col := base + utf8.RuneCountInString(asrc[:len(asrc)-len(trimmed)]) + 1
	word, rest, _ := strings.Cut(trimmed, " ")
	rest = strings.TrimSpace(rest)
	restCol := col + utf8.RuneCountInString(word) + 1
	if word == "" {
		return fail(col, "the action after => is missing: one of drop, delay DURATION, error CODE MESSAGE, replace JSON, truncate N, corrupt")
	}
	a := Action{}
	noArg := func() error {
		if rest != "" {
			return &RuleError{Rule: src, Col: restCol, Msg: fmt.Sprintf("%s takes nothing after it, got %q", word, rest)}
		}
		return nil
	}
	switch strings.ToLower(word) {
	case "drop":
		a.Kind = ActDrop
		if err := noArg(); err != nil {
			return Rule{}, err
		}
	case "corrupt":
		a.Kind = ActCorrupt
		if err := noArg(); err != nil {
			return Rule{}, err
		}
	case "delay":
		a.Kind = ActDelay
		d, err := time.ParseDuration(rest)
		if err != nil || d <= 0 {
			return fail(restCol, "delay needs a positive duration such as 2s or 150ms, got %q", rest)
		}
		a.Delay = d
	case "error":
		a.Kind = ActError
		code, msg, _ := strings.Cut(rest, " ")
		n, err := strconv.ParseInt(code, 10, 64)
		if err != nil {
			return fail(restCol, "error needs an integer code and a message, such as: error -32000 tool unavailable; got %q", rest)
		}
		msg = strings.TrimSpace(msg)
		if msg == "" {
			return fail(restCol+utf8.RuneCountInString(code)+1, "error %s needs a message after the code", code)
		}
		a.Code, a.Message = n, msg
	case "replace":
		a.Kind = ActReplace
		if rest == "" || !json.Valid([]byte(rest)) {
			return fail(restCol, "replace needs one JSON value (the whole message), such as: replace {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\"}; got %q", rest)
		}
		a.JSON = []byte(jsontext.Compact([]byte(rest)))
	case "truncate":
		a.Kind = ActTruncate
		n, err := strconv.Atoi(rest)
		if err != nil || n < 0 {
			return fail(restCol, "truncate needs a byte count N >= 0, got %q", rest)
		}
		a.N = n
	default:
		msg := fmt.Sprintf("unknown action %q", word)
		if near := suggest.Nearest(strings.ToLower(word), actionNames()); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		return fail(col, "%s; actions: drop, delay DURATION, error CODE MESSAGE, replace JSON, truncate N, corrupt", msg)
	}
	return Rule{Src: src, Filter: f, Action: a}, nil
}

// arrowAt is the byte index of the first "=>" outside a quoted filter value, -1 if none.
func arrowAt(s string) int {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && quoted:
			i++
		case s[i] == '"':
			quoted = !quoted
		case !quoted && s[i] == '=' && i+1 < len(s) && s[i+1] == '>':
			return i
		}
	}
	return -1
}

// short is the rule as the notes name it: "inject rule 2 (method:tools/call => drop)".
func (r *Rule) short(i int) string { return fmt.Sprintf("inject rule %d (%s)", i+1, r.Src) }

// injector applies the rules to frames. Both forward goroutines use it; what it keeps
// (the requests seen, to name the method and tool of a response) is under mu.
type injector struct {
	rules []Rule
	hits  []atomic.Int64
	start time.Time
	// holds holds what an attach's breakpoints match, after the rules (nil: the tap has no
	// attach socket, so no breakpoints).
	holds *holder
	// frames are match's frameEvs, reused (one matched through an interface escapes).
	frames sync.Pool

	mu   sync.Mutex
	pend [2]map[string]reqInfo // requests by compact id: [0] sent by the host, [1] by the server
	// pendN is len(pend[i]), read by the sieve without mu.
	pendN [2]atomic.Int32
	// recent keeps what the sieve let by per side, to name responses to it.
	recent *[2]recentFrames
	// plan is the sieves of the rules and breakpoints in force (sievePlan).
	plan atomic.Pointer[sievePlan]
}

// reqInfo is what a response's filter terms read of the request it answers.
type reqInfo struct{ method, tool string }

// maxPending bounds the requests remembered per direction (never answered ones pile up).
const maxPending = 4096

// newInjector makes the injector of the rules, and of breakpoints when breakable (the tap
// publishes an attach socket); nil when there can be neither. note records a lifecycle
// note at once (a hold's).
func newInjector(rules []Rule, start time.Time, breakable bool, note func(mcpclient.LifeInfo)) *injector {
	if len(rules) == 0 && !breakable {
		return nil
	}
	in := &injector{rules: rules, hits: make([]atomic.Int64, len(rules)), start: start,
		pend: [2]map[string]reqInfo{{}, {}}, recent: new([2]recentFrames)}
	if breakable {
		in.holds = newHolder()
		in.holds.note = note
	}
	return in
}

// active reports whether a frame may be acted on now: there are rules, or breakpoints set.
// Without, the forward paths pass frames on as they come.
func (in *injector) active() bool {
	return in != nil && (len(in.rules) > 0 || (in.holds != nil && in.holds.on()))
}

// holding reports whether breakpoints are set (a frame may be held).
func (in *injector) holding() bool { return in != nil && in.holds != nil && in.holds.on() }

// endHolds releases what is held, unchanged, and holds nothing more (the session ends).
func (in *injector) endHolds() {
	if in != nil && in.holds != nil {
		in.holds.end()
	}
}

// outcome is what a rule did to a frame.
type outcome struct {
	// fwd goes on in the frame's direction instead of the frame (nil: nothing).
	fwd []byte
	// back goes to the frame's sender (an error answer to its request).
	back []byte
	// delay is waited before fwd is written.
	delay time.Duration
	// note is the lifecycle note; cond says injected, edited, dropped or delayed.
	note string
	cond mcpclient.NoteCond
	// same: fwd is the frame itself, unchanged (a hold released as it came).
	same bool
}

// Conditions of the injection notes (mcpclient.LifeInfo.Cond), for code that reads traces.
const (
	// NoteInjected: the tap wrote a message no side sent (an error answer). The same
	// condition as a hold's answer (session.HoldCondInjected), and so on below.
	NoteInjected = mcpsession.HoldCondInjected
	// NoteEdited: the frame was forwarded changed (replaced, truncated, corrupted); the
	// trace has the original, then what was forwarded.
	NoteEdited = mcpsession.HoldCondEdited
	// NoteDropped: the frame was not forwarded.
	NoteDropped = mcpsession.HoldCondDropped
	// NoteDelayed: the frame was forwarded unchanged, later.
	NoteDelayed mcpclient.NoteCond = "delayed"
	// NoteUnmatched: a rule matched no message in the whole session.
	NoteUnmatched mcpclient.NoteCond = "unmatched"
)

// match finds the first rule matching the frame msg (without its line ending) going dir,
// and applies it; eol is the frame's line ending, kept on what is forwarded. ok is false
// when no rule matches (the frame passes unchanged).
func (in *injector) match(dir mcpclient.Direction, msg, eol []byte) (out outcome, ok bool) {
	if !in.active() || in.sieved(dir, msg) {
		return outcome{}, false
	}
	// The frame is matched through an interface, so it would escape: frames come from a
	// pool instead of one allocation each.
	ev, _ := in.frames.Get().(*frameEv)
	if ev == nil {
		ev = new(frameEv)
	}
	*ev = frameEv{in: in, dir: dir, raw: msg}
	defer func() {
		*ev = frameEv{}
		in.frames.Put(ev)
	}()
	ev.parse()
	in.remember(ev)
	for i := range in.rules {
		r := &in.rules[i]
		if r.Filter.Match(ev) {
			in.hits[i].Add(1)
			out = in.apply(i, ev, eol)
			in.sentInstead(ev, out)
			return out, true
		}
	}
	// A frame no rule took may be held at a breakpoint.
	if in.holds != nil && in.holds.on() {
		if out, ok = in.holds.hold(ev, eol); ok {
			in.sentInstead(ev, out)
		}
		return out, ok
	}
	return outcome{}, false
}

// sentInstead makes the remembered requests what the receiver got, before it gets it: a
// request dropped, answered in the receiver's place or replaced is forgotten, and a request
// that goes on in its place (the attach's edit, a rule's JSON) is remembered, so that its
// response is matched and named by the request it answers, not the one the sender wrote.
// Only one that keeps the id of the request it replaces is: a new id may be that of a
// request still pending which the sieve let by unremembered, whose answer would then be
// taken for the edit's; an answer to a new id is one to an unknown request.
func (in *injector) sentInstead(ev *frameEv, out outcome) {
	body, _ := splitEOL(out.fwd)
	if out.same || (out.fwd != nil && bytes.Equal(body, ev.raw)) {
		return // forwarded unchanged (perhaps late)
	}
	var sent frameEv
	if out.fwd != nil {
		sent = frameEv{in: in, dir: ev.dir, raw: body}
		sent.parse()
	}
	if ev.kind != mcpclient.KindRequest && sent.kind != mcpclient.KindRequest {
		return
	}
	side := sideOf(ev.dir)
	in.mu.Lock()
	defer in.mu.Unlock()
	m := in.pend[side]
	if ev.kind == mcpclient.KindRequest && ev.id != "" {
		delete(m, ev.id)
	}
	if sent.kind == mcpclient.KindRequest && sent.id != "" && sent.id == ev.id {
		if len(m) >= maxPending {
			clear(m)
		}
		m[sent.id] = reqInfo{sent.method, sent.tool}
	}
	in.pendN[side].Store(int32(len(m)))
}

// remember keeps a request's method and tool for its response, and forgets a request once
// answered.
func (in *injector) remember(ev *frameEv) {
	if ev.id == "" {
		return
	}
	side := sideOf(ev.dir)
	in.mu.Lock()
	defer in.mu.Unlock()
	switch ev.kind {
	case mcpclient.KindRequest:
		m := in.pend[side]
		if len(m) >= maxPending {
			clear(m)
		}
		m[ev.id] = reqInfo{ev.method, ev.tool}
		in.pendN[side].Store(int32(len(m)))
	case mcpclient.KindResponse, mcpclient.KindErrorResponse:
		m := in.pend[1-side]
		if r, ok := m[ev.id]; ok {
			ev.method, ev.tool = r.method, r.tool
			delete(m, ev.id)
			in.pendN[1-side].Store(int32(len(m)))
		}
	}
}

// apply makes rule i's outcome for ev.
func (in *injector) apply(i int, ev *frameEv, eol []byte) outcome {
	r := &in.rules[i]
	what := ev.describe()
	who := r.short(i)
	line := func(b []byte) []byte { return append(append(make([]byte, 0, len(b)+len(eol)), b...), eol...) }
	switch a := r.Action; a.Kind {
	case ActDrop:
		return outcome{note: fmt.Sprintf("%s: dropped %s", who, what), cond: NoteDropped}
	case ActDelay:
		return outcome{fwd: line(ev.raw), delay: a.Delay, note: fmt.Sprintf("%s: delayed %s by %s", who, what, a.Delay), cond: NoteDelayed}
	case ActError:
		errMsg := errorResponse(ev.idRaw, a.Code, a.Message)
		switch ev.kind {
		case mcpclient.KindRequest:
			return outcome{back: line(errMsg), note: fmt.Sprintf("%s: answered %s with error %d in the receiver's place; not forwarded", who, what, a.Code), cond: NoteInjected}
		case mcpclient.KindResponse, mcpclient.KindErrorResponse:
			return outcome{fwd: line(errMsg), note: fmt.Sprintf("%s: replaced %s with error %d", who, what, a.Code), cond: NoteEdited}
		}
		return outcome{fwd: line(ev.raw), note: fmt.Sprintf("%s: %s has no id to answer with an error: forwarded unchanged", who, what)}
	case ActReplace:
		return outcome{fwd: line(a.JSON), note: fmt.Sprintf("%s: replaced %s with the rule's JSON", who, what), cond: NoteEdited}
	case ActTruncate:
		if a.N >= len(ev.raw) {
			return outcome{fwd: line(ev.raw), note: fmt.Sprintf("%s: %s is %d bytes, not longer than %d: forwarded unchanged", who, what, len(ev.raw), a.N)}
		}
		return outcome{fwd: line(ev.raw[:a.N]), note: fmt.Sprintf("%s: truncated %s from %d to %d bytes", who, what, len(ev.raw), a.N), cond: NoteEdited}
	case ActCorrupt:
		b := line(ev.raw)
		j := 0
		for j < len(ev.raw) && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		if j < len(ev.raw) {
			b[j] = '!'
		}
		return outcome{fwd: b, note: fmt.Sprintf("%s: corrupted %s (byte %d set to '!': not JSON)", who, what, j), cond: NoteEdited}
	}
	return outcome{fwd: line(ev.raw)}
}

// errorResponse is a JSON-RPC error response with the raw id (null when there is none).
func errorResponse(id []byte, code int64, message string) []byte {
	if len(id) == 0 {
		id = []byte("null")
	}
	m, _ := json.Marshal(message)
	b := make([]byte, 0, 64+len(id)+len(m))
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, code, 10)
	b = append(b, `,"message":`...)
	b = append(b, m...)
	return append(b, "}}"...)
}

// unmatched lists the rules that matched nothing, as notes.
func (in *injector) unmatched() []string {
	var out []string
	for i := range in.rules {
		if in.hits[i].Load() == 0 {
			out = append(out, in.rules[i].short(i)+" matched no message")
		}
	}
	return out
}

// summary is the note at the start that lists the rules.
func (in *injector) summary() string {
	parts := make([]string, len(in.rules))
	for i := range in.rules {
		parts[i] = fmt.Sprintf("%d: %s", i+1, in.rules[i].Src)
	}
	return "fault injection on: the first matching rule acts on a frame; rules " + strings.Join(parts, "; ")
}

// frameEv is one frame as the filter reads it.
type frameEv struct {
	in   *injector
	dir  mcpclient.Direction
	raw  []byte // without the line ending
	kind mcpclient.Kind

	idRaw        []byte
	id           string // compact
	method, tool string
}

var _ wirefilter.Event = (*frameEv)(nil)

// parse reads the frame's kind, id, method and tool (scanMessage).
func (e *frameEv) parse() { e.scanMessage() }

// describe names the frame for a note: `request id 3 (tools/call echo)`.
func (e *frameEv) describe() string {
	from := "the host"
	if e.dir == mcpclient.ServerToClient {
		from = "the server"
	}
	method, tool := e.method, e.tool
	if method == "" && e.id != "" && e.in != nil && (e.kind == mcpclient.KindResponse || e.kind == mcpclient.KindErrorResponse) {
		// Its request may have gone by unread (the sieve).
		method, tool, _ = e.in.recent[1-sideOf(e.dir)].recall(e.id)
	}
	return mcpsession.DescribeHeld(e.kind, e.id, method, tool, from)
}

func (e *frameEv) Dir() string {
	if e.dir == mcpclient.ClientToServer {
		return "out"
	}
	return "in"
}

func (e *frameEv) Kind() string {
	switch k := e.kind; k {
	case mcpclient.KindRequest, mcpclient.KindNotification, mcpclient.KindResponse, mcpclient.KindBatch:
		return k.String()
	case mcpclient.KindErrorResponse:
		return "error"
	}
	return "invalid"
}

func (e *frameEv) Method() string { return e.method }
func (e *frameEv) ID() string     { return e.id }

// Elapsed is read only by time: terms, so the clock is read only for them.
func (e *frameEv) Elapsed() time.Duration {
	if e.in == nil {
		return 0
	}
	return time.Since(e.in.start)
}

// HasProblem is true for a frame that is not a well-formed JSON-RPC message (the tap
// runs no other checks on the forward path).
func (e *frameEv) HasProblem() bool { return !e.kind.IsMessage() }

func (e *frameEv) Tool() string { return e.tool }

// ToolError reports a tools/call result with isError true.
func (e *frameEv) ToolError() bool {
	if e.kind != mcpclient.KindResponse || e.method != "tools/call" || !bytes.Contains(e.raw, []byte(`"isError"`)) {
		return false
	}
	var m struct {
		Result struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	return json.Unmarshal(e.raw, &m) == nil && m.Result.IsError
}

func (e *frameEv) Raw() ([]byte, bool) { return e.raw, true }
func (e *frameEv) Exchange() uint64    { return 0 }
