package mcpclient

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Pairer computes the derived data of a session, event by event in Seq order: it links
// responses to requests (Pair, Method), progress notifications to the request whose
// progressToken they carry, and the client's replies to server→client requests, and it adds
// the problems that depend on history (response to an unknown id, duplicate or late response,
// message before initialize, unknown notification, id reuse, a capability not advertised, a
// request in the modern era) and the Info notes that do (an answer to an auto-era probe that
// had given up, progress after our cancel, a frame after the server process exited). The
// live Client runs every frame through one, and a recorded session is recomputed with
// another, so the two always agree. The zero value is not usable; call NewPairer.
type Pairer struct {
	initSent bool
	// initKey is the id key of the handshake request (initialize, or server/discover: the
	// modern handshake and the auto probe) until its answer arrives, initMethod its method:
	// a server frame before that answer was written before the server had handled it (B07),
	// whichever of the two lines reached the pipe first.
	initKey, initMethod string
	// inBatch is set while the elements of a batch frame are added: the frame as a whole
	// was checked for before-initialize.
	inBatch  bool
	modern   bool            // a server/discover is in force (MCP 2026-07-28)
	caps     map[string]bool // client capabilities the client advertised
	tasksExt bool            // the latest modern request declared the tasks extension
	pending  map[string]pend // c2s requests awaiting a response, by id key
	lastKey  string          // the id key of the latest c2s request (requestKey)
	done     doneRing        // settled c2s requests (for late and duplicate answers)
	// byToken are the pending requests whose progress token is not their id key, by token,
	// and those whose place in pending a request reusing their id in flight took; one whose
	// token is its id is found in pending (tokenOf), with no entry of its own.
	byToken map[string]pend
	inbound map[string]uint64 // s2c requests awaiting our reply → request seq
	// vouched are the params of the request the client is about to record, which it built
	// with its id as the progress token (appendRequestFrame): known without reading them.
	vouched json.RawMessage
	version string // protocolVersion of the server's initialize answer

	gone      map[string]goneTok // progress tokens of requests we cancelled (or that timed out)
	goneOrder []string           // gone tokens, oldest first (bounded like done)

	// lateDiscover is a DiscoverResult that answered a server/discover after the client gave
	// up on it; if the initialize that followed is refused, the session is modern after all.
	lateDiscover json.RawMessage

	fromServer uint64 // server stdout frames seen (the auto probe watches it for signs of life)
	// unreplied are the client's notifications not replied to, oldest first (at most
	// maxUnreplied); lastClient is the seq of the client's latest message (replies.go).
	unreplied  []pend
	lastClient uint64
	lspSeen    bool // a server frame with Content-Length framing was seen

	// exitedPID is the server's pid once its process was declared exited (the lifecycle
	// exit event, which the live Client passes through Add too); frames after it come from
	// a child that kept stdout open.
	exitedPID int
	exited    bool
}

// goneTok is the request a cancelled progress token belonged to.
type goneTok struct {
	seq    uint64
	method string
	id     string
	why    string
}

type pend struct {
	key      string // the id key (pending requests)
	seq      uint64
	method   string
	token    string
	tasksExt bool // a modern request that declared the tasks extension
}

type doneR struct {
	seq    uint64
	method string
	why    string
}

// NewPairer returns a Pairer for one session.
func NewPairer() *Pairer {
	return &Pairer{
		caps:    map[string]bool{},
		pending: map[string]pend{},
		byToken: map[string]pend{},
		inbound: map[string]uint64{},
		gone:    map[string]goneTok{},
	}
}

// progressToken returns params._meta.progressToken's key, "" when absent. params come from
// a classified message (valid JSON), so the members are read in place, not decoded.
func progressToken(params json.RawMessage) string {
	tok, ok := progressTokenRaw(params)
	if !ok {
		return ""
	}
	return idKey(tok)
}

// progressTokenRaw is params._meta.progressToken as it is written; ok is false without one.
func progressTokenRaw(params json.RawMessage) (json.RawMessage, bool) {
	meta, ok := member(params, "_meta")
	if !ok {
		return nil, false
	}
	tok, ok := member(meta, "progressToken")
	return tok, ok && len(tok) > 0
}

// tokenIsID reports, for valid JSON params, that params._meta.progressToken is id without
// scanning params: the request frames the client writes itself (appendRequestFrame) end
// in ,"_meta":{"progressToken":<id>}} and hold no other "_meta". That "_meta" is a
// top-level key (its quote follows ',' or '{', so it opens a string, and the object it is
// in closes the text), the last and only one (an escape-free "_meta" is the only way to
// write the key without \u). false means: look (progressTokenRaw).
func tokenIsID(params, id json.RawMessage) bool {
	const meta, tok = `"_meta":{"progressToken":`, "}}"
	n := len(params) - len(tok) - len(id) - len(meta)
	if len(id) == 0 || n < 1 || string(params[len(params)-len(tok):]) != tok || string(params[n+len(meta):len(params)-len(tok)]) != string(id) ||
		string(params[n:n+len(meta)]) != meta || (params[n-1] != ',' && params[n-1] != '{') {
		return false
	}
	return bytes.Index(params, []byte(`"_meta"`)) == n && !bytes.Contains(params, []byte(`\u`))
}

// Add fills in ev's Pair, Method and history-dependent Problems. Events must come in order.
func (p *Pairer) Add(ev *Event) {
	switch ev.Dir {
	case ClientToServer:
		for i := range ev.Problems {
			if ev.Problems[i].Code == CodeLSPFraming {
				ev.Problems[i].Severity = Info // the client frames as it was told (--framing)
			}
		}
		p.addClient(ev)
	case ServerToClient:
		p.fromServer++
		p.noteLSP(ev)
		if ev.Kind == KindBatch {
			p.addBatch(ev)
		} else {
			p.addServer(ev)
			p.noteVersion(ev)
		}
		p.noteAfterExit(ev)
	case Lifecycle:
		if ev.Life != nil && ev.Life.Kind == LifeExited {
			p.exited, p.exitedPID = true, ev.Life.PID
		}
	}
}

// noteLSP counts Content-Length framing once per session: the first header-framed frame
// keeps its Warning, later ones carry the same problem as Info (a session talking
// --framing content-length would otherwise show a warning on every frame).
func (p *Pairer) noteLSP(ev *Event) {
	for i := range ev.Problems {
		if ev.Problems[i].Code != CodeLSPFraming {
			continue
		}
		if p.lspSeen {
			ev.Problems[i].Severity = Info
		}
		p.lspSeen = true
	}
}

// noteAfterExit marks a server frame that arrived after the server process was declared
// exited: the process is gone, so a child (or grandchild) that inherited its stdout wrote
// it. The live client has already failed the requests it might answer.
func (p *Pairer) noteAfterExit(ev *Event) {
	pid := p.exitedPID
	if !p.exited {
		return
	}
	ev.Problems = append(ev.Problems, Problem{Severity: Info, Code: CodeAfterExit,
		Text: "arrived after the server process exited (pid " + strconv.Itoa(pid) + "); a child that kept stdout open sent it"})
}

func (p *Pairer) addClient(ev *Event) {
	m := ev.Msg
	if m == nil {
		return
	}
	p.lastClient = ev.Seq
	switch ev.Kind {
	case KindRequest:
		switch m.Method {
		case "initialize":
			p.initSent, p.modern = true, false
			p.initKey, p.initMethod = idKey(m.ID), m.Method
			p.noteCaps(m.Params, false)
		case "server/discover":
			p.initSent, p.modern = true, true
			p.initKey, p.initMethod = idKey(m.ID), m.Method
			p.lateDiscover = nil
		}
		if p.modern {
			p.noteCaps(m.Params, true)
		}
		key := idKey(m.ID)
		p.lastKey = key
		pr := pend{key: key, seq: ev.Seq, method: m.Method, tasksExt: p.modern && p.tasksExt}
		if p.vouchedFor(m.Params) || tokenIsID(m.Params, m.ID) {
			pr.token = key // as below, found without scanning params
		} else if tok, ok := progressTokenRaw(m.Params); ok && string(tok) == string(m.ID) {
			pr.token = key // the client's own requests: the id is the token, one string for both
		} else if ok {
			pr.token = idKey(tok) // params scanned once, also for a request without a token
		}
		p.putPending(pr)
	case KindNotification:
		p.noteSent(ev.Seq, m.Method)
		if m.Method != "notifications/cancelled" {
			return
		}
		var c struct {
			RequestID json.RawMessage `json:"requestId"`
			Reason    string          `json:"reason"`
		}
		if json.Unmarshal(m.Params, &c) != nil || len(c.RequestID) == 0 {
			return
		}
		key := idKey(c.RequestID)
		pr, ok := p.pending[key]
		if !ok {
			return
		}
		// The live client leaves Pair unset here; linking the cancel to its request is
		// derived data a viewer can use.
		ev.Pair, ev.Method = pr.seq, pr.method
		why := "cancelled"
		if len(c.Reason) >= 9 && c.Reason[:9] == "timed out" {
			why = "timed out"
		}
		p.settle(key, pr, why)
	case KindResponse, KindErrorResponse:
		key := idKey(m.ID)
		if seq, ok := p.inbound[key]; ok {
			// Like the live client: Pair links our reply to the server's request; Method
			// stays empty (the request event has it).
			ev.Pair = seq
			delete(p.inbound, key)
		}
	}
}

// requestKey is idKey(id), shared with the Pairer's own when id is that of the latest
// client request it saw (the live client registers its request after recording it).
func (p *Pairer) requestKey(id json.RawMessage) string {
	if p.lastKey != "" && p.lastKey == string(id) {
		return p.lastKey
	}
	return idKey(id)
}

// Settle marks the request with the given id as finished without a response ("cancelled" or
// "timed out"), for a request the client abandons without sending notifications/cancelled
// (initialize may never be cancelled). A later response is then flagged as late.
func (p *Pairer) Settle(id json.RawMessage, why string) {
	key := idKey(id)
	if pr, ok := p.pending[key]; ok {
		p.settle(key, pr, why)
	}
}

func (p *Pairer) settle(key string, pr pend, why string) {
	delete(p.pending, key)
	if pr.token != "" {
		p.dropToken(pr)
		if why == "cancelled" || why == "timed out" {
			// The server may not have seen the cancel yet (MCP basic/utilities/cancellation:
			// it races with the work), so progress for this token is still expected a while.
			p.gone[pr.token] = goneTok{seq: pr.seq, method: pr.method, id: key, why: why}
			p.goneOrder = append(p.goneOrder, pr.token)
			if len(p.goneOrder) > 4096 {
				delete(p.gone, p.goneOrder[0])
				p.goneOrder = p.goneOrder[1:]
			}
		}
	}
	p.done.push(key, doneR{seq: pr.seq, method: pr.method, why: why})
}

// beforeInitialize is the before-initialize problem of a server frame, if it has one: the
// frame came before any handshake request, or before the answer to the handshake request
// (initialize or server/discover) and is not a response (answersInit). A server that writes at start-up, before reading its stdin, is caught
// either way, however its line and our initialize cross in the pipes (MCP 2025-11-25
// basic/lifecycle: the initialize exchange comes first).
func (p *Pairer) beforeInitialize(answersInit bool) (Problem, bool) {
	switch {
	case !p.initSent:
		return Problem{Severity: Warning, Code: CodeBeforeInitialize, Text: "server sent a message before initialize"}, true
	case p.initKey != "" && !answersInit:
		return Problem{Severity: Warning, Code: CodeBeforeInitialize, Text: "server sent a message before answering " + p.initMethod + " (it was written before the server handled " + p.initMethod + ")"}, true
	}
	return Problem{}, false
}

// initiated reports whether m is a message the server started (a request or a
// notification): what before-initialize is about. Stray stdout lines have their own
// problem, and responses answer requests of ours.
func initiated(m *Message) bool { return m != nil && m.Method != "" }

// answersInit reports whether m is exempt from the wait for initialize's answer: that
// answer itself, or any other response (it answers a request of ours, such as the auto
// probe's server/discover, and has its own pairing problems).
func (p *Pairer) answersInit(m *Message) bool {
	return m != nil && m.ID != nil && m.Method == "" && (m.Result != nil || m.Error != nil)
}

// addServer pairs one server frame: a response with its request (or names why it pairs
// with none), a progress notification with its token, a server request with the client
// capability it needs.
func (p *Pairer) addServer(ev *Event) {
	if !p.inBatch && initiated(ev.Msg) {
		if pr, early := p.beforeInitialize(p.answersInit(ev.Msg)); early {
			ev.Problems = append(ev.Problems, pr)
		}
	}
	m := ev.Msg
	switch ev.Kind {
	case KindOversize:
		// Not parsed, but the kept head may still show which request it answers.
		if id := headID(ev.Raw); id != nil {
			key := idKey(id)
			if pr, ok := p.pending[key]; ok {
				ev.Pair, ev.Method = pr.seq, pr.method
				p.settle(key, pr, "answered")
			}
		}
	case KindResponse, KindErrorResponse:
		p.response(ev)
	case KindNotification:
		if !knownServerNotification(m.Method) {
			ev.Problems = append(ev.Problems, Problem{Severity: Warning, Code: CodeUnknownNotification, Text: "unknown notification method " + strconv.Quote(m.Method)})
			return
		}
		if m.Method == "notifications/progress" {
			p.progress(ev)
		}
	case KindRequest:
		if p.modern {
			ev.Problems = append(ev.Problems, Problem{Severity: Warning, Code: CodeModernServerRequest, Text: "server sent a JSON-RPC request in the modern era; MCP 2026-07-28 stdio: the server MUST NOT write requests (and the client MUST NOT answer), so it gets no reply"})
			return
		}
		key := idKey(m.ID)
		if _, busy := p.inbound[key]; busy && ev.Written == "" { // a tap's edit follows the original
			ev.Problems = append(ev.Problems, Problem{Severity: Warning, Code: CodeIDReused, Text: "server reused id " + key + " while its earlier request with that id is still unanswered (MCP basic/index: ids MUST NOT be reused in flight)"})
		}
		if need := capabilityFor(m.Method); need != "" && !p.caps[need] {
			ev.Problems = append(ev.Problems, Problem{Severity: Warning, Code: CodeCapabilityNotAdvertised, Text: "server sent " + m.Method + " though the client did not advertise the " + need + " capability; answered -32601"})
		}
		p.inbound[key] = ev.Seq
	}
}

// response pairs a response with its pending request; one whose request is not pending
// is late, a duplicate, of the wrong id type, an answer to an unread line, or unknown.
func (p *Pairer) response(ev *Event) {
	var pr pend
	var ok bool
	if plainIDKey(ev.Msg.ID) {
		pr, ok = p.pending[string(ev.Msg.ID)] // the id is its key: none built for the lookup
	} else {
		pr, ok = p.pending[idKey(ev.Msg.ID)]
	}
	if !ok {
		key := idKey(ev.Msg.ID)
		if p.notificationReply(ev, key) {
			return
		}
		p.unpaired(ev, key)
		return
	}
	key := pr.key
	ev.Pair, ev.Method = pr.seq, pr.method
	p.settle(key, pr, "answered")
	if key == p.initKey {
		p.initKey = ""
	}
	if pr.method == "server/discover" && ev.Kind == KindErrorResponse {
		p.modern = false
	}
	if pr.method == "initialize" && ev.Kind == KindErrorResponse && p.lateDiscover != nil {
		p.modern = true // the client goes on in the modern era (Client.Connect)
	}
	if p.modern {
		taskResultProblems(ev, pr.method, pr.tasksExt)
	}
}

// unpaired says why a response (id key) pairs with no pending request. A tap's edit of an
// answer (Event.Written), recorded after the answer as it came, pairs with the same request
// and is no fault of the server's.
func (p *Pairer) unpaired(ev *Event, key string) {
	if d, seen := p.done.find(key); seen {
		ev.Pair, ev.Method = d.seq, d.method
		switch {
		case ev.Written != "":
		case d.method == "server/discover" && d.why != "answered":
			note, modern := probeLateNote(ev)
			if modern {
				p.lateDiscover = ev.Msg.Result
			}
			ev.Problems = append(ev.Problems, note)
		case d.why == "cancelled":
			ev.Problems = append(ev.Problems, Problem{Severity: Info, Code: CodeAfterCancel, Text: "response after cancel: the request was cancelled; this response is not used"})
		case d.why == "timed out":
			ev.Problems = append(ev.Problems, Problem{Severity: Warning, Code: CodeAfterTimeout, Text: "late response: the request had already timed out"})
		default:
			ev.Problems = append(ev.Problems, Problem{Severity: Warning, Code: CodeDuplicateResponse, Text: "duplicate response: this id was already answered"})
		}
		return
	}
	if other, ok := p.sameValue(key); ok {
		ev.Problems = append(ev.Problems, Problem{Severity: Warning, Code: CodeIDTypeMismatch, Text: idTypeMismatchText(key, other)})
		return
	}
	if ev.Kind == KindErrorResponse && ev.Msg.Error != nil && unreadRequestError(ev.Msg.ID, ev.Msg.Error.Code) {
		// JSON-RPC 2.0 §5: the answer to a line the server could not read (a client's
		// probe or raw line) has id null and pairs with no request.
		return
	}
	ev.Problems = append(ev.Problems, Problem{Severity: Warning, Code: CodeUnknownID, Text: "response to unknown id " + key + ": no request with this id (and JSON type) is pending"})
}

// progress pairs notifications/progress with the request in flight that carries its
// token (MCP 2025-11-25 basic/utilities/progress).
func (p *Pairer) progress(ev *Event) {
	var pp struct {
		Token json.RawMessage `json:"progressToken"`
	}
	_ = json.Unmarshal(ev.Msg.Params, &pp)
	if len(pp.Token) == 0 {
		ev.Problems = append(ev.Problems, Problem{Severity: Warning, Code: CodeBadProgress, Text: "progress notification without a progressToken"})
		return
	}
	pr, ok := p.tokenOf(idKey(pp.Token))
	if ok {
		ev.Pair, ev.Method = pr.seq, pr.method
		return
	}
	if g, was := p.gone[idKey(pp.Token)]; was {
		ev.Pair, ev.Method = g.seq, g.method
		what := "after cancel of request id " + g.id
		if g.why == "timed out" {
			what = "after request id " + g.id + " timed out (and was cancelled)"
		}
		ev.Problems = append(ev.Problems, Problem{Severity: Info, Code: CodeProgressAfterCancel,
			Text: "progress " + what + " (" + g.method + "): the server had not seen the cancel yet or is winding down; this progress is not used"})
		return
	}
	ev.Problems = append(ev.Problems, Problem{Severity: Warning, Code: CodeUnknownProgressToken, Text: "progress for token " + idKey(pp.Token) + ", which no request in flight carries"})
}

// noteCaps records the client capabilities a request advertises: initialize's
// params.capabilities, or a modern request's _meta clientCapabilities.
func (p *Pairer) noteCaps(params json.RawMessage, modern bool) {
	var v struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
		Meta         map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &v) != nil {
		return
	}
	caps := v.Capabilities
	if modern {
		if raw, ok := v.Meta[MetaClientCapabilities]; ok {
			caps = nil
			_ = json.Unmarshal(raw, &caps)
		} else {
			p.tasksExt = false
			return
		}
	}
	p.caps = map[string]bool{}
	p.tasksExt = modern && declaresTasksExt(caps)
	for k := range caps {
		p.caps[k] = true
	}
}

// knownServerNotification reports whether method is a notification a server may send in
// some revision (MCP schema ServerNotification, 2024-11-05 … 2026-07-28).
func knownServerNotification(method string) bool {
	switch method {
	case "notifications/message", "notifications/progress", "notifications/cancelled",
		"notifications/resources/updated", "notifications/resources/list_changed",
		"notifications/tools/list_changed", "notifications/prompts/list_changed",
		"notifications/tasks/status", "notifications/elicitation/complete",
		"notifications/subscriptions/acknowledged", "notifications/tasks":
		return true
	}
	return false
}

// probeLateNote is the note on an answer to our auto-era server/discover probe that came
// after the probe gave up: our timing, not a server fault. A DiscoverResult means the server
// was modern after all (modern is then true).
func probeLateNote(ev *Event) (note Problem, modern bool) {
	const head = "answer to our server/discover probe, which had already given up and fallen back to initialize: "
	if ev.Kind == KindResponse && ev.Msg != nil {
		var d struct {
			Versions []string `json:"supportedVersions"`
		}
		if json.Unmarshal(ev.Msg.Result, &d) == nil && d.Versions != nil {
			return Problem{Severity: Info, Code: CodeProbeLate, Text: head + "a DiscoverResult, so the server is modern after all (it was slow to start); run with --era modern to skip the probe"}, true
		}
		return Problem{Severity: Info, Code: CodeProbeLate, Text: head + "a result that is not a DiscoverResult; the server stays legacy"}, false
	}
	return Problem{Severity: Info, Code: CodeProbeLate, Text: head + "an error, so the server is legacy, as assumed (it was slow to answer); --era legacy skips the probe"}, false
}
