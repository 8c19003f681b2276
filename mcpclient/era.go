package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Era is the protocol era a session speaks (MCP 2026-07-28 basic/versioning).
type Era string

const (
	// EraLegacy: initialize handshake, revisions 2024-11-05 … 2025-11-25.
	EraLegacy Era = "legacy"
	// EraModern: stateless 2026-07-28; every request carries _meta, no handshake.
	EraModern Era = "modern"
	// EraAuto: probe with server/discover, fall back to initialize on any error or a short
	// timeout (MCP 2026-07-28 basic/transports/stdio §Backward Compatibility).
	EraAuto Era = "auto"
)

// ParseEra reads "legacy", "modern" or "auto".
func ParseEra(s string) (Era, error) {
	switch Era(strings.ToLower(s)) {
	case EraLegacy, "":
		return EraLegacy, nil
	case EraModern:
		return EraModern, nil
	case EraAuto:
		return EraAuto, nil
	}
	return "", fmt.Errorf("era %q: want legacy, auto or modern", s)
}

// Modern _meta keys (MCP 2026-07-28 basic/index §_meta).
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaLogLevel           = "io.modelcontextprotocol/logLevel"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
	MetaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)

// DefaultProbeTimeout is how long EraAuto's server/discover probe waits after the server's
// latest output (a stdout frame or a stderr line) before deciding the server is legacy (MCP
// 2026-07-28 basic/transports/stdio §Backward Compatibility: "no response within a timeout").
// A server that has written nothing yet may still be starting (npx, a wrapper script), so
// until its first output the probe waits up to Config.Timeout (--timeout) instead.
const DefaultProbeTimeout = 3 * time.Second

// probeTiming is how the auto probe waits: quiet after the server's latest output, and how
// often it looks for output (tests shorten both).
type probeTiming struct {
	quiet time.Duration
	poll  time.Duration
}

// ProbeTimeoutError is why EraAuto's server/discover probe gave up, so the server is taken
// as legacy: no answer within Quiet of the server's latest output, or — when the server wrote
// nothing at all — within Silent (Config.Timeout). After is the time from the probe's send.
type ProbeTimeoutError struct {
	After  time.Duration
	Quiet  time.Duration // set when the server had written something
	Silent time.Duration // set when it had written nothing (the request timeout)
}

func (e *ProbeTimeoutError) Error() string {
	if e.Quiet > 0 {
		return fmt.Sprintf("no answer to the server/discover probe %s after the server's last output (%s after it was sent; the auto probe's fixed window; --era legacy or --era modern skip the probe)",
			e.Quiet, e.After.Round(time.Millisecond))
	}
	return fmt.Sprintf("no answer to the server/discover probe and no output from the server in %s (a silent server is given the request timeout to start; --timeout changes it, --era legacy skips the probe)",
		e.Silent.Round(time.Millisecond))
}

// Era is the era in force: the configured one, or what the auto probe found (legacy until
// then).
func (c *Client) Era() Era {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.era
}

// SetLogLevel asks for server log messages at level and above: logging/setLevel in the legacy
// era; in the modern era the level is sent in every later request's _meta (MCP 2026-07-28
// server/utilities/logging). Levels are RFC 5424 names: debug … emergency.
func (c *Client) SetLogLevel(ctx context.Context, level string) error {
	if c.Era() == EraModern {
		c.mu.Lock()
		c.logLevel = level
		c.mu.Unlock()
		return nil
	}
	_, err := c.Request(ctx, "logging/setLevel", map[string]string{"level": level}, nil)
	return err
}

// eraMetaLocked gives the _meta members every modern request carries.
func (c *Client) eraMetaLocked() []metaEntry {
	if c.era != EraModern {
		return nil
	}
	info, _ := json.Marshal(c.cfg.ClientInfo)
	ver, _ := json.Marshal(c.modernVersion)
	meta := []metaEntry{
		{MetaProtocolVersion, ver},
		{MetaClientCapabilities, c.modernCapsLocked()},
		{MetaClientInfo, info},
	}
	if c.logLevel != "" {
		lv, _ := json.Marshal(c.logLevel)
		meta = append(meta, metaEntry{MetaLogLevel, lv})
	}
	return meta
}

// DiscoverResult is the answer to server/discover (MCP 2026-07-28 server/discover).
type DiscoverResult struct {
	ResultType        string                     `json:"resultType,omitempty"`
	SupportedVersions []string                   `json:"supportedVersions"`
	Capabilities      json.RawMessage            `json:"capabilities"`
	Instructions      string                     `json:"instructions,omitempty"`
	TTLMs             *int64                     `json:"ttlMs,omitempty"`
	CacheScope        string                     `json:"cacheScope,omitempty"`
	Meta              map[string]json.RawMessage `json:"_meta,omitempty"`
}

// UnsupportedVersionData is the data of a -32022 UnsupportedProtocolVersion error.
type UnsupportedVersionData struct {
	Supported []string `json:"supported"`
	Requested string   `json:"requested"`
}

// Connect opens the session in the configured era: legacy runs Initialize; modern sends
// server/discover (retrying once with a version from data.supported on -32022); auto probes
// server/discover (see DefaultProbeTimeout for how long it waits) and falls back to
// Initialize on any other error or no answer (a *ProbeTimeoutError). The result is an
// InitializeResult either way (for modern: the negotiated version, capabilities,
// instructions and _meta serverInfo), with Era set.
func (c *Client) Connect(ctx context.Context) (*InitializeResult, error) {
	return c.connect(ctx, probeTiming{quiet: DefaultProbeTimeout, poll: 50 * time.Millisecond})
}

// connect is Connect with the auto probe's timing (tests shorten it).
func (c *Client) connect(ctx context.Context, pt probeTiming) (*InitializeResult, error) {
	switch c.cfg.Era {
	case EraModern:
		return c.discover(ctx, 0, nil)
	case EraAuto:
		res, err := c.probe(ctx, pt)
		var rpc *RPCError
		var ee *ExitError
		if err == nil {
			return res, nil
		}
		if errors.As(err, &ee) || errors.Is(err, ctx.Err()) && ctx.Err() != nil ||
			// A modern error: the server is modern; do not fall back.
			errors.As(err, &rpc) && (rpc.Code == -32022 || rpc.Code == -32021) {
			c.discoverFailed(err)
			return nil, err
		}
		var pte *ProbeTimeoutError
		if errors.As(err, &pte) {
			c.note(err.Error() + ": taking the server as legacy; falling back to initialize")
		} else {
			c.note("server/discover failed (" + err.Error() + "): taking the server as legacy; falling back to initialize")
		}
		c.mu.Lock()
		c.era = EraLegacy
		c.mu.Unlock()
		res, err = c.Initialize(ctx)
		if err == nil || !errors.As(err, &rpc) {
			return res, err
		}
		c.mu.Lock()
		late := c.pairer.lateDiscover
		if late != nil {
			c.era = EraModern
		}
		c.mu.Unlock()
		if late == nil {
			return nil, err
		}
		// A dual-era server that took our late probe may refuse initialize (the go-sdk:
		// "duplicate initialize"); its DiscoverResult is the era (stdio §Backward
		// Compatibility: a DiscoverResult means the server is modern).
		c.note("initialize refused (" + err.Error() + ") after the server answered our server/discover probe late with a DiscoverResult: it is modern; continuing in the modern era (--era modern skips the probe)")
		return c.discovered(late)
	default:
		res, err := c.Initialize(ctx)
		if err != nil && c.sseFallback(err) {
			res, err2 := c.Initialize(ctx)
			if err2 != nil {
				return res, &FallbackError{Streamable: err, SSE: err2}
			}
			return res, nil
		}
		return res, err
	}
}

// LegacyOnlyError is the modern era's handshake refused with -32601 (method not found): the
// server does not know server/discover (MCP 2026-07-28), so it speaks the legacy era only
// (initialize). It unwraps to the server's *RPCError.
type LegacyOnlyError struct {
	RPC *RPCError
}

func (e *LegacyOnlyError) Error() string {
	return "the server does not know server/discover (MCP 2026-07-28): it speaks the legacy era only (initialize); use --era auto or --era legacy (" + e.RPC.Error() + ")"
}

func (e *LegacyOnlyError) Unwrap() error { return e.RPC }

func (c *Client) note(text string) {
	c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeNote, PID: c.pid, Text: text}})
}

// noteCond is note for a note that reports condition cond.
func (c *Client) noteCond(cond NoteCond, text string) {
	c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeNote, PID: c.pid, Text: text, Cond: cond}})
}

// outputMark changes whenever the server writes: a stdout frame (the Pairer counts them)
// or a stderr frame.
type outputMark struct {
	frames, stderr uint64
}

func (c *Client) outputMarkLocked() outputMark {
	return outputMark{frames: c.pairer.fromServer, stderr: c.stderrFrames}
}

// probeState is shared by the auto probe's request and its watcher: the probe's id key once
// written, and whether the server wrote anything.
type probeState struct {
	mu     sync.Mutex
	id     string
	output bool
}

func (ps *probeState) sent(_ uint64, id json.RawMessage) {
	ps.mu.Lock()
	ps.id = idKey(id)
	ps.mu.Unlock()
}

func (ps *probeState) sawOutput() bool {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.output
}

// probe runs EraAuto's server/discover: the request may wait up to Config.Timeout, and a
// watcher gives up t.quiet after the server's latest output, so a server still starting
// (silent so far) is waited for and a legacy one that ignores the probe is not. Giving up
// yields a *ProbeTimeoutError; the answer that may still come is the Pairer's business.
func (c *Client) probe(ctx context.Context, t probeTiming) (*InitializeResult, error) {
	ps := &probeState{}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		c.watchProbe(time.Now(), t, ps, stop)
	}()
	res, err := c.discover(ctx, c.cfg.Timeout, ps)
	close(stop)
	<-done
	return res, err
}

// watchProbe polls for server output every t.poll until stop closes. Output seen before the
// probe counts as seen at its start. After t.quiet with no output at all it notes that the
// probe waits for the server to start; t.quiet after the latest output it gives up (giveUp).
func (c *Client) watchProbe(start time.Time, t probeTiming, ps *probeState, stop <-chan struct{}) {
	tick := time.NewTicker(t.poll)
	defer tick.Stop()
	c.mu.Lock()
	mark := c.outputMarkLocked()
	c.mu.Unlock()
	var last time.Time // the latest output seen; zero: none yet
	if mark != (outputMark{}) {
		last = start
	}
	noted := false
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		now := time.Now()
		c.mu.Lock()
		m := c.outputMarkLocked()
		c.mu.Unlock()
		if m != mark {
			mark, last = m, now
		}
		if !last.IsZero() {
			ps.mu.Lock()
			ps.output = true
			ps.mu.Unlock()
		}
		switch {
		case !last.IsZero() && now.Sub(last) >= t.quiet:
			if c.probeGiveUp(ps, &ProbeTimeoutError{After: now.Sub(start), Quiet: t.quiet}) {
				return
			}
		case last.IsZero() && !noted && now.Sub(start) >= t.quiet:
			noted = true
			c.note(fmt.Sprintf("server/discover probe (--era auto): no answer and no output from the server after %s; waiting for it to start (up to %s, --timeout; --era legacy skips the probe)",
				now.Sub(start).Round(100*time.Millisecond), c.cfg.Timeout))
		}
	}
}

// probeGiveUp ends the probe request with e, as a timeout would but with our own reason in
// its notifications/cancelled (not "cancelled by the user": no context is cancelled). It
// returns false when the probe is not written yet (the watcher tries again).
func (c *Client) probeGiveUp(ps *probeState, e *ProbeTimeoutError) bool {
	ps.mu.Lock()
	id := ps.id
	ps.mu.Unlock()
	if id == "" {
		return false
	}
	c.mu.Lock()
	p := c.pending[id]
	c.mu.Unlock()
	if p == nil || !c.abandon(p, "timed out") {
		return true // answered (or failed) meanwhile: its outcome stands
	}
	_ = c.Cancel(p.id, fmt.Sprintf("the server/discover probe gave up: no answer %s after the server's last output", e.Quiet))
	// abandon took p out of the table, so nothing else sends on its 1-slot channel.
	p.ch <- reqOutcome{err: e}
	return true
}

// discover sends server/discover with modern _meta. timeout 0 means the normal request
// timeout. ps is the auto probe's state (nil otherwise): its give-up is reported as a
// *ProbeTimeoutError.
func (c *Client) discover(ctx context.Context, timeout time.Duration, ps *probeState) (*InitializeResult, error) {
	c.mu.Lock()
	c.era = EraModern
	if c.modernVersion == "" {
		c.modernVersion = c.cfg.ProtocolVersion
		if !strings.HasPrefix(c.modernVersion, "2026") {
			c.modernVersion = ModernProtocolVersion
		}
	}
	c.mu.Unlock()
	var resp *Response
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		opt := &RequestOptions{NoProgressToken: true, Timeout: timeout}
		if ps != nil {
			opt.OnSent = ps.sent
		}
		resp, err = c.Request(ctx, "server/discover", nil, opt)
		var rpc *RPCError
		if err != nil && errors.As(err, &rpc) && rpc.Code == -32022 && attempt == 0 {
			var d UnsupportedVersionData
			_ = json.Unmarshal(rpc.Data, &d)
			pick := ""
			for _, v := range d.Supported {
				if strings.HasPrefix(v, "2026") || v > pick {
					pick = v
				}
			}
			if pick == "" {
				break
			}
			c.note(fmt.Sprintf("server does not support %s (supported: %s); retrying server/discover with %s", d.Requested, strings.Join(d.Supported, ", "), pick))
			c.mu.Lock()
			c.modernVersion = pick
			c.mu.Unlock()
			continue
		}
		break
	}
	if err != nil && ps != nil {
		var te *TimeoutError
		if errors.As(err, &te) && !ps.sawOutput() {
			err = &ProbeTimeoutError{After: te.After, Silent: te.After}
		}
	}
	if err != nil {
		var rpc *RPCError
		if c.cfg.Era == EraModern && errors.As(err, &rpc) && rpc.Code == -32601 {
			err = &LegacyOnlyError{RPC: rpc}
		}
		c.mu.Lock()
		c.era = EraLegacy
		c.mu.Unlock()
		if ps == nil {
			// The auto probe's failure is a fallback, not a failed handshake: Connect says
			// which.
			c.discoverFailed(err)
		}
		return nil, err
	}
	if d, derr := DecodeDiscoverResult(resp.Msg.Result); derr == nil && !anyModern(d.Discover.SupportedVersions) {
		// A legacy server that answers server/discover (the go-sdk's stateful one) and
		// then refuses every modern request with -32022: the legacy era, as for -32601.
		err := &LegacyVersionsError{Supported: d.Discover.SupportedVersions}
		c.mu.Lock()
		c.era = EraLegacy
		c.mu.Unlock()
		if ps == nil {
			c.discoverFailed(err)
		}
		return nil, err
	}
	return c.discovered(resp.Msg.Result)
}

// anyModern reports whether versions names a modern-era version (2026-07-28 or later).
func anyModern(versions []string) bool {
	for _, v := range versions {
		if v >= "2026" {
			return true
		}
	}
	return false
}

// LegacyVersionsError is a server/discover answer whose supportedVersions are all
// legacy-era versions: the server speaks the legacy era only (initialize).
type LegacyVersionsError struct {
	Supported []string
}

func (e *LegacyVersionsError) Error() string {
	if len(e.Supported) == 0 {
		return "server/discover lists no supportedVersions: the server speaks the legacy era only (initialize); use --era auto or --era legacy"
	}
	return "server/discover lists only legacy versions (" + strings.Join(e.Supported, ", ") + "): the server speaks the legacy era only (initialize); use --era auto or --era legacy"
}

// discovered opens the modern session from a DiscoverResult: the InitializeResult, its
// warnings as notes, the state and the initialized event.
func (c *Client) discovered(result json.RawMessage) (*InitializeResult, error) {
	res, err := DecodeDiscoverResult(result)
	if err != nil {
		return nil, err
	}
	d := res.Discover
	if _, ok := d.Meta[MetaServerInfo]; !ok {
		res.Warnings = append(res.Warnings, "server/discover result has no _meta serverInfo (servers SHOULD identify themselves)")
	}
	c.mu.Lock()
	version := c.modernVersion
	c.mu.Unlock()
	supported := false
	for _, v := range d.SupportedVersions {
		supported = supported || v == version
	}
	if !supported {
		res.Warnings = append(res.Warnings, fmt.Sprintf("server/discover lists versions %s, not %s", strings.Join(d.SupportedVersions, ", "), version))
	}
	res.ProtocolVersion = version
	for _, w := range res.Warnings {
		c.note(w)
	}
	c.mu.Lock()
	if c.state == StateStarting {
		c.state = StateReady
	}
	c.mu.Unlock()
	c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeInitialized, PID: c.pid, Text: fmt.Sprintf("discovered (modern era): %s %s, protocol %s", res.ServerInfo.Name, res.ServerInfo.Version, version)}})
	return res, nil
}

// DecodeDiscoverResult reads a server/discover result (MCP 2026-07-28), live or recorded,
// as an InitializeResult of the modern era: Discover holds the whole result, the
// capabilities are decoded into Caps (a warning when they do not fit) and ServerInfo is
// read from _meta when present. ProtocolVersion is left for the caller, who knows which
// version it asked for.
func DecodeDiscoverResult(result json.RawMessage) (*InitializeResult, error) {
	var d DiscoverResult
	if err := json.Unmarshal(result, &d); err != nil {
		return nil, fmt.Errorf("server/discover result is not a DiscoverResult: %w", err)
	}
	res := &InitializeResult{Capabilities: d.Capabilities, Instructions: d.Instructions, Era: EraModern, Discover: &d}
	if len(d.Capabilities) > 0 {
		if err := json.Unmarshal(d.Capabilities, &res.Caps); err != nil {
			res.Warnings = append(res.Warnings, "capabilities could not be read: "+err.Error())
		}
	}
	if raw, ok := d.Meta[MetaServerInfo]; ok {
		_ = json.Unmarshal(raw, &res.ServerInfo)
	}
	return res, nil
}

// discoverFailed emits the handshake-failed event of a server/discover that ends Connect.
func (c *Client) discoverFailed(err error) {
	c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeHandshakeFailed, PID: c.pid, Err: err, Text: "server/discover failed: " + err.Error()}})
}

// InputRequired is a modern result asking the client for input (MCP 2026-07-28
// basic/patterns/mrtr): inputRequests keyed by the server's names, and an opaque
// requestState to echo.
type InputRequired struct {
	Requests     map[string]InputRequest
	Order        []string
	RequestState json.RawMessage
}

// InputRequest is one entry of inputRequests.
type InputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// ParseInputRequired reports whether result has resultType "input_required" and decodes it.
func ParseInputRequired(result json.RawMessage) (*InputRequired, bool) {
	var r struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  json.RawMessage            `json:"requestState"`
	}
	if json.Unmarshal(result, &r) != nil || r.ResultType != "input_required" {
		return nil, false
	}
	ir := &InputRequired{Requests: map[string]InputRequest{}, RequestState: r.RequestState}
	for k, raw := range r.InputRequests {
		var req InputRequest
		_ = json.Unmarshal(raw, &req)
		ir.Requests[k] = req
		ir.Order = append(ir.Order, k)
	}
	slices.Sort(ir.Order)
	return ir, true
}

// InputError says a request needed input that was not given.
type InputError struct {
	Method string
	Reason string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("%s needs input from the client (input_required): %s", e.Method, e.Reason)
}

// answerInputs asks Config.OnServerRequest for every input request and waits for all answers.
func (c *Client) answerInputs(ctx context.Context, seq uint64, ir *InputRequired) (map[string]json.RawMessage, error) {
	if c.cfg.OnServerRequest == nil {
		return nil, &InputError{Method: "request", Reason: "no handler for server requests is set"}
	}
	type answer struct {
		key    string
		result json.RawMessage
		err    *RPCError
	}
	ch := make(chan answer, len(ir.Order))
	for _, k := range ir.Order {
		req := ir.Requests[k]
		key := k
		var once sync.Once
		c.cfg.OnServerRequest(&ServerRequest{Method: req.Method, Params: req.Params, Seq: seq, InputKey: key,
			respond: func(result json.RawMessage, e *RPCError) error {
				once.Do(func() { ch <- answer{key, result, e} })
				return nil
			}})
	}
	out := map[string]json.RawMessage{}
	for range ir.Order {
		select {
		case a := <-ch:
			if a.err != nil {
				return nil, &InputError{Method: "request", Reason: fmt.Sprintf("input %q refused: %s", a.key, a.err.Message)}
			}
			out[a.key] = a.result
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.exitDone:
			return nil, c.Err()
		}
	}
	return out, nil
}

// withInputResponses adds inputResponses and the echoed requestState to params for the retry.
func withInputResponses(params any, answers map[string]json.RawMessage, state json.RawMessage) (json.RawMessage, error) {
	var raw json.RawMessage
	switch p := params.(type) {
	case nil:
		raw = json.RawMessage(`{}`)
	case json.RawMessage:
		raw = p
	default:
		b, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		obj = map[string]json.RawMessage{}
	}
	delete(obj, "_meta") // rebuilt for the new request
	ans, _ := json.Marshal(answers)
	obj["inputResponses"] = ans
	if len(state) > 0 {
		obj["requestState"] = state
	} else {
		delete(obj, "requestState")
	}
	return json.Marshal(obj)
}
