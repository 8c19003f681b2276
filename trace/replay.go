package trace

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// ReplayOptions configure Replay.
type ReplayOptions struct {
	// Config starts the server to replay against. Its OnEvent (a recorder, for --update)
	// still gets every event; OnServerRequest is replaced by the recorded answers.
	Config mcpclient.Config
	// Ignore lists locations left out of the comparison; "$.._meta.progressToken" is always
	// ignored, and ids are never compared.
	Ignore []*JSONPath
	// Grace is how long to wait for a response the recording does not have (the recorded
	// server died or never answered) before giving up on it; default 2 s.
	Grace time.Duration
}

// Replay statuses of a ReplayItem.
const (
	StatusSame    = "same"
	StatusDiffers = "differs"
	StatusSkipped = "skipped"
)

// ReplayItem is one comparison: a response to a recorded request, a server→client request,
// or how the server ended.
type ReplayItem struct {
	// Kind is "response", "server-request" or "exit".
	Kind string `json:"kind"`
	// Label names it for people: "tools/call echo".
	Label  string `json:"label"`
	Method string `json:"method,omitempty"`
	// RecordedSeq is the recorded request's Seq; NewSeq the replayed request's.
	RecordedSeq uint64 `json:"recordedSeq,omitempty"`
	NewSeq      uint64 `json:"newSeq,omitempty"`
	// Status is StatusSame, StatusDiffers or StatusSkipped.
	Status string `json:"status"`
	// Note says why, in words, when the item is not a plain comparison of two responses.
	Note string `json:"note,omitempty"`
	// Diffs are the differences of the response bodies ($.result... or $.error...).
	Diffs []Difference `json:"diffs,omitempty"`
}

// ReplayReport is the outcome of Replay.
type ReplayReport struct {
	Trace   string       `json:"trace"`
	Command []string     `json:"command"`
	Items   []ReplayItem `json:"items"`
	Same    int          `json:"same"`
	Differs int          `json:"differs"`
	Skipped int          `json:"skipped"`
	// Warnings are the trace reader's warnings and unreadable lines.
	Warnings []string `json:"warnings,omitempty"`
}

// OK reports whether nothing differs.
func (r *ReplayReport) OK() bool { return r.Differs == 0 }

type serverAnswer struct {
	method string
	params string // canonical, _meta dropped
	seq    uint64
	result json.RawMessage
	err    *mcpclient.RPCError
	used   bool
}

// recordedSetup is what the recorded client configured that the new session must repeat.
type recordedSetup struct {
	exit exitInfo
	// caps is the capabilities object of the recorded initialize (or modern _meta).
	caps json.RawMessage
}

type exitInfo struct {
	seen   bool
	code   int
	signal string
	text   string
}

func (e exitInfo) same(o exitInfo) bool {
	return e.seen == o.seen && (!e.seen || (e.code == o.code && e.signal == o.signal))
}

// bigRecorded is the size from which a recorded response is not held while the new session
// runs but read back from the trace when it is compared: a 100 MB result would otherwise be
// held while the new one is read (issue 26: replay's peak was 4 to 5 times the message).
const bigRecorded = 1 << 20

type replayReq struct {
	method, label string
	recSeq        uint64
	newSeq        uint64
	recResp       *mcpclient.Message // nil: the recording has no response, or a big one (recRespSeq)
	recRespSeq    uint64             // the recorded response's Seq when it is read back at compare time
	recCancelled  bool
	// recInjected: the recorded answer was a tap's (mcpclient.Event.Written): the recorded
	// server never had the request, so there is nothing of its to compare.
	recInjected bool
	cancel      context.CancelFunc
	done        chan struct{}
	resp        *mcpclient.Response
	err         error
}

// replayRun is the state of one Replay.
type replayRun struct {
	tr  *Trace
	opt ReplayOptions

	// resent are the recorded requests the client wrote again later with the same id while
	// they were unanswered (--framing auto re-sends a request in the other framing; a tap's
	// edit follows the request it replaces): only the last copy is replayed. An id used
	// again after its answer is a new request.
	resent map[uint64]bool

	mu       sync.Mutex
	answers  []*serverAnswer
	extra    []ReplayItem // server requests the recording has no answer for
	newExit  exitInfo
	shutdown bool // our Close began
}

// Replay starts the server of opt.Config, sends the recorded client messages in their
// recorded order and compares every response with the recorded one. A request is sent
// only after the responses that the recording had received before it, so the recorded
// concurrency is kept without racing. New request ids replace the recorded ones;
// server→client requests get the recorded answers; a recorded notifications/cancelled
// cancels the replayed request. It returns an error (and no report) only when the replay
// could not run: the server did not start, or ctx ended.
func Replay(ctx context.Context, tr *Trace, opt ReplayOptions) (*ReplayReport, error) {
	if opt.Grace <= 0 {
		opt.Grace = 2 * time.Second
	}
	always, _ := ParseJSONPath("$.._meta.progressToken")
	opt.Ignore = append([]*JSONPath{always}, opt.Ignore...)
	run := &replayRun{tr: tr, opt: opt}
	rep := &ReplayReport{Command: append([]string{opt.Config.Command}, opt.Config.Args...), Warnings: append([]string(nil), tr.Warnings...)}

	setup := run.prepass(rep)
	recExit := setup.exit
	cfg := opt.Config
	if setup.caps != nil {
		// The server's requests are answered only when the client advertised the capability.
		cfg.Capabilities = setup.caps
	}
	userObs := cfg.OnEvent
	cfg.OnEvent = func(ev mcpclient.Event) {
		if userObs != nil {
			userObs(ev)
		}
		run.observe(ev)
	}
	cfg.OnServerRequest = run.answer
	// The recorded requests already carry their era's _meta and the recorded client's
	// input_required retries; a legacy-era client sends them as they are instead of adding
	// its own.
	cfg.Era = mcpclient.EraLegacy
	client, err := mcpclient.Start(cfg)
	if err != nil {
		return nil, err
	}
	defer client.Close()
	// The Events channel is not needed (OnEvent sees everything) but must not pile up.
	go func() {
		for range client.Events() {
		}
	}()

	reqs, err := run.drive(ctx, client)
	if err != nil {
		return nil, err
	}
	if recExit.seen {
		// The recorded server ended by itself: give the new one the chance to do the same.
		waitChan(ctx, client.Exited(), opt.Grace)
	}
	run.mu.Lock()
	select {
	case <-client.Exited():
		// It ended by itself. Its exit event may still be on its way to observe (OnEvent runs
		// from a queue), so it must not be taken for the result of our Close.
	default:
		run.shutdown = true
	}
	run.mu.Unlock()
	client.Close()

	for _, q := range reqs {
		rep.add(run.compare(q))
	}
	run.mu.Lock()
	for _, a := range run.answers {
		if !a.used {
			rep.add(ReplayItem{Kind: "server-request", Label: a.method, Method: a.method, RecordedSeq: a.seq, Status: StatusDiffers,
				Note: fmt.Sprintf("the recorded server sent %s (seq %d); the new one did not", a.method, a.seq)})
		}
	}
	for _, it := range run.extra {
		rep.add(it)
	}
	newExit := run.newExit
	run.mu.Unlock()
	if (recExit.seen || newExit.seen) && !run.tr.httpTrace() && opt.Config.URL == "" {
		// (A remote server has no exit to compare: an HTTP trace's end is the session's.)
		it := ReplayItem{Kind: "exit", Label: "server exit", Status: StatusSame}
		describe := func(e exitInfo) string {
			if !e.seen {
				return "kept running until the client closed it"
			}
			return e.text
		}
		it.Note = "recorded: " + describe(recExit) + "; now: " + describe(newExit)
		if !recExit.same(newExit) {
			it.Status = StatusDiffers
		}
		rep.add(it)
	}
	return rep, nil
}

func (rep *ReplayReport) add(it ReplayItem) {
	switch it.Status {
	case StatusSame:
		rep.Same++
	case StatusDiffers:
		rep.Differs++
	default:
		rep.Skipped++
	}
	rep.Items = append(rep.Items, it)
}

// unanswered tracks the recorded client's requests awaiting their answers, to tell a
// request written again (replaced by the later copy) from an id used again after its
// answer (a new request).
type unanswered struct {
	byIDMethod map[string]uint64 // id and method → the request's Seq
	byID       map[string]uint64 // id → the latest request's Seq
	keys       map[uint64][2]string
}

func newUnanswered() *unanswered {
	return &unanswered{byIDMethod: map[string]uint64{}, byID: map[string]uint64{}, keys: map[uint64][2]string{}}
}

// note takes one recorded event and marks in resent the requests a later copy replaces:
// the same id and method while unanswered, or any unanswered request with the id of a
// tap's edit (Event.Written). An answer leaves its request's id free.
func (u *unanswered) note(ev *mcpclient.Event, resent map[uint64]bool) {
	switch {
	case ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindRequest:
		id := idKey(ev.Msg.ID)
		k := id + " " + ev.Msg.Method
		if prev, ok := u.byIDMethod[k]; ok {
			resent[prev] = true
		}
		if prev, ok := u.byID[id]; ok && ev.Written != "" {
			resent[prev] = true
		}
		u.byIDMethod[k], u.byID[id] = ev.Seq, ev.Seq
		u.keys[ev.Seq] = [2]string{k, id}
	case ev.Dir == mcpclient.ServerToClient && (ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse) && ev.Pair != 0:
		ks, ok := u.keys[ev.Pair]
		if !ok {
			return
		}
		delete(u.keys, ev.Pair)
		if u.byIDMethod[ks[0]] == ev.Pair {
			delete(u.byIDMethod, ks[0])
		}
		if u.byID[ks[1]] == ev.Pair {
			delete(u.byID, ks[1])
		}
	}
}

// prepass collects the recorded answers to server→client requests and how the recorded
// server ended.
func (run *replayRun) prepass(rep *ReplayReport) recordedSetup {
	var setup recordedSetup
	ex := &setup.exit
	shutdown := false
	bySeq := map[uint64]*serverAnswer{}
	unanswered := newUnanswered()
	run.resent = map[uint64]bool{}
	for ev, err := range run.tr.Events() {
		if err != nil {
			rep.Warnings = append(rep.Warnings, err.Error())
			continue
		}
		unanswered.note(&ev, run.resent)
		switch {
		case ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindRequest && setup.caps == nil:
			var p struct {
				Capabilities json.RawMessage            `json:"capabilities"`
				Meta         map[string]json.RawMessage `json:"_meta"`
			}
			_ = json.Unmarshal(ev.Msg.Params, &p)
			if ev.Msg.Method == "initialize" && p.Capabilities != nil {
				setup.caps = p.Capabilities
			} else if c, ok := p.Meta[mcpclient.MetaClientCapabilities]; ok {
				setup.caps = c
			}
		case ev.Dir == mcpclient.ServerToClient && ev.Kind == mcpclient.KindRequest && ev.Msg.Method != "ping":
			a := &serverAnswer{method: ev.Msg.Method, params: canonicalJSON(withoutMeta(ev.Msg.Params)), seq: ev.Seq}
			bySeq[ev.Seq] = a
			run.answers = append(run.answers, a)
		case ev.Dir == mcpclient.ClientToServer && (ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse) && ev.Pair != 0:
			if a := bySeq[ev.Pair]; a != nil {
				a.result, a.err = ev.Msg.Result, ev.Msg.Error
				if a.result == nil && a.err == nil {
					a.result = json.RawMessage(`{}`)
				}
			}
		case ev.Kind == mcpclient.KindLifecycle:
			switch ev.Life.Kind {
			case mcpclient.LifeShutdown:
				shutdown = true
			case mcpclient.LifeExited:
				if !shutdown && !ex.seen {
					*ex = exitInfo{seen: true, code: ev.Life.ExitCode, signal: ev.Life.Signal, text: ev.Life.Text}
				}
			}
		}
	}
	// A request the recorded client never answered cannot be answered now either.
	kept := run.answers[:0]
	for _, a := range run.answers {
		if a.result != nil || a.err != nil {
			kept = append(kept, a)
		}
	}
	run.answers = kept
	return setup
}

// observe follows the new session: whether the server ended by itself.
func (run *replayRun) observe(ev mcpclient.Event) {
	switch {
	case ev.Kind == mcpclient.KindLifecycle && ev.Life.Kind == mcpclient.LifeShutdown:
		run.mu.Lock()
		run.shutdown = true
		run.mu.Unlock()
	case ev.Kind == mcpclient.KindLifecycle && ev.Life.Kind == mcpclient.LifeExited:
		run.mu.Lock()
		if !run.shutdown && !run.newExit.seen {
			run.newExit = exitInfo{seen: true, code: ev.Life.ExitCode, signal: ev.Life.Signal, text: ev.Life.Text}
		}
		run.mu.Unlock()
	}
}

// answer gives a server→client request of the new session the recorded answer: the first
// unused one with the same method and params, else the first unused one with the same
// method.
func (run *replayRun) answer(sr *mcpclient.ServerRequest) {
	params := canonicalJSON(withoutMeta(sr.Params))
	run.mu.Lock()
	var pick *serverAnswer
	for _, a := range run.answers {
		if !a.used && a.method == sr.Method && a.params == params {
			pick = a
			break
		}
	}
	if pick == nil {
		for _, a := range run.answers {
			if !a.used && a.method == sr.Method {
				pick = a
				break
			}
		}
	}
	if pick == nil {
		run.extra = append(run.extra, ReplayItem{Kind: "server-request", Label: sr.Method, Method: sr.Method, NewSeq: sr.Seq, Status: StatusDiffers,
			Note: "the new server sent " + sr.Method + ", which the recording has no answer for"})
		run.mu.Unlock()
		_ = sr.Fail(&mcpclient.RPCError{Code: -32601, Message: "replay: the recording has no answer for " + sr.Method})
		return
	}
	pick.used = true
	run.mu.Unlock()
	if pick.err != nil {
		_ = sr.Fail(pick.err)
		return
	}
	_ = sr.Respond(pick.result)
}

// drive walks the recording and re-sends the client's side. It returns the replayed
// requests in recorded order.
func (run *replayRun) drive(ctx context.Context, client *mcpclient.Client) ([]*replayReq, error) {
	d := &replayDriver{client: client, byRecID: map[string]*replayReq{}, bySeq: map[uint64]*replayReq{}}
	closing := false
	for ev, err := range run.tr.Events() {
		if err != nil {
			continue // counted by the prepass
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		switch ev.Dir {
		case mcpclient.ServerToClient:
			d.recorded(ev)
			continue
		case mcpclient.Lifecycle:
			if ev.Life.Kind == mcpclient.LifeShutdown {
				// The recorded client began closing the session: nothing more to send,
				// but responses the server wrote while it shut down still count (a host
				// that closes stdin right after its last request: the tap records it so).
				closing = true
			}
			continue
		case mcpclient.Stderr, mcpclient.HTTPOut, mcpclient.HTTPIn:
			// An HTTP exchange's messages are events of their own, sent as messages.
			continue
		}
		// A client→server frame.
		if closing || run.resent[ev.Seq] {
			continue
		}
		if err := d.waitPrereqs(ctx); err != nil {
			return nil, err
		}
		d.send(ctx, ev)
	}
	if err := d.await(ctx, run.opt.Grace); err != nil {
		return nil, err
	}
	return d.reqs, nil
}

// replayDriver is drive's state while it walks the recording.
type replayDriver struct {
	client   *mcpclient.Client
	reqs     []*replayReq          // in recorded order
	byRecID  map[string]*replayReq // recorded request id key → request (pending in the recording)
	bySeq    map[uint64]*replayReq // recorded seq → request
	mustWait []*replayReq          // recorded responses seen: wait for the new ones before the next send
}

// hasRecorded reports whether the recording has a response to q.
func (q *replayReq) hasRecorded() bool { return q.recResp != nil || q.recRespSeq != 0 }

// recordedResponse is the recorded response to q: held, or read back from the trace.
func (run *replayRun) recordedResponse(q *replayReq) (*mcpclient.Message, error) {
	if q.recResp != nil || q.recRespSeq == 0 {
		return q.recResp, nil
	}
	ev, err := run.tr.EventBySeq(q.recRespSeq)
	if err != nil {
		return nil, err
	}
	if ev.Msg == nil {
		return nil, fmt.Errorf("event #%d is no longer a response", q.recRespSeq)
	}
	return ev.Msg, nil
}

// recorded notes a recorded server→client frame: a response to a replayed request
// means the recorded client had it before what it sent next.
func (d *replayDriver) recorded(ev mcpclient.Event) {
	if (ev.Kind == mcpclient.KindResponse || ev.Kind == mcpclient.KindErrorResponse) && ev.Pair != 0 {
		if q := d.bySeq[ev.Pair]; q != nil && !q.hasRecorded() {
			if len(ev.Raw) >= bigRecorded {
				q.recRespSeq = ev.Seq
			} else {
				q.recResp = ev.Msg
			}
			q.recInjected = ev.Written == mcpclient.NoteInjected
			d.mustWait = append(d.mustWait, q)
			delete(d.byRecID, idKey(ev.Msg.ID))
		}
	}
}

// waitPrereqs waits for the new responses to the requests answered in the recording
// before the next client frame.
func (d *replayDriver) waitPrereqs(ctx context.Context) error {
	for _, q := range d.mustWait {
		select {
		case <-q.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	d.mustWait = d.mustWait[:0]
	return nil
}

// send re-sends one recorded client→server frame.
func (d *replayDriver) send(ctx context.Context, ev mcpclient.Event) {
	switch ev.Kind {
	case mcpclient.KindRequest:
		d.request(ctx, ev)
	case mcpclient.KindNotification:
		if ev.Msg.Method == "notifications/cancelled" && d.cancelled(ev.Msg.Params) {
			return
		}
		_ = d.client.Notify(ev.Msg.Method, ev.Msg.Params)
	case mcpclient.KindResponse, mcpclient.KindErrorResponse:
		// Replies to server requests: sent by answer when the new server asks.
	default:
		// Whatever the recorded client wrote that was not a message goes out as it was.
		_ = d.client.SendRaw(frameBody(ev.Raw)) // framed by the session's framing
	}
}

// request re-sends a recorded request and returns once it is written (or has ended).
func (d *replayDriver) request(ctx context.Context, ev mcpclient.Event) {
	params, hadToken := stripProgressToken(ev.Msg.Params)
	q := &replayReq{method: ev.Msg.Method, label: requestLabel(ev.Msg.Method, ev.Msg.Params), recSeq: ev.Seq, done: make(chan struct{})}
	qctx, cancel := context.WithCancel(ctx)
	q.cancel = cancel
	d.reqs = append(d.reqs, q)
	d.bySeq[ev.Seq] = q
	d.byRecID[idKey(ev.Msg.ID)] = q
	sent := make(chan struct{})
	ro := &mcpclient.RequestOptions{NoProgressToken: !hadToken, OnSent: func(seq uint64, _ json.RawMessage) {
		q.newSeq = seq
		close(sent)
	}}
	go func() {
		defer close(q.done)
		defer cancel()
		var p any
		if params != nil {
			p = params
		}
		q.resp, q.err = d.client.Request(qctx, q.method, p, ro)
	}()
	// The next frame goes out only after this one is written, keeping the order.
	select {
	case <-sent:
	case <-q.done:
	}
}

// cancelled handles a recorded notifications/cancelled: when it names a replayed request
// still pending, that request is cancelled (mcpclient sends notifications/cancelled with
// the new id) and waited for, and cancelled reports true.
func (d *replayDriver) cancelled(params json.RawMessage) bool {
	var c struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	_ = json.Unmarshal(params, &c)
	q := d.byRecID[idKey(c.RequestID)]
	if q == nil {
		return false
	}
	q.recCancelled = true
	q.cancel()
	<-q.done
	return true
}

// await waits for the responses; one the recording lacks gets only the grace period.
func (d *replayDriver) await(ctx context.Context, grace time.Duration) error {
	timer := time.NewTimer(grace)
	defer timer.Stop()
	for _, q := range d.reqs {
		if q.hasRecorded() || q.recCancelled {
			select {
			case <-q.done:
			case <-ctx.Done():
				return ctx.Err()
			}
			continue
		}
		select {
		case <-q.done:
		case <-timer.C:
			q.cancel()
			<-q.done
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// body is what is compared of a response: {"result": ...} or {"error": {...}}.
func body(m *mcpclient.Message) json.RawMessage {
	if m.Error != nil {
		b, _ := json.Marshal(struct {
			Error *mcpclient.RPCError `json:"error"`
		}{m.Error})
		return b
	}
	res := m.Result
	if res == nil {
		res = json.RawMessage(`null`)
	}
	b, _ := json.Marshal(struct {
		Result json.RawMessage `json:"result"`
	}{res})
	return b
}

// compareBodies is Compare(body(a), body(b), ignore) without writing the bodies out: a
// valid result is parsed where it is (a 100 MB one is not copied).
func compareBodies(a, b *mcpclient.Message, ignore []*JSONPath) []Difference {
	na, okA := bodyNode(a)
	nb, okB := bodyNode(b)
	if !okA || !okB {
		return Compare(body(a), body(b), ignore)
	}
	return compareNodes(na, nb, ignore)
}

// bodyNode is body(m) parsed: {"result": ...} or {"error": {...}}; false when the result is
// not valid JSON.
func bodyNode(m *mcpclient.Message) (jnode, bool) {
	if m.Error != nil || m.Result == nil {
		b := body(m)
		return parseNode(b), true
	}
	if !json.Valid(m.Result) {
		return jnode{}, false
	}
	return jnode{kind: '{', obj: map[string]jnode{"result": parseNode(m.Result)}}, true
}

// sameResult reports whether two responses carry the same result bytes (no error).
func sameResult(a, b *mcpclient.Message) bool {
	return a.Error == nil && b.Error == nil && a.Result != nil && bytes.Equal(bytes.TrimSpace(a.Result), bytes.TrimSpace(b.Result))
}

func (run *replayRun) compare(q *replayReq) ReplayItem {
	it := ReplayItem{Kind: "response", Label: q.label, Method: q.method, RecordedSeq: q.recSeq, NewSeq: q.newSeq}
	var got *mcpclient.Message
	if q.resp != nil {
		got = q.resp.Msg
	}
	rec, recErr := run.recordedResponse(q)
	switch {
	case q.recCancelled:
		it.Status = StatusSkipped
		it.Note = "cancelled in the recording: not compared"
	case q.recInjected:
		it.Status = StatusSkipped
		it.Note = "answered by the tap in the recording (its note says why), not by the server: not compared"
	case recErr != nil:
		it.Status = StatusDiffers
		it.Note = fmt.Sprintf("the recorded response (event #%d) could not be read back from the trace: %v", q.recRespSeq, recErr)
	case rec != nil && got != nil && sameResult(rec, got):
		// Byte for byte the same: nothing to decode (a 100 MB result decoded on both sides
		// cost 10x its size; issue 26).
		it.Status = StatusSame
	case rec != nil && got != nil:
		var ignore []*JSONPath
		for _, j := range run.opt.Ignore {
			if j.Method == "" || j.Method == q.method {
				ignore = append(ignore, j)
			}
		}
		it.Diffs = compareBodies(rec, got, ignore)
		it.Status = StatusSame
		if len(it.Diffs) > 0 {
			it.Status = StatusDiffers
		}
	case rec != nil:
		it.Status = StatusDiffers
		it.Note = "no response now: " + errText(q.err)
	case got != nil:
		it.Status = StatusDiffers
		it.Note = "the recording has no response to this request; now there is one"
		it.Diffs = []Difference{{Path: "$", Got: body(got)}}
	default:
		it.Status = StatusSame
		it.Note = "no response, as in the recording (" + errText(q.err) + ")"
	}
	return it
}

func errText(err error) string {
	if err == nil {
		return "no error"
	}
	if errors.Is(err, context.Canceled) {
		return "gave up waiting"
	}
	return err.Error()
}

func waitChan(ctx context.Context, ch <-chan struct{}, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	case <-ctx.Done():
	}
}

// WriteText prints the report for people: one line per differing item with its
// differences (every item when verbose), then a summary line.
func (r *ReplayReport) WriteText(w io.Writer, verbose bool) error {
	var b strings.Builder
	for _, it := range r.Items {
		if it.Status != StatusDiffers && !verbose {
			continue
		}
		mark := map[string]string{StatusSame: "same   ", StatusDiffers: "DIFFERS", StatusSkipped: "skipped"}[it.Status]
		where := ""
		if it.RecordedSeq != 0 {
			where = fmt.Sprintf(" (recorded seq %d", it.RecordedSeq)
			if it.NewSeq != 0 {
				where += fmt.Sprintf(", now seq %d", it.NewSeq)
			}
			where += ")"
		}
		fmt.Fprintf(&b, "%s  %s%s\n", mark, it.Label, where)
		if it.Note != "" {
			fmt.Fprintf(&b, "           %s\n", it.Note)
		}
		for _, d := range it.Diffs {
			fmt.Fprintf(&b, "    %s\n", d.Path)
			fmt.Fprintf(&b, "      recorded: %s\n", showValue(d.Recorded))
			fmt.Fprintf(&b, "      now:      %s\n", showValue(d.Got))
		}
	}
	for _, wn := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", wn)
	}
	fmt.Fprintf(&b, "%d same, %d differ, %d skipped\n", r.Same, r.Differs, r.Skipped)
	_, err := io.WriteString(w, b.String())
	return err
}

func showValue(v json.RawMessage) string {
	if v == nil {
		return "(absent)"
	}
	// shorten needs only the first 200 runes: at most 800 bytes, and one more to see a cut.
	return shorten(string(v[:min(len(v), 801)]), 200)
}

// ResolvedFraming is the framing a --framing auto recording settled on, from its notes
// (mcpclient.FramingAutoNote): FramingContentLength when it switched to Content-Length both
// ways, FramingNewline when it went back to newline JSON, else auto (a server that reads
// newline JSON and writes Content-Length is talked to by auto at once). Replaying or mocking
// such a trace speaks what the server spoke.
func ResolvedFraming(tr *Trace) string {
	if tr.Header.Framing != FramingAuto {
		return tr.Header.Framing
	}
	framing := FramingAuto
	for ev, err := range tr.Events() {
		if err != nil || ev.Kind != mcpclient.KindLifecycle || ev.Life == nil {
			continue
		}
		t, ok := strings.CutPrefix(ev.Life.Text, mcpclient.FramingAutoNote)
		switch {
		case !ok:
		case strings.Contains(t, "Content-Length both ways"):
			framing = FramingContentLength
		case strings.Contains(t, "newline JSON from now on"):
			framing = FramingNewline
		}
	}
	return framing
}
