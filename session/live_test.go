package session

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// clock is a settable clock; each reading advances it by step.
type clock struct {
	at   time.Time
	step time.Duration
}

func (c *clock) now() time.Time {
	t := c.at
	c.at = c.at.Add(c.step)
	return t
}

// roundsConn answers tools/call in three rounds (Seqs 8, 15, 23), as Request does for a
// modern server that answers input_required twice, with result as the final answer.
type roundsConn struct {
	Conn
	result string
	last   time.Duration
}

func (c *roundsConn) Request(ctx context.Context, method string, params any, opt *mcpclient.RequestOptions) (*mcpclient.Response, error) {
	for _, seq := range []uint64{8, 15, 23} {
		opt.OnSent(seq, json.RawMessage("1"))
	}
	return &mcpclient.Response{Seq: 24, RequestSeq: 23, Elapsed: c.last,
		Msg: &mcpclient.Message{JSONRPC: "2.0", ID: json.RawMessage("3"), Result: json.RawMessage(c.result)}}, nil
}

// A multi-round call counts its time from the first request to the final response, and
// says the rounds and the first request.
func TestCallRoundsTotalTime(t *testing.T) {
	clk := &clock{at: t0, step: 40 * time.Millisecond}
	s := NewLive(context.Background(), &roundsConn{result: `{"content":[{"type":"text","text":"3"}]}`, last: 34 * time.Millisecond}, ClientFeatures{}, nil, clk.now)
	sent := make(chan uint64, 8)
	r := s.Call(context.Background(), "add", json.RawMessage(`{"a":1}`), sent)
	if r.Err != nil || r.Res == nil || r.Res.Content[0].Text != "3" || r.Rounds != 3 || r.FirstSeq != 8 || r.Total != 2*40*time.Millisecond+34*time.Millisecond {
		t.Fatalf("call %+v", r)
	}
	var seqs []uint64
	for seq := range sent {
		seqs = append(seqs, seq)
	}
	if len(seqs) != 3 || seqs[2] != 23 {
		t.Fatalf("sent %v", seqs)
	}
}

// A CreateTaskResult is the task to follow, not the call's result; a result that is not a
// CallToolResult is an error.
func TestCallResults(t *testing.T) {
	s := NewLive(context.Background(), &roundsConn{result: `{"resultType":"task","taskId":"t1","status":"working"}`}, ClientFeatures{}, nil, nil)
	r := s.Call(context.Background(), "slow", nil, make(chan uint64, 8))
	if r.Task == nil || r.Task.TaskID != "t1" || r.Res != nil || r.Err != nil || r.Rounds != 0 {
		t.Fatalf("task call %+v", r)
	}
	s = NewLive(context.Background(), &roundsConn{result: `[]`}, ClientFeatures{}, nil, nil)
	if r := s.Call(context.Background(), "x", nil, make(chan uint64, 8)); r.Err == nil || !strings.HasPrefix(r.Err.Error(), "tools/call result is not a CallToolResult: ") {
		t.Fatalf("bad result %+v", r)
	}
}

// A live session on a real (fake) server process: the handshake, the first listings, a
// call, a server request answered through the queue, and the close.
func TestLiveSessionOnFakeServer(t *testing.T) {
	q := NewRequestQueue(nil)
	f := ClientFeatures{NoSampling: true}
	cfg := mcpclient.Config{Command: fake.Binary(t), Args: []string{"--scenario", "b13-roots"}, Timeout: 10 * time.Second, ShutdownGrace: 500 * time.Millisecond}
	f.Configure(&cfg, q)
	c, err := mcpclient.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for range c.Events() {
		}
	}()
	t.Cleanup(func() { c.Close() })
	ctx := context.Background()
	s := NewLive(ctx, c, f, q, nil)
	if !s.CanSend() || s.State().Init != nil || s.State().Era() != mcpclient.EraLegacy {
		t.Fatal("before the handshake")
	}
	h := s.Handshake(ctx)
	first, listTasks := s.Connected(h)
	if h.Err != nil || s.State().Init == nil || len(first) != 1 || first[0] != Tools || listTasks || !s.Lists().InFlight(Tools) {
		t.Fatalf("connected %+v %v %v", h, first, listTasks)
	}
	l := s.List(ctx, Tools)
	if l.Err != nil || len(l.Tools) != 1 || l.Tools[0].Name != "summarize" {
		t.Fatalf("tools %+v", l)
	}
	if again, note := s.Lists().Listed(Tools, l.Len(), l.Err, ""); again || note != nil {
		t.Fatalf("first listing: %v %+v", again, note)
	}
	s.Roots().Add(RootsFromPaths([]string{t.TempDir()}))
	if !s.RootsChanged() {
		t.Fatal("legacy roots change not announced")
	}
	done := make(chan CallResult, 1)
	go func() { done <- s.Call(ctx, "summarize", json.RawMessage(`{"text":"x"}`), make(chan uint64, 4)) }()
	reqs, err := q.Next(ctx)
	if err != nil || len(reqs) != 1 || reqs[0].Method != "roots/list" || reqs[0].Modern() || string(reqs[0].ID) != "1" {
		t.Fatalf("server requests %+v %v", reqs, err)
	}
	d := s.Features().Decide(reqs[0].Method, reqs[0].Params, s.Roots().List, true)
	if d.Ask || d.Err != nil || len(d.Roots) != 1 {
		t.Fatalf("decision %+v", d)
	}
	if a := Answer(reqs[0], mcpclient.RootsResult(d.Roots), nil, "sent 1 root"); a.Err != nil || a.Note().Text != "roots/list: sent 1 root" {
		t.Fatalf("answer %+v", a)
	}
	r := <-done
	if r.Err != nil || r.Res == nil || r.Rounds != 1 {
		t.Fatalf("call %+v", r)
	}
	s.Close(nil)
}

// Session-level notes and the listen stream's filter come from the handshake.
func TestLiveNotesAndListen(t *testing.T) {
	s := NewLive(context.Background(), nil, ClientFeatures{}, nil, nil)
	if _, _, _, ok := s.OpenListen(nil); ok {
		t.Fatal("listen before the handshake")
	}
	if n := s.LogLevelNote("debug", nil); n.Text != "logging/setLevel debug accepted" {
		t.Fatal(n)
	}
	s.Connected(Handshake{Result: &mcpclient.InitializeResult{Era: mcpclient.EraModern, Caps: mcpclient.ServerCapabilities{Tools: &mcpclient.ListChangedCap{ListChanged: true}}}})
	if n := s.LogLevelNote("debug", nil); n.Text != "log level debug: sent in each request's _meta from now on (modern era)" {
		t.Fatal(n)
	}
	if n := s.LogLevelNote("debug", errors.New("x")); n != (Note{Error, "setting the log level to debug failed: x"}) {
		t.Fatal(n)
	}
	gen, ctx, f, ok := s.OpenListen([]string{"file:///a"})
	if !ok || gen != 1 || ctx == nil || !f.ToolsListChanged || len(f.ResourceSubscriptions) != 1 || !s.Stream().On() || s.RootsChanged() {
		t.Fatalf("listen %d %+v %v", gen, f, ok)
	}
	o, _ := s.StartOp("resources/read", "file:///a")
	if !o.Running() || s.Inflight().Running() != 1 {
		t.Fatal("op")
	}
	s.Close(nil)
	if ctx.Err() == nil || s.Stream().On() {
		t.Fatal("close")
	}
	if PingNote(1234567*time.Nanosecond, nil).Text != "ping: 1.23ms round trip" || PingNote(0, errors.New("x")).Text != "ping failed: x" {
		t.Fatal(PingNote(1234567*time.Nanosecond, nil))
	}
}
