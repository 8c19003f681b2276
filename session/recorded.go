package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Recorded is a read-only session derived from a recorded timeline (mcp-inspect open, or
// a tap seen through attach): what a live session learns by asking (the handshake's
// answer, the listings) and every tools/call with its outcome, its input rounds, a late
// response, and the task it ran as. It decodes with mcpclient's own decoders. Feed it
// every event in order with Observe; it keeps about 24 bytes per call and reads a call's
// request and response back through an EventSource when asked (Detail).
type Recorded struct {
	// calls are the recorded tools/call requests in order, each with its outcome.
	calls []pastCall
	// open maps a tools/call request's Seq to its call's index until the response comes.
	open map[uint64]int
	// tasks maps the id of a modern task that a tools/call created (a CreateTaskResult) to
	// its call and latest status until a recorded tasks/get answer or notifications/tasks
	// ends it. The server's exit moves it to deadTasks (by call).
	tasks     map[string]taskSeen
	deadTasks map[int]taskSeen
	// taskTools maps every task a recorded tools/call created to its tool (TaskTool).
	taskTools map[string]uint32
	// tools interns tool names (a million calls of one tool keep one string).
	tools   []string
	toolIdx map[string]uint32
	// discoverVersion maps a server/discover request's Seq to the protocol version its
	// _meta asked for (an initialize request's to its protocolVersion), until the
	// response comes.
	discoverVersion map[uint64]string
	// subReqs maps a resources/subscribe or unsubscribe request's Seq to what it asked,
	// until the response comes.
	subReqs map[uint64]Subscription
	// pages accumulates one paginated listing per method until its last page.
	pages map[string]*pageAcc
	// res and tmpls are the last complete resources/list and resources/templates/list
	// answers: one Listing carries both.
	res   []mcpclient.Resource
	tmpls []mcpclient.ResourceTemplate
	// resWarn and tmplWarn are the warnings of the last complete listing of each.
	resWarn, tmplWarn []string
	// handshake is set once an initialize or server/discover answer was applied; state
	// holds the latest one.
	handshake bool
	state     State
	// lists, taskList, inflight and roots are a Session's, empty or filled by the events:
	// nothing is listed, sent or offered.
	lists    Lists
	taskList *Tasks
	inflight *Inflight
	roots    Roots
	// now stamps a recorded task status that has no time of its own.
	now func() time.Time
	// rounds maps a call that took more than one round (MCP 2026-07-28
	// basic/patterns/mrtr) to the Seqs of its input_required responses in order.
	rounds map[int][]uint64
	// asking maps a call whose latest round asked for input (roundKey) to its index until
	// the next round's request comes.
	asking map[string]int
	// ended maps the request Seq of a call that ended without its response (cancelled,
	// timed out, the server exited) to the call, so a response recorded later is late (in
	// late, by call index: the response's Seq), not the result.
	ended map[uint64]int
	late  map[int]uint64
	// lostLines counts the trace lines the reader could not read (Event.LostLines);
	// traceWarnings say where.
	lostLines     int
	traceWarnings []string
	// client is the client the recording shows; clientTries bounds the requests read for
	// it.
	client      *SeenClient
	clientTries int
	// closing is set by a LifeShutdown event until the next start: the exit that follows
	// ends the session, not the calls still open.
	closing bool
	// attached is set for a tap seen through attach (the host is the client), not a
	// finished trace.
	attached bool
	// cur is the call last built by Detail (curIdx its index), kept until it changes.
	cur    *CallDetail
	curIdx int
}

// taskSeen is a modern task a recorded call created: its id, the call's index, its latest
// status and the Seq of the CreateTaskResult that answered the call.
type taskSeen struct {
	id, status string
	call       int
	created    uint64
}

// SeenClient is the client a recording shows: "name version" and its capabilities
// (compact JSON).
type SeenClient struct {
	Info string
	Caps json.RawMessage
}

// clientTries bounds how many requests are read for the client's identity: a recording
// without it (cut before the handshake) does not pay a second decode on every request.
const clientTries = 16

// recordedClient reads who the client is from a request's params: the initialize
// request's clientInfo and capabilities (legacy), or the _meta every modern request
// carries (MCP 2026-07-28); nil when they hold neither.
func recordedClient(params json.RawMessage) *SeenClient {
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
	c := &SeenClient{Info: strings.TrimSpace(info.Name + " " + info.Version)}
	var b bytes.Buffer
	if json.Compact(&b, caps) == nil {
		c.Caps = b.Bytes()
	}
	return c
}

// pageAcc is a listing in progress: its pages so far.
type pageAcc struct {
	pager *mcpclient.Pager
}

// pastCall is a recorded tools/call in 24 bytes: where its request and response are in
// the timeline, its tool and its outcome. For a call that ran as a modern task (outcome
// has OutcomeViaTask) respSeq is the latest recorded state of the task.
type pastCall struct {
	reqSeq, respSeq uint64
	tool            uint32 // index into Recorded.tools
	outcome         Outcome
}

// NewRecorded makes an empty recorded session.
func NewRecorded() *Recorded {
	return &Recorded{open: map[uint64]int{}, tasks: map[string]taskSeen{}, taskTools: map[string]uint32{}, toolIdx: map[string]uint32{}, discoverVersion: map[uint64]string{}, subReqs: map[uint64]Subscription{}, pages: map[string]*pageAcc{},
		rounds: map[int][]uint64{}, asking: map[string]int{}, ended: map[uint64]int{}, late: map[int]uint64{}, deadTasks: map[int]taskSeen{}, curIdx: -1,
		state: NewState(), taskList: NewTasks(context.Background(), nil, ClientFeatures{}), inflight: NewInflight(), now: time.Now}
}

// SetClock sets the clock that stamps recorded task statuses without a time (tests fix it).
func (o *Recorded) SetClock(now func() time.Time) { o.now = now }

// NewAttached makes an empty recorded session fed from a running tap (mcp-inspect attach):
// the host is the client, and its traffic keeps coming.
func NewAttached() *Recorded {
	o := NewRecorded()
	o.attached = true
	return o
}

// Attached reports whether the events come from a running tap (NewAttached), not a
// finished trace: what the panes say differs ("seen", "not sent yet"), nothing else.
func (o *Recorded) Attached() bool { return o.attached }

// CanSend is false: a recording is read, never sent to.
func (o *Recorded) CanSend() bool { return false }

// State is the recorded handshake and lifecycle, as far as the events have gone.
func (o *Recorded) State() *State { return &o.state }

// Features are zero: the recording's client is not this one (Client says what it offered).
func (o *Recorded) Features() ClientFeatures { return ClientFeatures{} }

// Requests is nil: no server request is answered here.
func (o *Recorded) Requests() *RequestQueue { return nil }

// Lists is never started: nothing is listed, the recorded listings come as events.
func (o *Recorded) Lists() *Lists { return &o.lists }

// Tasks are the tasks the recorded notifications showed.
func (o *Recorded) Tasks() *Tasks { return o.taskList }

// Inflight is an empty table: nothing is started here.
func (o *Recorded) Inflight() *Inflight { return o.inflight }

// Roots are none: the recording's client offered its own.
func (o *Recorded) Roots() *Roots { return &o.roots }

// Client is the client the recording shows, nil when no request said.
func (o *Recorded) Client() *SeenClient { return o.client }

// LostLines is how many trace lines could not be read (0 for a whole recording).
func (o *Recorded) LostLines() int { return o.lostLines }

// TraceWarnings say before which event trace lines were lost, one line each.
func (o *Recorded) TraceWarnings() []string { return o.traceWarnings }

// ResourceWarnings are the warnings of the last complete resources/list and
// resources/templates/list, in that order (live, one listing carries both).
func (o *Recorded) ResourceWarnings() []string {
	return append(append([]string(nil), o.resWarn...), o.tmplWarn...)
}

// Observe follows one recorded event, in order, and returns what it stands for (a
// finished handshake, a complete listing, a subscription) and what it asks of a viewer:
// late responses and the tasks' states (nothing is sent).
func (o *Recorded) Observe(ev *mcpclient.Event) Reaction {
	var r Reaction
	for _, p := range ev.Problems {
		if p.Code == mcpclient.CodeTraceLinesLost {
			o.lostLines += max(ev.LostLines, 1)
			w := fmt.Sprintf("trace: before event #%d: %s", ev.Seq, p.Text)
			o.traceWarnings = append(o.traceWarnings, w)
			o.state.Warnings, o.state.Incomplete = append(o.state.Warnings, w), true
		}
	}
	if ev.Kind == mcpclient.KindLifecycle && ev.Life != nil {
		o.state.ObserveLife(ev.Life)
		o.lifecycle(ev)
		return r
	}
	if ev.Msg == nil {
		return r
	}
	switch {
	case ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindRequest:
		o.request(ev)
	case ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindNotification && ev.Msg.Method == "notifications/cancelled":
		o.cancelled(ev)
	case ev.Dir == mcpclient.ServerToClient && (ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse):
		if n := LateNote(ev); n != nil {
			r.Notes, r.Late = append(r.Notes, *n), true
		}
		if ev.Pair != 0 {
			o.response(ev, &r)
		}
	case ev.Dir == mcpclient.ServerToClient && ev.Kind == mcpclient.KindNotification:
		o.notification(ev, &r)
	}
	return r
}

// notification follows a task's recorded status (notifications/tasks/status, or the
// modern notifications/tasks) as a viewer shows it.
func (o *Recorded) notification(ev *mcpclient.Event, r *Reaction) {
	at := ev.Time
	if at.IsZero() {
		at = o.now()
	}
	var step Step
	switch ev.Msg.Method {
	case "notifications/tasks/status":
		t, ok := TaskFromNotification(ev.Msg.Params)
		if !ok {
			return
		}
		_, step = o.taskList.Status(t, false, at)
	case "notifications/tasks":
		t, ok := mcpclient.ParseTaskNotification(ev.Msg)
		if !ok {
			return
		}
		o.taskState(t, ev.Seq)
		_, step = o.taskList.Notified(*t, at)
	default:
		return
	}
	if e := o.taskList.Get(step.TaskID); e != nil && e.Tool == "" {
		e.Tool = o.TaskTool(step.TaskID)
	}
	r.Tasks = append(r.Tasks, step)
}

// touch drops the built detail of call k: it changed.
func (o *Recorded) touch(k int) {
	if o.curIdx == k {
		o.cur, o.curIdx = nil, -1
	}
}

// lifecycle follows the server's process: an exit the session did not ask for fails the
// calls still waiting for their answer (and the tasks still running), as the live
// session failed them then; a response recorded after it is late, not their result.
func (o *Recorded) lifecycle(ev *mcpclient.Event) {
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
			o.end(k, seq, ev.Seq, OutcomeServerExited)
		}
		for id, ts := range o.tasks {
			delete(o.tasks, id)
			o.end(ts.call, 0, ev.Seq, OutcomeViaTask|OutcomeServerExited)
			o.deadTasks[ts.call] = ts
		}
	}
}

// cancelled ends the call a notifications/cancelled from the client names (the pairer
// links it to the request: Pair).
func (o *Recorded) cancelled(ev *mcpclient.Event) {
	k, ok := o.open[ev.Pair]
	if !ok || ev.Pair == 0 {
		return
	}
	delete(o.open, ev.Pair)
	var p struct {
		Reason string `json:"reason"`
	}
	_ = json.Unmarshal(ev.Msg.Params, &p)
	outcome := OutcomeCancelled
	if strings.HasPrefix(p.Reason, "timed out") {
		outcome = OutcomeTimedOut
	}
	o.end(k, ev.Pair, ev.Seq, outcome)
}

// end ends call k without its response at the event at seq; reqSeq (0 for a task) is the
// request a later response would pair with.
func (o *Recorded) end(k int, reqSeq, seq uint64, outcome Outcome) {
	c := &o.calls[k]
	c.respSeq, c.outcome = seq, outcome
	if reqSeq != 0 {
		o.ended[reqSeq] = k
	}
	o.touch(k)
}

// taskState applies a recorded state of a modern task (a tasks/get answer or
// notifications/tasks, in event seq) to the call that created it: the call's outcome
// becomes the task's once it is terminal, as the live Call pane shows it.
func (o *Recorded) taskState(t *mcpclient.Task, seq uint64) {
	ts, ok := o.tasks[t.TaskID]
	if !ok {
		return
	}
	k := ts.call
	c := &o.calls[k]
	c.respSeq = seq
	if t.Terminal() {
		delete(o.tasks, t.TaskID)
		c.outcome = OutcomeViaTask | taskOutcome(t)
	} else {
		ts.status = t.Status
		o.tasks[t.TaskID] = ts
	}
	o.touch(k)
}

// taskOutcome is a terminal task's end as a past call's outcome.
func taskOutcome(t *mcpclient.Task) Outcome {
	res, err := t.Outcome()
	var cancelled *mcpclient.TaskCancelledError
	switch {
	case errors.As(err, &cancelled):
		return OutcomeTaskCancelled
	case err != nil:
		return OutcomeTaskFailed
	}
	return resultOutcome(res)
}

// resultOutcome is the outcome of a CallToolResult: ok, isError, or not one.
func resultOutcome(result json.RawMessage) Outcome {
	// The shape that matters for the row; the detail reads the whole CallToolResult.
	var res struct {
		Content []json.RawMessage `json:"content"`
		IsError bool              `json:"isError"`
	}
	switch {
	case json.Unmarshal(result, &res) != nil:
		return OutcomeBadResult
	case res.IsError:
		return OutcomeIsError
	}
	return OutcomeOK
}

// request notes the requests whose answers need something of the request: the
// arguments of a tools/call, the version a server/discover asked for.
func (o *Recorded) request(ev *mcpclient.Event) {
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
				o.touch(k)
				return
			}
		}
		o.calls = append(o.calls, pastCall{reqSeq: ev.Seq, tool: ti})
		o.open[ev.Seq] = len(o.calls) - 1
	case "resources/subscribe", "resources/unsubscribe":
		var p struct {
			URI string `json:"uri"`
		}
		if json.Unmarshal(ev.Msg.Params, &p) == nil && p.URI != "" {
			o.subReqs[ev.Seq] = Subscription{URI: p.URI, On: ev.Msg.Method == "resources/subscribe"}
		}
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(ev.Msg.Params, &p)
		o.discoverVersion[ev.Seq] = p.ProtocolVersion // the version asked for, as for discover
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
// input_required answer gave this requestState, else the latest one of the same tool.
func (o *Recorded) nextRound(tool uint32, state json.RawMessage) (int, bool) {
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
func (o *Recorded) response(ev *mcpclient.Event, r *Reaction) {
	a := o.answer(ev)
	r.Handshake, r.Listing, r.Subscription = a.Handshake, a.Listing, a.Subscription
}

// answer is what a recorded response stands for.
func (o *Recorded) answer(ev *mcpclient.Event) Reaction {
	if oc, ok := o.open[ev.Pair]; ok {
		delete(o.open, ev.Pair)
		o.answered(oc, ev)
		return Reaction{}
	}
	if k, ok := o.ended[ev.Pair]; ok {
		// After the cancel or the exit: the live session did not use it either.
		delete(o.ended, ev.Pair)
		o.late[k] = ev.Seq
		o.touch(k)
		return Reaction{}
	}
	if ev.Method == "tasks/get" && ev.Msg.Error == nil {
		var t mcpclient.Task
		if json.Unmarshal(ev.Msg.Result, &t) == nil && t.TaskID != "" {
			o.taskState(&t, ev.Seq)
		}
		return Reaction{}
	}
	var rpcErr error
	if ev.Msg.Error != nil {
		rpcErr = ev.Msg.Error
	}
	if s, ok := o.subReqs[ev.Pair]; ok {
		delete(o.subReqs, ev.Pair)
		if rpcErr != nil {
			return Reaction{}
		}
		return Reaction{Subscription: &s}
	}
	switch ev.Method {
	case "initialize":
		if rpcErr != nil {
			if o.handshake {
				return Reaction{}
			}
			h := &Handshake{Err: rpcErr}
			o.state.Handshook(*h)
			return Reaction{Handshake: h}
		}
		res, err := mcpclient.DecodeInitializeResult(ev.Msg.Result)
		if res != nil {
			res.Requested = o.discoverVersion[ev.Pair]
			if v := res.ProtocolVersion; res.Requested != "" && v != res.Requested && mcpclient.KnownProtocolVersion(v) {
				res.Notes = append(res.Notes, mcpclient.VersionNote(v, res.Requested))
			}
		}
		delete(o.discoverVersion, ev.Pair)
		return o.handshook(res, err)
	case "server/discover":
		v := o.discoverVersion[ev.Pair]
		delete(o.discoverVersion, ev.Pair)
		if rpcErr != nil {
			// The auto probe of a legacy server fails here; initialize follows.
			return Reaction{}
		}
		res, err := mcpclient.DecodeDiscoverResult(ev.Msg.Result)
		if res != nil {
			if v == "" {
				// Unknown: the newest version the server lists is shown.
				for _, sv := range res.Discover.SupportedVersions {
					v = max(v, sv)
				}
			}
			res.ProtocolVersion = v
		}
		return o.handshook(res, err)
	case "tools/list":
		pg, err, done := o.page(ev, "tools")
		if !done {
			return Reaction{}
		}
		tools, warns := mcpclient.DecodeList[mcpclient.Tool](pg.Items, "tools/list", pg.Warnings)
		return Reaction{Listing: &Listing{List: Tools, Tools: tools, Warnings: warns, Err: err, Repeats: pg.Repeats}}
	case "resources/list", "resources/templates/list":
		return o.resourcesPage(ev)
	case "prompts/list":
		pg, err, done := o.page(ev, "prompts")
		if !done {
			return Reaction{}
		}
		ps, warns := mcpclient.DecodeList[mcpclient.Prompt](pg.Items, "prompts/list", pg.Warnings)
		return Reaction{Listing: &Listing{List: Prompts, Prompts: ps, Warnings: warns, Err: err, Repeats: pg.Repeats}}
	}
	return Reaction{}
}

// handshook records a handshake answer.
func (o *Recorded) handshook(res *mcpclient.InitializeResult, err error) Reaction {
	o.handshake = true
	h := &Handshake{Result: res, Err: err}
	o.state.Handshook(*h)
	return Reaction{Handshake: h}
}

// resourcesPage adds a page of resources/list or resources/templates/list; a complete
// one gives a Listing with both lists (the other as last listed) and its own warnings.
func (o *Recorded) resourcesPage(ev *mcpclient.Event) Reaction {
	arr := "resources"
	if ev.Method == "resources/templates/list" {
		arr = "resourceTemplates"
	}
	pg, err, done := o.page(ev, arr)
	if !done {
		return Reaction{}
	}
	items, warns := pg.Items, pg.Warnings
	l := &Listing{List: Resources, Resources: o.res, Templates: o.tmpls, Repeats: pg.Repeats}
	if arr == "resources" {
		l.Resources, o.resWarn = mcpclient.DecodeList[mcpclient.Resource](items, ev.Method, warns)
		l.Err = err
		if err == nil {
			o.res = l.Resources
		}
		l.Warnings = o.resWarn
	} else {
		l.Templates, o.tmplWarn = mcpclient.DecodeList[mcpclient.ResourceTemplate](items, ev.Method, warns)
		l.TemplatesErr = err
		if err == nil {
			o.tmpls = l.Templates
		}
		l.Warnings = o.tmplWarn
	}
	return Reaction{Listing: l}
}

// maxRecordedItems stops accumulating a recorded listing whose pages never end.
const maxRecordedItems = 1 << 20

// page adds one page of a listing (the array under key) and reports whether the listing
// is complete: a page without nextCursor, or an error, ends it (as mcpclient.ListPaged
// does live; a listing cut by an error keeps the items of the pages before). A complete
// listing's pager has its items merged and its warnings finished (mcpclient.Pager.Finish).
func (o *Recorded) page(ev *mcpclient.Event, key string) (pg *mcpclient.Pager, err error, done bool) {
	acc := o.pages[ev.Method]
	if acc == nil {
		acc = &pageAcc{pager: mcpclient.NewPager(ev.Method, key)}
		o.pages[ev.Method] = acc
	}
	pg = acc.pager
	end := func(e error) (*mcpclient.Pager, error, bool) {
		delete(o.pages, ev.Method)
		pg.Warnings = pg.Finish()
		return pg, e, true
	}
	if ev.Msg.Error != nil {
		return end(ev.Msg.Error)
	}
	_, more, e := pg.Add(ev.Msg.Result)
	if e != nil {
		return end(e)
	}
	if more && len(pg.Items) < maxRecordedItems {
		return nil, nil, false
	}
	return end(nil)
}

// answered notes a past call's response: where it is and the outcome. The result itself
// is read again when the call is shown (Detail).
func (o *Recorded) answered(k int, ev *mcpclient.Event) {
	c := &o.calls[k]
	c.respSeq = ev.Seq
	switch {
	case ev.Msg.Error != nil:
		c.outcome = OutcomeRPCError
	default:
		if bytes.Contains(ev.Msg.Result, []byte(`"input_required"`)) {
			if ir, ok := mcpclient.ParseInputRequired(ev.Msg.Result); ok {
				c.outcome = OutcomeInputAsked
				if len(o.rounds[k]) < 4*mcpclient.MaxInputRounds {
					o.rounds[k] = append(o.rounds[k], ev.Seq)
				}
				o.asking[roundKey(c.tool, ir.RequestState)] = k
				break
			}
		}
		if t, ok, err := mcpclient.ParseCreateTask(ev.Msg.Result); ok && err == nil {
			c.outcome = OutcomeViaTask | OutcomeTaskUnfinished
			o.tasks[t.TaskID] = taskSeen{id: t.TaskID, status: t.Status, call: k, created: ev.Seq}
			o.taskTools[t.TaskID] = c.tool
			if t.Terminal() { // a task may be created finished
				o.taskState(t, ev.Seq)
			}
			break
		}
		c.outcome = resultOutcome(ev.Msg.Result)
	}
	o.touch(k)
}

// TaskTool is the tool whose recorded tools/call created task id; "" when none did.
func (o *Recorded) TaskTool(id string) string {
	if ti, ok := o.taskTools[id]; ok {
		return o.tools[ti]
	}
	return ""
}
