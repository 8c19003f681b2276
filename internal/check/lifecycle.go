package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"slices"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The revisions the version sessions ask for: one no revision has (far in the future),
// and the oldest dated one.
const (
	futureVersion = "2099-12-31"
	oldestVersion = "2024-11-05"
)

// initOrderWait is how long the oldest-version session waits between the initialize
// result and notifications/initialized, watching what the server sends meanwhile.
const initOrderWait = 300 * time.Millisecond

// lifecycle opens the main session and checks its handshake. It returns a *StartError when
// the server could not start or exited before it answered; a server that answered badly
// or not in time leaves r.init nil.
func (r *run) lifecycle(ctx context.Context) error {
	w, err := r.open(SessionMain, r.opt.Server)
	r.main = w
	if err != nil {
		r.find("init-responds", Must, nil, "the server could not be started: %v", err)
		return &StartError{Err: err}
	}
	init, err := r.connectMain(ctx, w)
	if framed, ok := r.framedRetry(ctx, w, err); ok {
		w, init, err = framed.w, framed.init, framed.err
	}
	connected(w, init)
	evs := methodEvents(w, "initialize", "notifications/initialized", "server/discover")
	var ee *mcpclient.ExitError
	var te *mcpclient.TimeoutError
	var rpc *mcpclient.RPCError
	var silent *silentError
	switch {
	case err == nil:
	case errors.As(err, &silent):
		return nil // framedRetry said why
	case errors.As(err, &ee):
		r.find("init-responds", Must, evs, "%v", err)
		return &StartError{Err: err}
	case errors.As(err, &te):
		msg := fmt.Sprintf("no answer to initialize within %s (--timeout)", te.After.Round(time.Millisecond))
		if r.opt.Server.FirstIDZero {
			msg += "; initialize carried id 0 because of --first-id 0, and some servers drop a request with id 0: try without it"
		}
		r.find("init-responds", Must, evs, "%s", msg)
		return nil
	case errors.As(err, &rpc):
		r.find("init-responds", Must, evs, "initialize was answered with an error, %d %q, not a result", rpc.Code, rpc.Message)
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case r.remote && isDialError(err):
		// Nothing listens there: the remote counterpart of a command that cannot start.
		r.find("init-responds", Must, evs, "the server could not be reached: %v", err)
		return &StartError{Err: err}
	default:
		r.find("init-result", Must, evs, "%v", err)
		r.find("init-responds", Must, evs, "the handshake did not complete: %v", err)
		return nil
	}
	r.init = init
	r.rep.Server.Name, r.rep.Server.Version = init.ServerInfo.Name, init.ServerInfo.Version
	r.rep.Server.ProtocolVersion, r.rep.Server.Era = init.ProtocolVersion, string(init.Era)
	_ = json.Unmarshal(init.Capabilities, &r.caps)
	if r.caps == nil {
		r.caps = map[string]json.RawMessage{}
	}
	if r.remote {
		// A URL names a server that was already running: the time is the request's.
		r.note("init-responds", evs, "answered %s", sinceRequest(w, evs))
	} else {
		r.note("init-responds", evs, "answered %s after the server was started", sinceStart(w, evs))
	}
	if init.Era == mcpclient.EraModern {
		r.na("init-result", "the main session is modern (server/discover); see the discover rule")
		r.na("version-latest", "the main session is modern (server/discover)")
		r.checkDiscover(w, init)
		return nil
	}
	r.initResult(w, evs)
	r.version("version-latest", init.Requested, init.ProtocolVersion, evs)
	r.beforeInitialize(w)
	return nil
}

// connected waits until the wire has observed the end of Connect: the initialized event
// of a legacy handshake, the last server/discover answer or failure otherwise.
func connected(w *wire, init *mcpclient.InitializeResult) {
	if init != nil && init.Era == mcpclient.EraLegacy {
		w.await(func(ev mcpclient.Event) bool {
			return ev.Dir == mcpclient.Lifecycle && ev.Life != nil && ev.Life.Kind == mcpclient.LifeInitialized
		})
		return
	}
	w.await(func(ev mcpclient.Event) bool {
		return ev.Dir == mcpclient.Lifecycle && ev.Life != nil && (ev.Life.Kind == mcpclient.LifeHandshakeFailed || ev.Life.Kind == mcpclient.LifeInitialized) ||
			ev.Dir == mcpclient.ServerToClient && ev.Method == "server/discover"
	})
}

// sinceStart is the time from the session's start to the last server answer in evs.
func sinceStart(w *wire, evs []Event) string {
	in := map[uint64]bool{}
	for _, e := range evs {
		in[e.Seq] = true
	}
	at := ""
	for _, ev := range w.all() {
		if in[ev.Seq] && ev.Dir == mcpclient.ServerToClient {
			at = ev.Time.Sub(w.start).Round(time.Millisecond).String()
		}
	}
	return at
}

// sinceRequest is "12ms after the initialize request was sent": the time from the first
// request in evs to the last server answer in evs.
func sinceRequest(w *wire, evs []Event) string {
	in := map[uint64]bool{}
	for _, e := range evs {
		in[e.Seq] = true
	}
	var sent, answered time.Time
	method := "the request"
	for _, ev := range w.all() {
		switch {
		case !in[ev.Seq]:
		case ev.Dir == mcpclient.ClientToServer && sent.IsZero() && ev.Msg != nil && ev.Kind == mcpclient.KindRequest:
			sent, method = ev.Time, "the "+ev.Msg.Method+" request"
		case ev.Dir == mcpclient.ServerToClient:
			answered = ev.Time
		}
	}
	return answered.Sub(sent).Round(time.Millisecond).String() + " after " + method + " was sent"
}

// methodEvents are the seqs of the requests and notifications of the given methods the
// client sent on w, and of the responses to them.
func methodEvents(w *wire, methods ...string) []Event {
	var seqs []uint64
	for _, ev := range w.all() {
		switch {
		case ev.Dir == mcpclient.ClientToServer && ev.Msg != nil && slices.Contains(methods, ev.Msg.Method):
			seqs = append(seqs, ev.Seq)
		case ev.Dir == mcpclient.ServerToClient && slices.Contains(methods, ev.Method) && ev.Pair != 0:
			seqs = append(seqs, ev.Seq)
		}
	}
	return w.ev(seqs...)
}

// initResult checks the raw initialize result's required members.
func (r *run) initResult(w *wire, evs []Event) {
	var raw json.RawMessage
	for _, ev := range w.all() {
		if ev.Dir == mcpclient.ServerToClient && ev.Method == "initialize" && ev.Msg != nil && ev.Msg.Result != nil {
			raw = ev.Msg.Result
		}
	}
	var res map[string]json.RawMessage
	if json.Unmarshal(raw, &res) != nil {
		r.find("init-result", Must, evs, "the initialize result is not an object")
		return
	}
	if !isKind(res["protocolVersion"], "string") {
		r.find("init-result", Must, evs, "protocolVersion is missing or not a string")
	}
	if !isKind(res["capabilities"], "object") {
		r.find("init-result", Must, evs, "capabilities is missing or not an object")
	}
	var info map[string]json.RawMessage
	if !isKind(res["serverInfo"], "object") || json.Unmarshal(res["serverInfo"], &info) != nil {
		r.find("init-result", Must, evs, "serverInfo is missing or not an object")
	} else {
		for _, k := range []string{"name", "version"} {
			if !isKind(info[k], "string") {
				r.find("init-result", Must, evs, "serverInfo.%s is missing or not a string", k)
			}
		}
	}
	r.note("init-result", evs, "capabilities %s", capNames(r.caps))
}

// capNames lists the declared capabilities: "{tools, resources}".
func capNames(caps map[string]json.RawMessage) string {
	var names []string
	for k := range caps {
		names = append(names, k)
	}
	slices.Sort(names)
	return fmt.Sprintf("%v", names)
}

// version checks the revision a server answered to initialize asking for asked.
func (r *run) version(id, asked, got string, evs []Event) {
	future := id == "version-future"
	switch {
	case got == "":
		r.find(id, Must, evs, "asked for %s, the result has no protocolVersion", asked)
	case got == asked && future:
		r.find(id, Must, evs, "asked for %s, which no revision has, the server echoed it: a server that does not support the requested version MUST answer one it supports", asked)
	case got == asked:
		r.note(id, evs, "asked for %s: echoed", asked)
	case !mcpclient.KnownProtocolVersion(got) && future:
		r.find(id, Should, evs, "asked for %s, answered %q, which is no dated revision mcp-inspect knows", asked, got)
	case !mcpclient.KnownProtocolVersion(got):
		r.find(id, Must, evs, "asked for %s, answered %q, which is no MCP revision", asked, got)
	default:
		r.note(id, evs, "asked for %s: answered %s", asked, got)
	}
}

// beforeInitialize flags the main session's server messages that came before the
// initialize exchange ended (the client marks them).
func (r *run) beforeInitialize(w *wire) {
	for _, ev := range w.all() {
		for _, p := range ev.Problems {
			if p.Code == mcpclient.CodeBeforeInitialize {
				r.find("init-order", Should, w.ev(ev.Seq), "%s", p.Text)
			}
		}
	}
}

// versions opens the version sessions: an unknown future revision, then the oldest one,
// with a wait before initialized to see what the server sends before it.
func (r *run) versions(ctx context.Context) {
	if ctx.Err() != nil {
		return // interrupted: no new server is started
	}
	if r.init == nil || r.init.Era == mcpclient.EraModern {
		ids := []string{"version-oldest", "init-order"}
		if r.init == nil {
			ids = append(ids, "version-future") // judged on the main session in 2026-07-28 (modernRules)
		}
		for _, id := range ids {
			r.na(id, "no legacy handshake in the main session")
		}
		return
	}
	if r.active("version-future") {
		r.handshake(ctx, SessionFuture, futureVersion, "version-future", 0)
	}
	if ctx.Err() == nil && r.copies.refused == "" && (r.active("version-oldest") || r.active("init-order")) {
		r.handshake(ctx, SessionOldest, oldestVersion, "version-oldest", initOrderWait)
	}
}

// handshake runs initialize asking for version on a session of its own and checks the
// answer under rule id; with wait it then watches the server for that long before sending
// notifications/initialized (rule init-order).
func (r *run) handshake(ctx context.Context, name, version, id string, wait time.Duration) {
	cfg := r.opt.Server
	cfg.Era, cfg.ProtocolVersion = mcpclient.EraLegacy, version
	w, err := r.open(name, cfg)
	if err != nil {
		w.close()
		if !r.oneCopyOnly(ctx) {
			r.find(id, Must, nil, "the server could not be started again: %v", err)
		}
		return
	}
	defer w.close()
	info := cfg.ClientInfo
	if info.Name == "" {
		info = mcpclient.Implementation{Name: "mcp-inspect", Version: "check"}
	}
	caps := cfg.Capabilities
	if len(caps) == 0 {
		caps = json.RawMessage(`{}`)
	}
	params := map[string]any{"protocolVersion": version, "capabilities": caps, "clientInfo": info}
	x := w.request(ctx, "initialize", params, cfg.Timeout)
	if rpc := x.rpcErr(); rpc != nil {
		r.find(id, Must, x.events, "asked for %s, answered an error, %d %q: a server MUST answer a version it supports", version, rpc.Code, rpc.Message)
		return
	}
	if x.err != nil {
		if !noStart(x.err) || !r.oneCopyOnly(ctx) {
			r.find(id, Must, x.events, "asked for %s: %v", version, x.err)
		}
		return
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(x.result(), &res)
	r.version(id, version, res.ProtocolVersion, x.events)
	if wait <= 0 || !r.active("init-order") {
		return
	}
	select {
	case <-time.After(wait):
	case <-ctx.Done():
		return
	}
	bad := 0
	for _, ev := range w.all() {
		if ev.Seq <= x.resp.Seq || ev.Dir != mcpclient.ServerToClient || ev.Msg == nil {
			continue
		}
		switch {
		case ev.Kind == mcpclient.KindRequest && ev.Msg.Method != "ping",
			ev.Kind == mcpclient.KindNotification && ev.Msg.Method != "notifications/message":
			bad++
			r.find("init-order", Should, w.ev(ev.Seq), "%s %s before notifications/initialized: only ping and logging may come before it", ev.Kind, ev.Msg.Method)
		}
	}
	if bad == 0 {
		r.note("init-order", x.events, "nothing but ping and logging in %s between the initialize result and initialized", wait)
	}
	_ = w.client.Notify("notifications/initialized", nil)
}

// discover opens a modern session: a server that answers server/discover offers the
// 2026-07-28 era and is held to its result's shape; one that does not is legacy.
func (r *run) discover(ctx context.Context) {
	if !r.active("discover") || ctx.Err() != nil || r.copies.refused != "" {
		return
	}
	if r.init != nil && r.init.Era == mcpclient.EraModern {
		return // checked on the main session
	}
	cfg := r.opt.Server
	cfg.Era = mcpclient.EraModern
	cfg.Timeout = min(cfg.Timeout, 5*time.Second)
	w, err := r.open(SessionDiscover, cfg)
	if err != nil {
		w.close()
		if !r.oneCopyOnly(ctx) {
			r.na("discover", "the server could not be started again: "+err.Error())
		}
		return
	}
	defer w.close()
	init, err := w.client.Connect(ctx)
	connected(w, init)
	evs := methodEvents(w, "server/discover")
	if err == nil {
		r.checkDiscover(w, init)
		return
	}
	// The client refuses some results (no modern version listed); a result is an offer all
	// the same, and judged here.
	for _, ev := range w.all() {
		if ev.Dir == mcpclient.ServerToClient && ev.Method == "server/discover" && ev.Kind == mcpclient.KindResponse && ev.Msg != nil {
			if res, derr := mcpclient.DecodeDiscoverResult(ev.Msg.Result); derr == nil {
				r.checkDiscover(w, res)
			} else {
				r.find("discover", Must, evs, "%v", derr)
			}
			return
		}
	}
	// A copy that exited without an answer may be one the server did not let run beside
	// the main session (a silent legacy server only times out, and is not asked about).
	var ee *mcpclient.ExitError
	if errors.As(err, &ee) && r.oneCopyOnly(ctx) {
		return
	}
	r.na("discover", "not offered: server/discover got "+shortErr(err)+" (a legacy-only server)")
	r.mu.Lock()
	r.results["discover"].Events = evs
	r.mu.Unlock()
}

// shortErr is an error in a few words for a reason.
func shortErr(err error) string {
	var rpc *mcpclient.RPCError
	var te *mcpclient.TimeoutError
	switch {
	case errors.As(err, &rpc):
		return fmt.Sprintf("error %d %q", rpc.Code, rpc.Message)
	case errors.As(err, &te):
		return "no answer in " + te.After.Round(time.Millisecond).String()
	}
	return err.Error()
}

// checkDiscover checks a DiscoverResult.
func (r *run) checkDiscover(w *wire, init *mcpclient.InitializeResult) {
	evs := methodEvents(w, "server/discover")
	d := init.Discover
	if d == nil {
		r.find("discover", Must, evs, "server/discover answered no DiscoverResult")
		return
	}
	if len(d.SupportedVersions) == 0 {
		r.find("discover", Must, evs, "supportedVersions is missing or empty")
	}
	if len(d.Capabilities) == 0 || d.Capabilities[0] != '{' {
		r.find("discover", Must, evs, "capabilities is missing or not an object")
	}
	switch {
	case d.SupportedVersions == nil:
		r.note("discover", evs, "offered: supportedVersions absent")
	case len(d.SupportedVersions) == 0:
		r.note("discover", evs, "offered: supportedVersions [] (empty)")
	default:
		r.note("discover", evs, "offered: supportedVersions %v", d.SupportedVersions)
	}
}

// isKind reports whether raw is a JSON value of kind: "string", "object", "array",
// "boolean", "number".
func isKind(raw json.RawMessage, kind string) bool {
	if len(raw) == 0 {
		return false
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch v.(type) {
	case string:
		return kind == "string"
	case map[string]any:
		return kind == "object"
	case []any:
		return kind == "array"
	case bool:
		return kind == "boolean"
	case float64:
		return kind == "number"
	}
	return false
}

// isDialError reports a connection that could not be made (refused, no route, DNS):
// no HTTP exchange took place, so there is no server to judge.
func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
