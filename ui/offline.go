package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// noResponseError is the outcome of a recorded tools/call the recording holds no answer to.
type noResponseError struct{}

func (noResponseError) Error() string {
	return "no response in the recording (the session ended, or the trace was cut, before the server answered)"
}

// offlineState derives, from a recorded timeline (mcp-inspect open), what a live session
// learns by asking: the handshake's answer, the listings and the tool calls. It turns the
// recorded responses into the same typed messages the live Session's commands produce
// (initializedMsg, toolsListedMsg, resourcesListedMsg, promptsListedMsg), so the panes draw
// them through one path, and it keeps every recorded tools/call as a browsable past call.
// It is nil on a live session.
type offlineState struct {
	// calls are the recorded tools/call requests in order, each with its outcome in a few
	// bytes; the selected one is read back from the recording and drawn as a callRun by
	// resultLines, like a live result.
	calls []pastCall
	// open maps a tools/call request's Seq to its call's index until the response comes.
	open map[uint64]int
	// tasks maps the id of a modern task that a tools/call created (a CreateTaskResult) to
	// its call and latest status until a recorded tasks/get answer or notifications/tasks
	// ends it. The server's exit moves it to deadTasks (by call), so the detail names the
	// response and the task as the live pane did.
	tasks     map[string]taskSeen
	deadTasks map[int]taskSeen
	// tools interns tool names (a million calls of one tool keep one string); toolIdx
	// finds them.
	tools   []string
	toolIdx map[string]uint32
	// heads caches the arguments drawn in the rows, by request Seq (read back from the
	// trace for the rows on screen).
	heads map[uint64]string

	// narrow lists the indexes of the calls of tool when the list is narrowed to it.
	narrow []int
	// cur is the selected call read back (curIdx is its index; nil until loaded).
	cur    *callRun
	curIdx int
	// discoverVersion maps a server/discover request's Seq to the protocol version its
	// _meta asked for, until the response comes.
	discoverVersion map[uint64]string
	// pages accumulates one paginated listing per method until its last page.
	pages map[string]*pageAcc
	// res and tmpls are the last complete resources/list and resources/templates/list
	// answers: one resourcesListedMsg carries both.
	res   []mcpclient.Resource
	tmpls []mcpclient.ResourceTemplate
	// resWarn and tmplWarn are the warnings of the last complete listing of each.
	resWarn, tmplWarn []string
	// handshake is set once an initialize or server/discover answer was applied.
	handshake bool

	// rounds maps a call that took more than one round (MCP 2026-07-28 basic/patterns/mrtr:
	// answered input_required, then sent again with inputResponses) to the Seqs of its
	// input_required responses in order. Few calls have rounds, so pastCall stays 24 bytes.
	rounds map[int][]uint64
	// asking maps a call whose latest round asked for input (roundKey: its tool and the
	// requestState to echo) to its index until the next round's request comes.
	asking map[string]int
	// ended maps the request Seq of a call that ended without its response (cancelled,
	// timed out, the server exited) to the call, so a response recorded later is noted as
	// late (in late, by call index: the response's Seq), not taken as the result.
	ended map[uint64]int
	late  map[int]uint64
	// lostLines counts the trace lines mcp-inspect open could not read (LostLinesCode
	// notes): the Call pane says a call may have been on one.
	lostLines int
	// client is the client the recording shows (the initialize request's clientInfo and
	// capabilities, or a modern request's _meta): offline and attached, the Server pane
	// shows it instead of what this mcp-inspect would offer.
	client      *seenClient
	clientTries int
	// closing is set by a LifeShutdown event (the session closed the server) until the
	// next start: the exit that follows ends the session, not the calls still open.
	closing bool

	// The Call pane's list of past calls: the tool it is narrowed to ("" = all), the
	// selected row, the list's first row and the detail's scroll offset.
	tool     string
	sel, top int
	off      int
}

// taskSeen is a modern task a recorded call created: its id, the call's index, its latest
// status and the Seq of the CreateTaskResult that answered the call.
type taskSeen struct {
	id, status string
	call       int
	created    uint64
}

// seenClient is the recorded client: "name version" and its capabilities (JSON).
type seenClient struct {
	info string
	caps json.RawMessage
}

// clientTries bounds how many requests are read for the client's identity: a recording
// without it (cut before the handshake) does not pay a second decode on every request.
const clientTries = 16

// recordedClient reads who the client is from a request's params: the initialize
// request's clientInfo and capabilities (legacy), or the _meta every modern request
// carries (MCP 2026-07-28); nil when they hold neither.
func recordedClient(params json.RawMessage) *seenClient {
	var p struct {
		ClientInfo   *mcpclient.Implementation  `json:"clientInfo"`
		Capabilities json.RawMessage            `json:"capabilities"`
		Meta         map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	info, caps := p.ClientInfo, p.Capabilities
	if info == nil {
		var mi mcpclient.Implementation
		if json.Unmarshal(p.Meta[mcpclient.MetaClientInfo], &mi) != nil {
			return nil
		}
		info, caps = &mi, p.Meta[mcpclient.MetaClientCapabilities]
	}
	c := &seenClient{info: strings.TrimSpace(info.Name + " " + info.Version)}
	var b bytes.Buffer
	if json.Compact(&b, caps) == nil {
		c.caps = b.Bytes()
	}
	return c
}

// seenClientLines stand, on the Server pane of a recorded or attached session, for what
// this mcp-inspect would offer: the client the events show (the host, attached), whose
// roots and ping are not ours to change or send.
func (m *Model) seenClientLines(w int) []string {
	st := m.c.st
	title := "client (as recorded)"
	if m.attached() {
		title = "client (the host, seen through the tap: read-only)"
	}
	out := []string{"", st.Title.Render(title)}
	c := m.offline.client
	if c == nil {
		return append(out, st.Muted.Render("  no initialize request or client _meta seen"))
	}
	out = append(out, wrap("  name: "+clean(c.info), w)...)
	caps := "(none)"
	if len(c.caps) > 0 {
		caps = string(c.caps)
	}
	return append(out, wrap("  capabilities: "+clean(caps), w)...)
}

// pageAcc is a listing in progress: the items of the pages so far and their warnings.
type pageAcc struct {
	items    []json.RawMessage
	warnings []string
}

// pastCall is a recorded tools/call as the Call tab lists it, in 24 bytes: where its
// request and response are in the timeline (their times, the error code and the
// arguments are read from there), its tool and its outcome. For a call that ran as a
// modern task (outcome has outcomeViaTask) respSeq is the latest recorded state of the
// task: the CreateTaskResult, then each tasks/get answer or notifications/tasks about it.
type pastCall struct {
	reqSeq, respSeq uint64
	tool            uint32 // index into offlineState.tools
	outcome         uint8
}

// Outcomes of a past call (callOutcome's words).
const (
	outcomeNone uint8 = iota
	outcomeOK
	outcomeIsError
	outcomeRPCError
	outcomeBadResult
	outcomeTaskFailed
	outcomeTaskCancelled
	// outcomeTaskUnfinished: the recording holds no terminal state of the task.
	outcomeTaskUnfinished
	// outcomeInputAsked: the latest round was answered input_required and the recording
	// holds no next round (respSeq is that answer).
	outcomeInputAsked
	// outcomeCancelled and outcomeTimedOut: the client sent notifications/cancelled
	// (respSeq is it; "timed out" is its reason when the timeout gave up).
	outcomeCancelled
	outcomeTimedOut
	// outcomeServerExited: the server exited while the call (or its task) was pending
	// (respSeq is the lifecycle event).
	outcomeServerExited

	// outcomeViaTask is or'ed into the outcome of a call answered with a CreateTaskResult
	// (ext-tasks §Polymorphic Results): its result is the task's, not the response's.
	outcomeViaTask uint8 = 0x80
)

// argsHead is how much of a past call's arguments its row draws.
const argsHead = 160

func newOfflineState() *offlineState {
	return &offlineState{open: map[uint64]int{}, tasks: map[string]taskSeen{}, toolIdx: map[string]uint32{}, heads: map[uint64]string{}, discoverVersion: map[uint64]string{}, pages: map[string]*pageAcc{},
		rounds: map[int][]uint64{}, asking: map[string]int{}, ended: map[uint64]int{}, late: map[int]uint64{}, deadTasks: map[int]taskSeen{}, curIdx: -1}
}

// observe follows one recorded event and returns the messages it stands for (a finished
// handshake or listing), for Update to apply as if a Session command had returned them.
func (o *offlineState) observe(ev *mcpclient.Event) []tea.Msg {
	if ev.Kind == mcpclient.KindLifecycle && ev.Life != nil {
		o.lifecycle(ev)
		return nil
	}
	if ev.Msg == nil {
		return nil
	}
	switch {
	case ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindRequest:
		o.request(ev)
		return nil
	case ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindNotification && ev.Msg.Method == "notifications/cancelled":
		o.cancelled(ev)
		return nil
	case ev.Dir == mcpclient.ServerToClient && (ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse) && ev.Pair != 0:
		return o.response(ev)
	case ev.Dir == mcpclient.ServerToClient && ev.Kind == mcpclient.KindNotification:
		if t, ok := mcpclient.ParseTaskNotification(ev.Msg); ok {
			o.taskState(t, ev.Seq)
		}
	}
	return nil
}

// lifecycle follows the server's process: an exit the session did not ask for fails the
// calls still waiting for their answer (and the tasks still running), as the live
// session failed them then; a response recorded after it is late, not their result.
func (o *offlineState) lifecycle(ev *mcpclient.Event) {
	switch ev.Life.Kind {
	case mcpclient.LifeShutdown:
		o.closing = true
	case mcpclient.LifeStarted:
		o.closing = false
	case mcpclient.LifeExited:
		if o.closing {
			return
		}
		for seq, k := range o.open {
			delete(o.open, seq)
			o.end(k, seq, ev.Seq, outcomeServerExited)
		}
		for id, ts := range o.tasks {
			delete(o.tasks, id)
			o.end(ts.call, 0, ev.Seq, outcomeViaTask|outcomeServerExited)
			o.deadTasks[ts.call] = ts
		}
	}
}

// cancelled ends the call a notifications/cancelled from the client names (the pairer
// links it to the request: Pair).
func (o *offlineState) cancelled(ev *mcpclient.Event) {
	k, ok := o.open[ev.Pair]
	if !ok || ev.Pair == 0 {
		return
	}
	delete(o.open, ev.Pair)
	var p struct {
		Reason string `json:"reason"`
	}
	_ = json.Unmarshal(ev.Msg.Params, &p)
	outcome := outcomeCancelled
	if strings.HasPrefix(p.Reason, "timed out") {
		outcome = outcomeTimedOut
	}
	o.end(k, ev.Pair, ev.Seq, outcome)
}

// end ends call k without its response at the event at seq; reqSeq (0 for a task) is the
// request a later response would pair with.
func (o *offlineState) end(k int, reqSeq, seq uint64, outcome uint8) {
	c := &o.calls[k]
	c.respSeq, c.outcome = seq, outcome
	if reqSeq != 0 {
		o.ended[reqSeq] = k
	}
	if o.curIdx == k {
		o.cur, o.curIdx = nil, -1
	}
}

// taskState applies a recorded state of a modern task (a tasks/get answer or
// notifications/tasks, in event seq) to the call that created it: the call's outcome
// becomes the task's once it is terminal, as the live Call pane shows it.
func (o *offlineState) taskState(t *mcpclient.Task, seq uint64) {
	ts, ok := o.tasks[t.TaskID]
	if !ok {
		return
	}
	k := ts.call
	c := &o.calls[k]
	c.respSeq = seq
	if t.Terminal() {
		delete(o.tasks, t.TaskID)
		c.outcome = outcomeViaTask | taskOutcome(t)
	} else {
		ts.status = t.Status
		o.tasks[t.TaskID] = ts
	}
	if o.curIdx == k {
		o.cur, o.curIdx = nil, -1
	}
}

// taskOutcome is a terminal task's end as a past call's outcome.
func taskOutcome(t *mcpclient.Task) uint8 {
	res, err := t.Outcome()
	var cancelled *mcpclient.TaskCancelledError
	switch {
	case errors.As(err, &cancelled):
		return outcomeTaskCancelled
	case err != nil:
		return outcomeTaskFailed
	}
	return resultOutcome(res)
}

// resultOutcome is the outcome of a CallToolResult: ok, isError, or not one.
func resultOutcome(result json.RawMessage) uint8 {
	// The shape that matters for the row; the detail reads the whole CallToolResult.
	var res struct {
		Content []json.RawMessage `json:"content"`
		IsError bool              `json:"isError"`
	}
	switch {
	case json.Unmarshal(result, &res) != nil:
		return outcomeBadResult
	case res.IsError:
		return outcomeIsError
	}
	return outcomeOK
}

// request notes the requests whose answers need something of the request: the
// arguments of a tools/call, the version a server/discover asked for.
func (o *offlineState) request(ev *mcpclient.Event) {
	if o.client == nil && o.clientTries < clientTries {
		o.clientTries++
		o.client = recordedClient(ev.Msg.Params)
	}
	switch ev.Msg.Method {
	case "tools/call":
		var p struct {
			Name           string          `json:"name"`
			InputResponses json.RawMessage `json:"inputResponses"`
			RequestState   json.RawMessage `json:"requestState"`
		}
		_ = json.Unmarshal(ev.Msg.Params, &p)
		ti, ok := o.toolIdx[p.Name]
		if !ok {
			ti = uint32(len(o.tools))
			o.tools = append(o.tools, p.Name)
			o.toolIdx[p.Name] = ti
		}
		if len(p.InputResponses) > 0 {
			// The next round of a call that asked for input: the same call, not a new one.
			if k, ok := o.nextRound(ti, p.RequestState); ok {
				o.open[ev.Seq] = k
				if o.curIdx == k {
					o.cur, o.curIdx = nil, -1
				}
				return
			}
		}
		name := o.tools[ti]
		o.calls = append(o.calls, pastCall{reqSeq: ev.Seq, tool: ti})
		o.open[ev.Seq] = len(o.calls) - 1
		if o.tool != "" && name == o.tool {
			o.narrow = append(o.narrow, len(o.calls)-1)
		}
	case "server/discover":
		var p struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		_ = json.Unmarshal(ev.Msg.Params, &p)
		var v string
		_ = json.Unmarshal(p.Meta[mcpclient.MetaProtocolVersion], &v)
		o.discoverVersion[ev.Seq] = v
	}
}

// roundKey names a call waiting for its next round: its tool and the requestState the
// next request echoes (compacted, as the client re-encodes it).
func roundKey(tool uint32, state json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, state) != nil {
		b.Reset()
		b.Write(state)
	}
	return strconv.FormatUint(uint64(tool), 10) + "\x00" + b.String()
}

// nextRound finds the call a request with inputResponses continues: the one whose
// input_required answer gave this requestState, else the one of the same tool.
func (o *offlineState) nextRound(tool uint32, state json.RawMessage) (int, bool) {
	key := roundKey(tool, state)
	k, ok := o.asking[key]
	if !ok {
		prefix := strconv.FormatUint(uint64(tool), 10) + "\x00"
		for ak, ak2 := range o.asking {
			if strings.HasPrefix(ak, prefix) && (!ok || ak2 > k) {
				key, k, ok = ak, ak2, true
			}
		}
	}
	if ok {
		delete(o.asking, key)
	}
	return k, ok
}

// response applies a recorded response to the request it answers.
func (o *offlineState) response(ev *mcpclient.Event) []tea.Msg {
	if oc, ok := o.open[ev.Pair]; ok {
		delete(o.open, ev.Pair)
		o.answered(oc, ev)
		return nil
	}
	if k, ok := o.ended[ev.Pair]; ok {
		// After the cancel or the exit: the live session did not use it either.
		delete(o.ended, ev.Pair)
		o.late[k] = ev.Seq
		if o.curIdx == k {
			o.cur, o.curIdx = nil, -1
		}
		return nil
	}
	if ev.Method == "tasks/get" && ev.Msg.Error == nil {
		var t mcpclient.Task
		if json.Unmarshal(ev.Msg.Result, &t) == nil && t.TaskID != "" {
			o.taskState(&t, ev.Seq)
		}
		return nil
	}
	var rpcErr error
	if ev.Msg.Error != nil {
		rpcErr = ev.Msg.Error
	}
	switch ev.Method {
	case "initialize":
		if rpcErr != nil {
			if o.handshake {
				return nil
			}
			return []tea.Msg{initializedMsg{err: rpcErr}}
		}
		res, err := recordedInitialize(ev.Msg.Result)
		o.handshake = true
		return []tea.Msg{initializedMsg{res: res, err: err}}
	case "server/discover":
		v := o.discoverVersion[ev.Pair]
		delete(o.discoverVersion, ev.Pair)
		if rpcErr != nil {
			// The auto probe of a legacy server fails here; initialize follows.
			return nil
		}
		res, err := recordedDiscover(ev.Msg.Result, v)
		o.handshake = true
		return []tea.Msg{initializedMsg{res: res, err: err}}
	case "tools/list":
		items, warns, err, done := o.page(ev, "tools")
		if !done {
			return nil
		}
		tools, warns := decodeItems[mcpclient.Tool](items, "tools/list", warns)
		return []tea.Msg{toolsListedMsg{tools: tools, warnings: warns, err: err}}
	case "resources/list", "resources/templates/list":
		arr := "resources"
		if ev.Method == "resources/templates/list" {
			arr = "resourceTemplates"
		}
		items, warns, err, done := o.page(ev, arr)
		if !done {
			return nil
		}
		msg := resourcesListedMsg{res: o.res, tmpls: o.tmpls}
		if arr == "resources" {
			msg.res, o.resWarn = decodeItems[mcpclient.Resource](items, ev.Method, warns)
			msg.err = err
			if err == nil {
				o.res = msg.res
			}
		} else {
			msg.tmpls, o.tmplWarn = decodeItems[mcpclient.ResourceTemplate](items, ev.Method, warns)
			msg.tmplErr = err
			if err == nil {
				o.tmpls = msg.tmpls
			}
		}
		msg.warnings = o.resWarn
		if arr != "resources" {
			msg.warnings = o.tmplWarn
		}
		return []tea.Msg{msg}
	case "prompts/list":
		items, warns, err, done := o.page(ev, "prompts")
		if !done {
			return nil
		}
		ps, warns := decodeItems[mcpclient.Prompt](items, "prompts/list", warns)
		return []tea.Msg{promptsListedMsg{prompts: ps, warnings: warns, err: err}}
	}
	return nil
}

// page adds one page of a listing (the array under key) and reports whether the listing
// is complete: a page without nextCursor, or an error, ends it (as mcpclient.ListAll does
// live; a listing cut by an error keeps the items of the pages before). A complete
// listing's warnings include mcpclient.DuplicateWarnings.
func (o *offlineState) page(ev *mcpclient.Event, key string) (items []json.RawMessage, warnings []string, err error, done bool) {
	acc := o.pages[ev.Method]
	if acc == nil {
		acc = &pageAcc{}
		o.pages[ev.Method] = acc
	}
	end := func(e error) ([]json.RawMessage, []string, error, bool) {
		delete(o.pages, ev.Method)
		return acc.items, acc.warnings, e, true
	}
	if ev.Msg.Error != nil {
		return end(ev.Msg.Error)
	}
	var res map[string]json.RawMessage
	if e := json.Unmarshal(ev.Msg.Result, &res); e != nil {
		return end(fmt.Errorf("%s result is not an object: %w", ev.Method, e))
	}
	if raw, ok := res[key]; ok {
		var pageItems []json.RawMessage
		if e := json.Unmarshal(raw, &pageItems); e != nil {
			return end(fmt.Errorf("%s result: %q is not an array: %w", ev.Method, key, e))
		}
		acc.items = append(acc.items, pageItems...)
	} else {
		acc.warnings = append(acc.warnings, fmt.Sprintf("%s result has no %q array", ev.Method, key))
	}
	var next string
	_ = json.Unmarshal(res["nextCursor"], &next)
	if next != "" && len(acc.items) < 1<<20 {
		return nil, nil, nil, false
	}
	// A complete listing warns of entries sharing a name (or URI), as ListAll does live.
	acc.warnings = append(acc.warnings, mcpclient.DuplicateWarnings(ev.Method, acc.items)...)
	return end(nil)
}

// decodeItems decodes listing items into T, skipping (with a warning) entries that do not
// fit, as the live client does.
func decodeItems[T any](raw []json.RawMessage, what string, warnings []string) ([]T, []string) {
	out := make([]T, 0, len(raw))
	for i, r := range raw {
		var v T
		if err := json.Unmarshal(r, &v); err != nil {
			warnings = append(warnings, fmt.Sprintf("%s entry %d could not be read: %v", what, i, err))
			continue
		}
		out = append(out, v)
	}
	return out, warnings
}

// recordedInitialize reads a recorded initialize result as mcpclient.Initialize does.
func recordedInitialize(result json.RawMessage) (*mcpclient.InitializeResult, error) {
	var res mcpclient.InitializeResult
	if err := json.Unmarshal(result, &res); err != nil {
		return nil, fmt.Errorf("initialize result is not an InitializeResult: %w", err)
	}
	res.Era = mcpclient.EraLegacy
	if len(res.Capabilities) > 0 {
		if err := json.Unmarshal(res.Capabilities, &res.Caps); err != nil {
			res.Warnings = append(res.Warnings, "capabilities could not be read: "+err.Error())
		}
	}
	if res.ProtocolVersion == "" {
		res.Warnings = append(res.Warnings, "server answered no protocolVersion")
	}
	return &res, nil
}

// recordedDiscover reads a recorded server/discover result as mcpclient's discover does;
// version is the protocol version the request asked for ("" when unknown: the newest
// version the server lists is shown).
func recordedDiscover(result json.RawMessage, version string) (*mcpclient.InitializeResult, error) {
	var d mcpclient.DiscoverResult
	if err := json.Unmarshal(result, &d); err != nil {
		return nil, fmt.Errorf("server/discover result is not a DiscoverResult: %w", err)
	}
	res := &mcpclient.InitializeResult{Capabilities: d.Capabilities, Instructions: d.Instructions, Era: mcpclient.EraModern, Discover: &d}
	if len(d.Capabilities) > 0 {
		if err := json.Unmarshal(d.Capabilities, &res.Caps); err != nil {
			res.Warnings = append(res.Warnings, "capabilities could not be read: "+err.Error())
		}
	}
	if raw, ok := d.Meta[mcpclient.MetaServerInfo]; ok {
		_ = json.Unmarshal(raw, &res.ServerInfo)
	}
	if version == "" {
		for _, v := range d.SupportedVersions {
			version = max(version, v)
		}
	}
	res.ProtocolVersion = version
	return res, nil
}

// answered notes a past call's response: where it is, the outcome and the time between
// the two events. The result itself is read again when the call is shown.
func (o *offlineState) answered(k int, ev *mcpclient.Event) {
	c := &o.calls[k]
	c.respSeq = ev.Seq
	switch {
	case ev.Msg.Error != nil:
		c.outcome = outcomeRPCError
	default:
		if bytes.Contains(ev.Msg.Result, []byte(`"input_required"`)) {
			if ir, ok := mcpclient.ParseInputRequired(ev.Msg.Result); ok {
				c.outcome = outcomeInputAsked
				if len(o.rounds[k]) < 4*mcpclient.MaxInputRounds {
					o.rounds[k] = append(o.rounds[k], ev.Seq)
				}
				o.asking[roundKey(c.tool, ir.RequestState)] = k
				break
			}
		}
		if t, ok, err := mcpclient.ParseCreateTask(ev.Msg.Result); ok && err == nil {
			c.outcome = outcomeViaTask | outcomeTaskUnfinished
			o.tasks[t.TaskID] = taskSeen{id: t.TaskID, status: t.Status, call: k, created: ev.Seq}
			if t.Terminal() { // a task may be created finished
				o.taskState(t, ev.Seq)
			}
			break
		}
		c.outcome = resultOutcome(ev.Msg.Result)
	}
	if o.curIdx == k {
		o.cur, o.curIdx = nil, -1
	}
}

// endCall fills recorded call k from the event that ended it: its response (finishCall),
// an input_required answer with no next round, the client's cancel or the server's exit.
func (o *offlineState) endCall(r *callRun, k int, ev *mcpclient.Event, outcome uint8) {
	switch outcome &^ outcomeViaTask {
	case outcomeInputAsked:
		r.elapsed = ev.Time.Sub(r.started)
		r.resp = &mcpclient.Response{Msg: ev.Msg, Seq: ev.Seq, RequestSeq: ev.Pair, Elapsed: r.elapsed}
		r.err = fmt.Errorf("the server asked for input (input_required: %s) and the recording holds no next round: the call has no result", askedOf(ev))
	case outcomeCancelled:
		r.elapsed = ev.Time.Sub(r.started)
		r.err = context.Canceled
	case outcomeTimedOut:
		r.elapsed = ev.Time.Sub(r.started)
		r.err = fmt.Errorf("timed out after %s: the client gave up and sent notifications/cancelled (#%d)", r.elapsed.Round(time.Millisecond), ev.Seq)
	case outcomeServerExited:
		r.elapsed = ev.Time.Sub(r.started)
		how := "server exited"
		if ev.Life != nil && ev.Life.Text != "" {
			how = ev.Life.Text
		}
		what := "request #" + strconv.FormatUint(r.reqSeq, 10) + " (tools/call " + r.tool + ") was pending"
		if outcome&outcomeViaTask != 0 {
			what = "the task request #" + strconv.FormatUint(r.reqSeq, 10) + " created was still running"
			if ts, ok := o.deadTasks[k]; ok && ts.id != "" {
				what = "task " + ts.id + " of tools/call " + r.tool + " (request #" + strconv.FormatUint(r.reqSeq, 10) + ") was still running"
				// The call was answered (the CreateTaskResult): say which response, and the
				// task as it last stood, as the live pane did.
				if ts.created != 0 {
					r.resp = &mcpclient.Response{Seq: ts.created, RequestSeq: r.reqSeq, Elapsed: r.elapsed}
				}
				r.task, r.viaTask = &mcpclient.Task{TaskID: ts.id, Status: ts.status}, true
			}
		}
		r.err = fmt.Errorf("%s (event #%d) while %s", how, ev.Seq, what)
	default:
		o.finishCall(r, ev, outcome&outcomeViaTask != 0)
	}
}

// askedOf lists the input requests of an input_required answer: "roots/list,
// sampling/createMessage" (the keys when a method is missing).
func askedOf(ev *mcpclient.Event) string {
	if ev.Msg == nil {
		return "?"
	}
	ir, ok := mcpclient.ParseInputRequired(ev.Msg.Result)
	if !ok || len(ir.Order) == 0 {
		return "no input requests"
	}
	var names []string
	for _, k := range ir.Order {
		m := ir.Requests[k].Method
		if m == "" {
			m = k
		}
		names = append(names, m)
	}
	return strings.Join(names, ", ")
}

// finishCall fills a recorded call from its response: the result, an isError result or
// the JSON-RPC error, and the time between the two events. For a call that ran as a task
// (viaTask), ev is the task's latest recorded state and the result is the task's.
func (o *offlineState) finishCall(r *callRun, ev *mcpclient.Event, viaTask bool) {
	r.elapsed = ev.Time.Sub(r.started)
	msg := *ev.Msg
	msg.Params = nil
	r.resp = &mcpclient.Response{Msg: &msg, Seq: ev.Seq, RequestSeq: ev.Pair, Elapsed: r.elapsed}
	r.err, r.res = nil, nil
	result := ev.Msg.Result
	if viaTask {
		var t mcpclient.Task
		state := ev.Msg.Result
		if ev.Msg.Method != "" { // notifications/tasks: the task is the params
			state = ev.Msg.Params
		}
		if err := json.Unmarshal(state, &t); err != nil {
			r.err = fmt.Errorf("the task's recorded state could not be read: %w", err)
			return
		}
		r.task, r.viaTask = &t, true
		r.resp.RequestSeq = r.reqSeq // the tools/call, not the tasks/get that ended it
		if !t.Terminal() {
			r.err = fmt.Errorf("task %s was still %s when the recording ended: no result was recorded", t.TaskID, t.Status)
			return
		}
		res, err := t.Outcome()
		if err != nil {
			r.err = err
			return
		}
		result = res
	} else if ev.Msg.Error != nil {
		r.err = ev.Msg.Error
		return
	}
	var res mcpclient.CallToolResult
	if err := json.Unmarshal(result, &res); err != nil {
		r.err = fmt.Errorf("tools/call result is not a CallToolResult: %w", err)
		return
	}
	r.res = &res
}

// attached reports whether the events come live from a running tap (mcp-inspect attach,
// read-only: the host is the client) rather than from a trace file (mcp-inspect open sets
// Options.FromTrace) or a Session of our own.
func (m *Model) attached() bool { return m.sess == nil && !m.server.recorded }

// notListed is what a pane says before the recording or the tap shows its listing.
func (m *Model) notListed(method string) string {
	if m.attached() {
		return "attached: the host has not sent " + method + " yet"
	}
	return "offline: no " + method + " recorded"
}

// offlineConnected stands for afterConnect on a recorded session: nothing is asked; the
// panes say what the recording holds until its listings arrive.
func (m *Model) offlineConnected() tea.Cmd {
	caps := m.caps()
	m.tools.status = m.notListed("tools/list")
	m.resources.status = m.notListed("resources/list")
	if caps.Resources == nil {
		m.resources.status = "the server offered no resources (no resources capability)"
	}
	m.resources.list.empty = m.resources.status
	m.prompts.status = m.notListed("prompts/list")
	if caps.Prompts == nil {
		m.prompts.status = "the server offered no prompts (no prompts capability)"
	}
	m.prompts.list.empty = m.prompts.status
	return nil
}

// LostLinesCode is the Problem code mcp-inspect open puts on the first event after trace
// lines it could not read (a corrupt or cut line): the Server pane lists the note among
// the trace's warnings and the recording reads as incomplete. The note's text starts with
// the number of lines lost ("2 trace lines …"), which the Call pane counts.
const LostLinesCode = "trace-lines-lost"

// lostCount is the number of lines a LostLinesCode note says were lost (1 when its text
// does not start with one).
func lostCount(text string) int {
	var n int
	if _, err := fmt.Sscanf(text, "%d", &n); err != nil || n < 1 {
		return 1
	}
	return n
}

// observeOffline derives state from one recorded event and applies what it stands for
// through the live update path.
func (m *Model) observeOffline(ev *mcpclient.Event) tea.Cmd {
	if m.offline == nil {
		return nil
	}
	for _, p := range ev.Problems {
		if p.Code == LostLinesCode {
			m.server.incomplete = true
			m.offline.lostLines += lostCount(p.Text)
			m.server.warnings = append(m.server.warnings, fmt.Sprintf("trace: before event #%d: %s", ev.Seq, p.Text))
		}
	}
	var cmds []tea.Cmd
	for _, msg := range m.offline.observe(ev) {
		_, cmd := m.update(msg)
		cmds = append(cmds, cmd)
		if _, ok := msg.(resourcesListedMsg); ok {
			// Live, one message carries both listings and their warnings; here each
			// listing's message carries its own (the Server pane gets each once) and the
			// pane shows both.
			m.resources.warnings = append(append([]string(nil), m.offline.resWarn...), m.offline.tmplWarn...)
		}
	}
	return tea.Batch(cmds...)
}

// shownLen is how many past calls the Call pane lists: all, or the narrowed tool's.
func (o *offlineState) shownLen() int {
	if o.tool == "" {
		return len(o.calls)
	}
	return len(o.narrow)
}

// shownAt is the index in calls of the k-th listed call.
func (o *offlineState) shownAt(k int) int {
	if o.tool == "" {
		return k
	}
	return o.narrow[k]
}

// showTool narrows the past calls to one tool and selects its latest call.
func (o *offlineState) showTool(name string) {
	o.tool = name
	o.narrow = nil
	for i := range o.calls {
		if o.tools[o.calls[i].tool] == name {
			o.narrow = append(o.narrow, i)
		}
	}
	o.sel = max(o.shownLen()-1, 0)
	o.top, o.off = 0, 0
}

// callKey handles the past-calls browser's keys: rows up and down, the detail scrolled,
// esc back to every tool's calls.
func (m *Model) offlineCallKey(msg tea.KeyPressMsg) bool {
	o := m.offline
	k := m.c.keys
	n := o.shownLen()
	page := max(m.lay.body.h/2, 1)
	switch {
	case key.Matches(msg, k.List.Up):
		o.sel, o.off = max(o.sel-1, 0), 0
	case key.Matches(msg, k.List.Down):
		o.sel, o.off = min(o.sel+1, max(n-1, 0)), 0
	case key.Matches(msg, k.List.Top):
		o.sel, o.off = 0, 0
	case key.Matches(msg, k.List.Bottom):
		o.sel, o.off = max(n-1, 0), 0
	case key.Matches(msg, k.List.PageDown), key.Matches(msg, k.Detail.DetailDown):
		o.off += page
	case key.Matches(msg, k.List.PageUp), key.Matches(msg, k.Detail.DetailUp):
		o.off = max(o.off-page, 0)
	case key.Matches(msg, k.Dialog.Dismiss) && o.tool != "":
		sel, ok := o.selected()
		o.tool, o.narrow = "", nil
		o.sel, o.off = 0, 0
		if ok {
			o.sel = sel
		}
	default:
		return false
	}
	return true
}

// selected is the index in calls of the selected past call; false when there is none.
func (o *offlineState) selected() (int, bool) {
	n := o.shownLen()
	if n == 0 {
		return 0, false
	}
	o.sel = min(max(o.sel, 0), n-1)
	return o.shownAt(o.sel), true
}

// listRows is how many rows the past-calls list takes in a pane h lines high, and scroll
// keeps the selection among them.
func (o *offlineState) listRows(h int) int { return min(o.shownLen(), max(h/3, 3)) }

func (o *offlineState) scroll(listH int) {
	if o.sel < o.top {
		o.top = o.sel
	}
	if o.sel >= o.top+listH {
		o.top = o.sel - listH + 1
	}
	o.top = clampScroll(o.top, o.shownLen(), listH)
}

// needShown asks the timeline for the selected call's request and response and for the
// requests of the rows on screen (the pane is h lines high), as the view will draw them.
func (o *offlineState) needShown(tl *timeline, h int) {
	k, ok := o.selected()
	if !ok {
		return
	}
	if c := &o.calls[k]; o.curIdx != k || o.cur == nil {
		seqs := append([]uint64{c.reqSeq, c.respSeq, o.late[k]}, o.rounds[k]...)
		for _, s := range seqs {
			if i, ok := tl.index(s); ok && s != 0 {
				tl.need(i)
			}
		}
	}
	// The requests of the rows on screen, for their arguments.
	listH := o.listRows(h)
	o.scroll(listH)
	for r := o.top; r < min(o.top+listH, o.shownLen()); r++ {
		c := &o.calls[o.shownAt(r)]
		if _, ok := o.heads[c.reqSeq]; !ok {
			if i, ok := tl.index(c.reqSeq); ok {
				tl.need(i)
			}
		}
	}
}

// run is the past call at index k as a callRun, read back from its request and response
// events; nil while they are still loading. The last one is kept.
func (o *offlineState) run(tl *timeline, k int) *callRun {
	if o.curIdx == k && o.cur != nil {
		return o.cur
	}
	c := &o.calls[k]
	i, ok := tl.index(c.reqSeq)
	if !ok {
		return nil
	}
	req, ok := tl.full(i)
	if !ok && tl.loadErr(c.reqSeq) == nil {
		return nil
	}
	r := &callRun{id: k + 1, tool: o.tools[c.tool], args: json.RawMessage("{}"), started: req.Time, reqSeq: c.reqSeq, done: true, err: noResponseError{}}
	if n := len(o.rounds[k]); n > 0 {
		// As the live Call pane: "took X over N rounds · request #first → response #final".
		if c.outcome != outcomeInputAsked {
			n++
		}
		r.rounds, r.firstSeq = n, c.reqSeq
	}
	if err := tl.loadErr(c.reqSeq); err != nil {
		r.err = fmt.Errorf("the request could not be read back from the trace: %w", err)
		o.cur, o.curIdx = r, k
		return r
	}
	if req.Msg != nil {
		var p struct {
			Arguments json.RawMessage `json:"arguments"`
		}
		if json.Unmarshal(req.Msg.Params, &p) == nil && len(p.Arguments) > 0 {
			r.args = p.Arguments
		}
	}
	if c.respSeq != 0 {
		j, ok := tl.index(c.respSeq)
		if !ok {
			return nil
		}
		resp, ok := tl.full(j)
		switch {
		case !ok && tl.loadErr(c.respSeq) != nil:
			r.err = fmt.Errorf("the response could not be read back from the trace: %w", tl.loadErr(c.respSeq))
		case !ok:
			return nil
		case resp.Msg == nil && resp.Life == nil:
			r.err = errors.New("the response could not be read back from the trace as a message")
		default:
			o.endCall(r, k, &resp, c.outcome)
		}
		if ok && resp.Kind.IsMessage() && resp.Dir == mcpclient.ServerToClient {
			r.respSeen, r.respProblems = true, resp.Problems
		}
	}
	o.cur, o.curIdx = r, k
	return r
}

// elapsed is the time between a past call's request and its response (0 without one).
func elapsedOf(tl *timeline, c *pastCall) time.Duration {
	i, ok1 := tl.index(c.reqSeq)
	j, ok2 := tl.index(c.respSeq)
	if !ok1 || !ok2 || c.respSeq == 0 {
		return 0
	}
	return tl.time(j).Sub(tl.time(i))
}

// argsOf is the head of a past call's arguments for its row, "…" until its request is
// read back.
func (o *offlineState) argsOf(tl *timeline, c *pastCall) string {
	if a, ok := o.heads[c.reqSeq]; ok {
		return a
	}
	i, ok := tl.index(c.reqSeq)
	if !ok {
		return ""
	}
	req, ok := tl.full(i)
	if !ok {
		return "…"
	}
	a := "{}"
	if req.Msg != nil {
		var p struct {
			Arguments json.RawMessage `json:"arguments"`
		}
		if json.Unmarshal(req.Msg.Params, &p) == nil && len(p.Arguments) > 0 {
			a = string(p.Arguments[:runeCut(p.Arguments, argsHead)])
		}
	}
	if len(o.heads) >= 512 {
		clear(o.heads)
	}
	o.heads[c.reqSeq] = a
	return a
}

// callOutcome is a past call's outcome in a few words, for its row.
func callOutcome(tl *timeline, c *pastCall) string {
	switch c.outcome {
	case outcomeViaTask | outcomeTaskFailed:
		return "task failed"
	case outcomeViaTask | outcomeTaskCancelled:
		return "task cancelled"
	case outcomeViaTask | outcomeTaskUnfinished:
		return "task running"
	case outcomeViaTask | outcomeOK:
		return "ok (task)"
	case outcomeViaTask | outcomeIsError:
		return "isError (task)"
	case outcomeViaTask | outcomeBadResult:
		return "bad result"
	case outcomeViaTask | outcomeServerExited, outcomeServerExited:
		return "server exited"
	case outcomeInputAsked:
		return "input asked"
	case outcomeCancelled:
		return "cancelled"
	case outcomeTimedOut:
		return "timed out"
	case outcomeNone:
		return "no response"
	case outcomeRPCError:
		return fmt.Sprintf("error %d", tl.codes[c.respSeq])
	case outcomeBadResult:
		return "bad result"
	case outcomeIsError:
		return "isError"
	}
	return "ok"
}

// offlineCallView is the Call tab of a recorded session: the past calls (of one tool
// after enter on it in Tools) above, the selected one below, drawn like a live result.
func (m *Model) offlineCallView(w, h int) string {
	o := m.offline
	st := m.c.st
	n := o.shownLen()
	calls, where, none := "recorded calls", "offline: recorded session", "no tools/call in the recording"
	if m.attached() {
		calls, where, none = "calls seen", "attached to the tap (read-only)", "no tools/call seen yet"
	}
	if o.lostLines > 0 {
		// A lost line may have held a call: say so rather than claim there was none.
		s := map[bool]string{true: "s"}[o.lostLines > 1]
		where = fmt.Sprintf("%d unreadable trace line%s", o.lostLines, s)
		none = fmt.Sprintf("no tools/call among the events read; %d trace line%s could not be read (a call may have been on one): 4 Server says where", o.lostLines, s)
	}
	title := fmt.Sprintf("%s (%d) · %s", calls, n, where)
	if o.tool != "" {
		title = fmt.Sprintf("%s of %s (%d) · esc: every tool's", calls, clean(o.tool), n)
	}
	lines := []string{st.Title.Render(fit(title, w))}
	if n == 0 {
		lines = append(lines, wrapStyled(st.Muted, none, w)...)
		return strings.Join(window(lines, 0, h, w), "\n")
	}
	sel, _ := o.selected()
	listH := o.listRows(h)
	o.scroll(listH)
	for i := o.top; i < n && i < o.top+listH; i++ {
		k := o.shownAt(i)
		c := &o.calls[k]
		args := clean(o.argsOf(m.tl, c))
		if n := len(o.rounds[k]); n > 0 {
			if c.outcome != outcomeInputAsked {
				n++
			}
			args = fmt.Sprintf("(%d round%s) %s", n, map[bool]string{true: "s"}[n > 1], args)
		}
		row := fmt.Sprintf(" #%-5d %s %s %8s  %s", c.reqSeq, fit(clean(o.tools[c.tool]), 24), fit(callOutcome(m.tl, c), 14), elapsedOf(m.tl, c).Round(time.Millisecond), args)
		if k == sel {
			lines = append(lines, selectRow(st, row, w))
		} else {
			lines = append(lines, fit(row, w))
		}
	}
	lines = append(lines, st.Border.Render(strings.Repeat("─", max(w, 1))))
	rest := max(h-len(lines), 1)
	r := o.run(m.tl, sel)
	if r == nil {
		lines = append(lines, st.Muted.Render("loading the call from the trace…"))
		return strings.Join(window(lines, 0, h, w), "\n")
	}
	det := resultLines(st, r, max(w, 10))
	if r.task != nil {
		status := clean(r.task.Status)
		if _, dead := o.deadTasks[sel]; dead {
			status = "last known status: " + status
		}
		det = append(det, "", st.Muted.Render(fmt.Sprintf("ran as task %s (%s)", clean(r.task.TaskID), status)))
	}
	det = append(det, o.callNotes(st, m.tl, sel, max(w, 10))...)
	o.off = clampScroll(o.off, len(det), rest)
	lines = append(lines, window(det, o.off, rest, w)...)
	return strings.Join(window(lines, 0, h, w), "\n")
}

// callNotes are what the detail of past call k adds below the result: its input rounds
// (each input_required answer and what it asked) and a response that came after the call
// had ended.
func (o *offlineState) callNotes(st *stylesT, tl *timeline, k int, w int) []string {
	var out []string
	c := &o.calls[k]
	if rs := o.rounds[k]; len(rs) > 1 || len(rs) == 1 && c.outcome != outcomeInputAsked {
		n := len(rs)
		what := "%d rounds (the server asked for input; the client answered and sent the call again)"
		if c.outcome != outcomeInputAsked {
			n++
		} else {
			what = "%d rounds recorded (the server asked for input each time; the last one was not answered)"
		}
		out = append(out, "", st.Title.Render(fmt.Sprintf(what, n)))
		for i, seq := range rs {
			asked := "…"
			if j, ok := tl.index(seq); ok {
				if e, ok := tl.full(j); ok {
					asked = askedOf(&e)
				} else if tl.loadErr(seq) != nil {
					asked = "(could not be read back)"
				}
			}
			out = append(out, wrapStyled(st.Muted, fmt.Sprintf("round %d: response #%d asked for input: %s", i+1, seq, clean(asked)), w)...)
		}
		if c.outcome != outcomeInputAsked {
			out = append(out, st.Muted.Render(fmt.Sprintf("round %d: response #%d is the result above", n, c.respSeq)))
		}
	}
	if seq, ok := o.late[k]; ok {
		after := "the call had ended"
		switch c.outcome &^ outcomeViaTask {
		case outcomeCancelled:
			after = "the cancel"
		case outcomeTimedOut:
			after = "the timeout"
		case outcomeServerExited:
			after = "the server exited"
		}
		out = append(out, "")
		out = append(out, wrapStyled(st.Warning, fmt.Sprintf("a response came after %s (#%d); it is not used as the result:", after, seq), w)...)
		if j, ok := tl.index(seq); ok {
			if e, ok := tl.full(j); ok {
				raw := e.Raw[:runeCut(e.Raw, 4*argsHead)]
				out = append(out, wrap(clean(strings.TrimSpace(string(raw))), w)...)
			}
		}
	}
	return out
}

// loadShown asks for the recorded events the screen shows and returns the Cmd that reads
// them (nil when nothing is missing, or when the timeline keeps every event's bytes).
func (m *Model) loadShown() tea.Cmd {
	if m.tl.load == nil {
		return nil
	}
	m.wire.needShown()
	if m.offline != nil {
		m.offline.needShown(m.tl, m.lay.body.h)
	}
	return m.tl.loadCmd()
}
