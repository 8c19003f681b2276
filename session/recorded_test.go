package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// line is one line of a made-up recording: a frame in a direction, or a lifecycle change.
type line struct {
	dir  mcpclient.Direction
	raw  string
	life *mcpclient.LifeInfo
}

// paired numbers the lines from 1 (1 ms apart), classifies and pairs them as mcp-inspect
// open does.
func paired(lines []line) []mcpclient.Event {
	evs := make([]mcpclient.Event, len(lines))
	p := mcpclient.NewPairer()
	for i, r := range lines {
		e := mcpclient.Event{Seq: uint64(i + 1), Time: t0.Add(time.Duration(i+1) * time.Millisecond), Dir: r.dir, Raw: []byte(r.raw)}
		switch {
		case r.life != nil:
			e.Dir, e.Kind, e.Life = mcpclient.Lifecycle, mcpclient.KindLifecycle, r.life
		case r.dir == mcpclient.Stderr:
			e.Kind = mcpclient.KindStderr
		default:
			e.Kind, e.Msg, e.Problems = mcpclient.Classify([]byte(r.raw))
		}
		evs[i] = e
		p.Add(&evs[i])
	}
	return evs
}

// events is an EventSource over a slice (Seq n at index n-1); missing Seqs are loading,
// and failing ones cannot be read.
type events struct {
	evs     []mcpclient.Event
	missing map[uint64]bool
	failing map[uint64]error
}

func (s *events) Event(seq uint64) (mcpclient.Event, bool, error) {
	if err := s.failing[seq]; err != nil {
		return mcpclient.Event{}, false, err
	}
	if s.missing[seq] || seq == 0 || int(seq) > len(s.evs) {
		return mcpclient.Event{}, false, nil
	}
	return s.evs[seq-1], true, nil
}

// replay feeds every event to a new Recorded and collects what they stood for.
func replay(evs []mcpclient.Event) (*Recorded, []Reaction, *events) {
	r := NewRecorded()
	var out []Reaction
	for i := range evs {
		if o := r.Observe(&evs[i]); o.Handshake != nil || o.Listing != nil {
			out = append(out, o)
		}
	}
	return r, out, &events{evs: evs}
}

func legacyInit(caps string) []line {
	return []line{
		{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"mcp-inspect","version":"0.1.0"}}}`},
		{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":` + caps + `,"serverInfo":{"name":"recorded-demo","version":"9.8.7"},"instructions":"Use echo wisely."}}`},
		{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	}
}

var modernHandshake = []line{
	{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"host","version":"3"},"io.modelcontextprotocol/clientCapabilities":{"sampling": {}}}}}`},
	{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modern-one","version":"2.0"}}}}`},
}

// The handshake, both pages of a listing, resources with templates, prompts, and the
// calls: ok, isError, a JSON-RPC error and one left unanswered.
func TestRecordedDerivesHandshakeListsAndCalls(t *testing.T) {
	lines := append(legacyInit(`{"tools":{},"resources":{},"prompts":{}}`),
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","description":"Echoes its input","inputSchema":{"type":"object"}}],"nextCursor":"p2"}}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"p2"}}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"add","inputSchema":{"type":"object"}}]}}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":3,"method":"resources/list"}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":3,"result":{"resources":[{"uri":"file:///readme.md","name":"readme"}]}}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":4,"method":"resources/templates/list"}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":4,"result":{"resourceTemplates":[{"uriTemplate":"file:///{path}","name":"files"}]}}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":5,"method":"prompts/list"}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":5,"result":{"prompts":[{"name":"greet","description":"Says hello"}]}}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello offline"}}}`}, // seq 14
		line{dir: mcpclient.Stderr, raw: "echo called\n"},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":6,"result":{"content":[{"type":"text","text":"echoed: hello offline"}]}}`}, // seq 16
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"b is required"}],"isError":true}}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"nope","arguments":{}}}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"Unknown tool: nope"}}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"text":"never answered"}}}`},
	)
	r, obs, src := replay(paired(lines))
	if r.CanSend() {
		t.Fatal("a recording can send")
	}
	var _ Session = r
	if len(obs) != 5 {
		t.Fatalf("observed %d results, want handshake + 4 listings: %+v", len(obs), obs)
	}
	h := obs[0].Handshake
	if h == nil || h.Err != nil || h.Result.ServerInfo.Name != "recorded-demo" || h.Result.ServerInfo.Version != "9.8.7" || h.Result.ProtocolVersion != "2025-11-25" ||
		h.Result.Instructions != "Use echo wisely." || h.Result.Caps.Tools == nil || r.State().Init != h.Result || r.State().Era() != mcpclient.EraLegacy {
		t.Fatalf("handshake %+v", h)
	}
	if c := r.Client(); c == nil || c.Info != "mcp-inspect 0.1.0" || string(c.Caps) != `{"roots":{}}` {
		t.Fatalf("client %+v", c)
	}
	tl := obs[1].Listing
	if tl.List != Tools || len(tl.Tools) != 2 || tl.Tools[0].Name != "echo" || tl.Tools[1].Name != "add" || tl.Err != nil || len(tl.Warnings) != 0 || tl.Len() != 2 {
		t.Fatalf("tools listing %+v", tl)
	}
	res, tmpl := obs[2].Listing, obs[3].Listing
	if res.List != Resources || len(res.Resources) != 1 || len(res.Templates) != 0 || len(tmpl.Resources) != 1 || len(tmpl.Templates) != 1 || tmpl.Templates[0].Name != "files" {
		t.Fatalf("resources %+v then %+v", res, tmpl)
	}
	if pl := obs[4].Listing; pl.List != Prompts || len(pl.Prompts) != 1 || pl.Prompts[0].Name != "greet" {
		t.Fatalf("prompts %+v", pl)
	}

	if r.Calls() != 4 {
		t.Fatalf("%d calls", r.Calls())
	}
	want := []struct {
		tool    string
		outcome Outcome
		words   string
	}{{"echo", OutcomeOK, "ok"}, {"add", OutcomeIsError, "isError"}, {"nope", OutcomeRPCError, "error -32602"}, {"echo", OutcomeNone, "no response"}}
	for i, w := range want {
		c := r.Call(i)
		if c.Tool != w.tool || c.Outcome != w.outcome || c.Outcome.Words(-32602) != w.words || c.Rounds != 1 {
			t.Errorf("call %d: %+v, want %+v", i, c, w)
		}
	}
	if got := r.CallsOf("echo"); len(got) != 2 || got[0] != 0 || got[1] != 3 || r.CallsOf("zzz") != nil {
		t.Errorf("calls of echo %v", got)
	}
	d := r.Detail(0, src)
	if d == nil || d.Err != nil || d.Res == nil || d.Res.Content[0].Text != "echoed: hello offline" || string(d.Args) != `{"text":"hello offline"}` ||
		d.Elapsed != 2*time.Millisecond || d.ReqSeq != 14 || d.Resp.Seq != 16 || d.Resp.RequestSeq != 14 || !d.RespSeen || d.ID != 1 {
		t.Fatalf("detail 0 %+v", d)
	}
	if r.Detail(0, src) != d {
		t.Error("the detail is built again though nothing changed")
	}
	if d := r.Detail(1, src); d.Res == nil || !d.Res.IsError {
		t.Errorf("isError detail %+v", d)
	}
	var rpc *mcpclient.RPCError
	if d := r.Detail(2, src); !errors.As(d.Err, &rpc) || rpc.Message != "Unknown tool: nope" {
		t.Errorf("error detail %+v", d)
	}
	if d := r.Detail(3, src); !errors.As(d.Err, new(NoResponseError)) || !strings.Contains(d.Err.Error(), "no response in the recording") || string(d.Args) != `{"text":"never answered"}` {
		t.Errorf("unanswered detail %+v", d)
	}
}

// A call's events still loading give no detail; one that cannot be read says so.
func TestRecordedDetailLoads(t *testing.T) {
	lines := append(legacyInit(`{"tools":{}}`),
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":{}}}`}, // 4
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":6,"result":{"content":[]}}`},                                       // 5
	)
	r, _, src := replay(paired(lines))
	src.missing = map[uint64]bool{5: true}
	if d := r.Detail(0, src); d != nil {
		t.Fatalf("detail while the response loads: %+v", d)
	}
	src.missing = nil
	src.failing = map[uint64]error{5: errors.New("bad line")}
	if d := r.Detail(0, src); d == nil || d.Err == nil || d.Err.Error() != "the response could not be read back from the trace: bad line" {
		t.Fatalf("detail of an unreadable response: %+v", d)
	}
	r2, _, src2 := replay(paired(lines))
	src2.failing = map[uint64]error{4: errors.New("bad line")}
	if d := r2.Detail(0, src2); d == nil || d.Err.Error() != "the request could not be read back from the trace: bad line" {
		t.Fatalf("detail of an unreadable request: %+v", d)
	}
}

// A modern recording's server/discover answer is the handshake: serverInfo from _meta,
// the version the request asked for, the client from the request's _meta.
func TestRecordedModernDiscover(t *testing.T) {
	r, obs, _ := replay(paired(modernHandshake))
	if len(obs) != 1 || obs[0].Handshake == nil {
		t.Fatalf("observed %+v", obs)
	}
	in := r.State().Init
	if in == nil || in.ServerInfo.Name != "modern-one" || in.ProtocolVersion != "2026-07-28" || r.State().Era() != mcpclient.EraModern || in.Caps.Tools == nil {
		t.Fatalf("init %+v", in)
	}
	if c := r.Client(); c == nil || c.Info != "host 3" || string(c.Caps) != `{"sampling":{}}` {
		t.Fatalf("client %+v", c)
	}
	// No version asked: the newest the server lists.
	lines := []line{
		{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`},
		{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28","2027-01-01"],"capabilities":{}}}`},
	}
	if r, _, _ := replay(paired(lines)); r.State().Init.ProtocolVersion != "2027-01-01" {
		t.Fatalf("version %q", r.State().Init.ProtocolVersion)
	}
	// A failed discover (the auto probe of a legacy server) is no handshake; a failed
	// initialize is, until one succeeded.
	lines = []line{
		{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`},
		{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`},
		{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}`},
		{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"broken"}}`},
	}
	if _, obs, _ := replay(paired(lines)); len(obs) != 1 || obs[0].Handshake.Err == nil || !strings.HasSuffix(obs[0].Handshake.Err.Error(), ": broken") {
		t.Fatalf("failed handshake %+v", obs)
	}
}

// A modern call answered input_required and sent again with inputResponses is one call
// whose result is the last round's, timed from the first request to the last response.
func TestRecordedInputRoundsAreOneCall(t *testing.T) {
	long := "test_input_required_result_multi_round"
	asked := func(id int, state string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"resultType":"input_required","content":null,"inputRequests":{"a":{"method":"roots/list"},"b":{"method":"sampling/createMessage","params":{}}},"requestState":"%s"}}`, id, state)
	}
	lines := append(append([]line(nil), modernHandshake...),
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + long + `","arguments":{"q":1}}}`}, // seq 3
		line{dir: mcpclient.ServerToClient, raw: asked(2, "s1")}, // seq 4
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"` + long + `","arguments":{"q":1},"inputResponses":{"a":{},"b":{}},"requestState":"s1"}}`},
		line{dir: mcpclient.ServerToClient, raw: asked(3, "s2")}, // seq 6
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"` + long + `","arguments":{"q":1},"inputResponses":{"a":{},"b":{}},"requestState":"s2"}}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"all rounds done"}]}}`}, // seq 8
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{}}}`},   // seq 9
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"e"}]}}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"ask_once","arguments":{}}}`}, // seq 11
		line{dir: mcpclient.ServerToClient, raw: asked(6, "s9")},                                                                               // seq 12
	)
	r, _, src := replay(paired(lines))
	if r.Calls() != 3 {
		t.Fatalf("%d calls, want 3 (later rounds are not calls of their own)", r.Calls())
	}
	c := r.Call(0)
	if c.ReqSeq != 3 || c.RespSeq != 8 || c.Rounds != 3 || c.Outcome != OutcomeOK {
		t.Fatalf("multi-round call %+v", c)
	}
	if rs := r.RoundAnswers(0); len(rs) != 2 || rs[0] != 4 || rs[1] != 6 {
		t.Fatalf("round answers %v", rs)
	}
	d := r.Detail(0, src)
	if d.Err != nil || d.Res.Content[0].Text != "all rounds done" || d.Elapsed != 5*time.Millisecond || d.Rounds != 3 || d.FirstSeq != 3 || d.Resp.Seq != 8 {
		t.Fatalf("multi-round detail %+v", d)
	}
	if got := AskedOf(&src.evs[3]); got != "roots/list, sampling/createMessage" {
		t.Fatalf("asked of round 1: %q", got)
	}
	if c := r.Call(1); c.Rounds != 1 || c.Outcome != OutcomeOK {
		t.Fatalf("plain call %+v", c)
	}
	c = r.Call(2)
	if c.Outcome != OutcomeInputAsked || c.Outcome.Words(0) != "input asked" || c.Rounds != 1 {
		t.Fatalf("asking call %+v", c)
	}
	d = r.Detail(2, src)
	if d.Res != nil || d.Err == nil || !strings.Contains(d.Err.Error(), "asked for input (input_required: roots/list, sampling/createMessage)") || !strings.Contains(d.Err.Error(), "no next round") ||
		d.Elapsed != time.Millisecond || d.Rounds != 1 {
		t.Fatalf("asking detail %+v", d)
	}
}

// A call the client cancelled reads "cancelled" with the time until the cancel; a
// response after the cancel is late, not the result; "timed out" is a timeout.
func TestRecordedCancelledCall(t *testing.T) {
	lines := append(legacyInit(`{"tools":{}}`)[:2],
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"sleep","arguments":{"seconds":88}}}`}, // seq 3
		line{dir: mcpclient.Stderr, raw: "sleeping\n"},
		line{dir: mcpclient.Stderr, raw: "still sleeping\n"},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8,"reason":"cancelled by the user"}}`}, // seq 6
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"woke up anyway"}]}}`},                        // seq 7
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"sleep","arguments":{"seconds":1}}}`},             // seq 8
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9,"reason":"timed out after 2s"}}`},    // seq 9
	)
	r, _, src := replay(paired(lines))
	if c := r.Call(0); c.Outcome != OutcomeCancelled || c.Outcome.Words(0) != "cancelled" || c.RespSeq != 6 {
		t.Fatalf("cancelled call %+v", c)
	}
	if seq, ok := r.Late(0); !ok || seq != 7 {
		t.Fatalf("late %d %v", seq, ok)
	}
	if d := r.Detail(0, src); !errors.Is(d.Err, context.Canceled) || d.Elapsed != 3*time.Millisecond || d.Res != nil {
		t.Fatalf("cancelled detail %+v", d)
	}
	if c := r.Call(1); c.Outcome != OutcomeTimedOut || c.Outcome.Words(0) != "timed out" {
		t.Fatalf("timed-out call %+v", c)
	}
	if _, ok := r.Late(1); ok {
		t.Fatal("late response for the timed-out call")
	}
	if d := r.Detail(1, src); d.Err == nil || d.Err.Error() != "timed out after 1ms: the client gave up and sent notifications/cancelled (#9)" {
		t.Fatalf("timed-out detail %+v", d)
	}
}

// A call waiting when the server exited (not closed by the session) fails there even
// when an answer comes after; a call open when the session closed the server stays
// unanswered.
func TestRecordedCallFailsAtTheServersExit(t *testing.T) {
	lines := append(legacyInit(`{"tools":{}}`)[:2],
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"other","arguments":{}}}`},       // seq 3
		line{life: &mcpclient.LifeInfo{Kind: mcpclient.LifeExited, ExitCode: -1, Signal: "killed", Text: "server was killed by signal KILL"}},     // seq 4
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":6,"result":{"content":[{"type":"text","text":"answered from beyond"}]}}`}, // seq 5
		line{life: &mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, PID: 2, Text: "started pid 2"}},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"other","arguments":{}}}`}, // seq 7
		line{life: &mcpclient.LifeInfo{Kind: mcpclient.LifeShutdown, Text: "closing the server's stdin"}},
		line{life: &mcpclient.LifeInfo{Kind: mcpclient.LifeExited, Text: "server exited with code 0"}},
	)
	r, _, src := replay(paired(lines))
	c := r.Call(0)
	if c.Outcome != OutcomeServerExited || c.Outcome.Words(0) != "server exited" || c.RespSeq != 4 {
		t.Fatalf("exited call %+v", c)
	}
	if seq, ok := r.Late(0); !ok || seq != 5 {
		t.Fatalf("late %d %v", seq, ok)
	}
	d := r.Detail(0, src)
	if d.Err == nil || d.Err.Error() != "server was killed by signal KILL (event #4) while request #3 (tools/call other) was pending" || d.Elapsed != time.Millisecond {
		t.Fatalf("exited detail %+v", d)
	}
	if c := r.Call(1); c.Outcome != OutcomeNone {
		t.Fatalf("call of a closed session %+v", c)
	}
}

// A listing with a name twice warns as the live listing does; the resources warning is
// carried once.
func TestRecordedListingWarnings(t *testing.T) {
	lines := append(legacyInit(`{"tools":{},"resources":{},"prompts":{}}`)[:2],
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}},{"name":"add","inputSchema":{"type":"object"}},{"name":"echo","inputSchema":{"type":"object"}},"not a tool"]}}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":2,"method":"resources/list"}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":2,"result":{"resources":[{"uri":"file:///a","name":"a"},{"uri":"file:///a","name":"a again"}]}}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":4,"method":"resources/templates/list"}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":4,"result":{"resourceTemplates":[]}}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":3,"method":"prompts/list"}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":3,"result":{"nothing":[]}}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":5,"method":"prompts/list"}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":5,"result":[]}`},
	)
	r, obs, _ := replay(paired(lines))
	tl := obs[1].Listing
	if len(tl.Tools) != 3 || len(tl.Warnings) != 2 || !strings.HasPrefix(tl.Warnings[0], "tools/list: 2 entries") || !strings.HasPrefix(tl.Warnings[1], "tools/list entry 3 could not be read: ") {
		t.Fatalf("tools %+v", tl)
	}
	rl := obs[2].Listing
	if len(rl.Resources) != 2 || len(rl.Warnings) != 1 || !strings.HasPrefix(rl.Warnings[0], "resources/list: 2 entries") {
		t.Fatalf("resources %+v", rl)
	}
	if tm := obs[3].Listing; len(tm.Resources) != 2 || len(tm.Warnings) != 0 {
		t.Fatalf("templates %+v", tm)
	}
	if w := r.ResourceWarnings(); len(w) != 1 || !strings.HasPrefix(w[0], "resources/list: 2 entries") {
		t.Fatalf("resource warnings %q", w)
	}
	if pl := obs[4].Listing; len(pl.Prompts) != 0 || pl.Err != nil || len(pl.Warnings) != 1 || pl.Warnings[0] != `prompts/list result has no "prompts" array` {
		t.Fatalf("prompts without the array %+v", pl)
	}
	if pl := obs[5].Listing; pl.Err == nil || !strings.HasPrefix(pl.Err.Error(), "prompts/list result is not an object: ") {
		t.Fatalf("prompts not an object %+v", pl)
	}
}

// Lost trace lines are counted from the event's typed count, and said where.
func TestRecordedLostTraceLines(t *testing.T) {
	evs := paired(append(legacyInit(`{"tools":{}}`),
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":9,"result":{"tools":[]}}`}))
	MarkLostLines(&evs[2], []string{"bad json", "cut"})
	MarkLostLines(&evs[4], nil)
	if evs[2].LostLines != 2 || evs[4].LostLines != 0 {
		t.Fatalf("lost lines %d %d", evs[2].LostLines, evs[4].LostLines)
	}
	r, _, _ := replay(evs)
	if r.LostLines() != 2 {
		t.Fatalf("lost %d", r.LostLines())
	}
	w := r.TraceWarnings()
	if len(w) != 1 || w[0] != "trace: before event #3: 2 trace lines just before this event could not be read (first: bad json); the events on them are missing here" {
		t.Fatalf("warnings %q", w)
	}
	// The unknown id of an answer whose request may have been lost is not the server's fault.
	for _, p := range evs[4].Problems {
		if p.Code == "unknown-id" && (p.Severity >= mcpclient.Warning || !strings.Contains(p.Text, "trace lines were lost")) {
			t.Fatalf("unknown id blamed on the server: %+v", p)
		}
	}
	one := paired(legacyInit(`{}`))
	MarkLostLines(&one[1], []string{"x"})
	if one[1].LostLines != 1 || !strings.HasPrefix(one[1].Problems[len(one[1].Problems)-1].Text, "1 trace line(s) just before this event could not be read (x)") {
		t.Fatalf("one lost %+v", one[1])
	}
}

// A tools/call answered with a CreateTaskResult ends as its task did: the terminal
// tasks/get answer or notifications/tasks; "task running" for a task left unfinished.
func TestRecordedTaskCallShowsTheTaskResult(t *testing.T) {
	created := func(id string) string {
		return `{"resultType":"task","taskId":"` + id + `","status":"working","ttlMs":600000,"pollIntervalMs":50}`
	}
	lines := append(append([]line(nil), modernHandshake...),
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"task_greet","arguments":{"who":"Ada"}}}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":2,"result":` + created("t-one") + `}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"t-one"}}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","taskId":"t-one","status":"working"}}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"task_fail","arguments":{}}}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":4,"result":` + created("t-two") + `}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","method":"notifications/tasks","params":{"taskId":"t-two","status":"failed","error":{"code":-32000,"message":"the disk is full"}}}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":5,"method":"tasks/get","params":{"taskId":"t-one"}}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":5,"result":{"resultType":"complete","taskId":"t-one","status":"completed","result":{"content":[{"type":"text","text":"Hello, Ada!"}]}}}`}, // seq 11
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"task_slow","arguments":{}}}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":6,"result":` + created("t-three") + `}`},
	)
	r, _, src := replay(paired(lines))
	for i, w := range []string{"ok (task)", "task failed", "task running"} {
		if got := r.Call(i).Outcome.Words(0); got != w {
			t.Errorf("call %d reads %q, want %q", i, got, w)
		}
	}
	d := r.Detail(0, src)
	if d.Err != nil || d.Res.Content[0].Text != "Hello, Ada!" || d.Task == nil || d.Task.TaskID != "t-one" || d.Task.Status != "completed" || !d.ViaTask || d.ReqSeq != 3 || d.Resp.Seq != 11 || d.Resp.RequestSeq != 3 {
		t.Fatalf("completed task %+v", d)
	}
	if d := r.Detail(1, src); d.Err == nil || !strings.Contains(d.Err.Error(), "the disk is full") || d.Task.Status != "failed" {
		t.Fatalf("failed task %+v", d)
	}
	if d := r.Detail(2, src); d.Err == nil || !strings.Contains(d.Err.Error(), "t-three was still working when the recording ended") || d.Task.Status != "working" {
		t.Fatalf("unfinished task %+v", d)
	}
}

// A task call still working when the server was killed reads "server exited"; its
// detail names the CreateTaskResult and the task's last known status.
func TestRecordedTaskEndsAtTheServersExit(t *testing.T) {
	lines := append(append([]line(nil), modernHandshake...),
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"task_slow","arguments":{}}}`}, // seq 3
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":2,"result":{"resultType":"task","taskId":"t-9","status":"working","ttlMs":600000,"pollIntervalMs":50}}`},
		line{dir: mcpclient.ClientToServer, raw: `{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"t-9"}}`},
		line{dir: mcpclient.ServerToClient, raw: `{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","taskId":"t-9","status":"working"}}`},
		line{life: &mcpclient.LifeInfo{Kind: mcpclient.LifeExited, ExitCode: -1, Signal: "killed", Text: "server was killed by signal KILL"}}, // seq 7
	)
	r, _, src := replay(paired(lines))
	c := r.Call(0)
	if c.Outcome.Words(0) != "server exited" || !r.DeadTask(0) {
		t.Fatalf("task call %+v", c)
	}
	d := r.Detail(0, src)
	if d.Err == nil || d.Err.Error() != "server was killed by signal KILL (event #7) while task t-9 of tools/call task_slow (request #3) was still running" ||
		d.Resp == nil || d.Resp.Seq != 4 || d.Resp.RequestSeq != 3 || d.Task == nil || d.Task.Status != "working" || d.Elapsed != 4*time.Millisecond {
		t.Fatalf("task detail %+v", d)
	}
}

// TestRecordedAttached: a tap's session says so; a trace's does not; neither can send.
func TestRecordedAttached(t *testing.T) {
	if NewRecorded().Attached() || !NewAttached().Attached() {
		t.Error("Attached does not tell a tap from a trace")
	}
	if NewAttached().CanSend() || NewRecorded().CanSend() {
		t.Error("a recorded session can send")
	}
}
