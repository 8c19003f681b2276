package trace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// problemCodes lists a frame's problem codes.
func problemCodes(ev *mcpclient.Event) []string {
	var out []string
	for _, p := range ev.Problems {
		out = append(out, string(p.Code))
	}
	return out
}

// sameEvent compares what the trace must reproduce of a live event: everything stored and
// everything derived.
func sameEvent(t *testing.T, live, got *mcpclient.Event) {
	t.Helper()
	where := fmt.Sprintf("seq %d (%s %s)", live.Seq, live.Dir, live.Kind)
	if got.Seq != live.Seq || got.Dir != live.Dir || got.Kind != live.Kind {
		t.Errorf("%s: loaded as seq %d %s %s", where, got.Seq, got.Dir, got.Kind)
	}
	if !bytes.Equal(got.Raw, live.Raw) || got.Size != live.Size {
		t.Errorf("%s: raw %q (%d) != live %q (%d)", where, got.Raw, got.Size, live.Raw, live.Size)
	}
	if live.Dir != mcpclient.Lifecycle && (got.Offset != live.Offset || got.Line != live.Line) {
		t.Errorf("%s: offset/line %d/%d != live %d/%d", where, got.Offset, got.Line, live.Offset, live.Line)
	}
	if got.ChunkCount != live.ChunkCount || !reflect.DeepEqual(got.Chunks, live.Chunks) {
		t.Errorf("%s: chunks %v/%d != live %v/%d", where, got.Chunks, got.ChunkCount, live.Chunks, live.ChunkCount)
	}
	// The live client leaves Pair unset on notifications/cancelled; the loader links it.
	cancelled := live.Msg != nil && live.Msg.Method == "notifications/cancelled"
	if !cancelled && (got.Pair != live.Pair || got.Method != live.Method) {
		t.Errorf("%s: pair %d %q != live %d %q", where, got.Pair, got.Method, live.Pair, live.Method)
	}
	if !reflect.DeepEqual(problemCodes(got), problemCodes(live)) {
		t.Errorf("%s: problems %v != live %v", where, problemCodes(got), problemCodes(live))
	}
	if (got.Msg == nil) != (live.Msg == nil) {
		t.Errorf("%s: parsed message presence differs", where)
	}
	if d := got.Time.Sub(live.Time); d > time.Millisecond || d < -time.Millisecond {
		// Times are rebuilt from the header's wall-clock start plus the monotonic offset, while
		// the live time's wall clock may be slewed (NTP) by microseconds over a session.
		t.Errorf("%s: time off by %v", where, d)
	}
	if live.Life != nil {
		l, g := live.Life, got.Life
		if g == nil || g.Kind != l.Kind || g.PID != l.PID || g.Text != l.Text || g.Signal != l.Signal ||
			(l.Kind == mcpclient.LifeExited && g.ExitCode != l.ExitCode) || (l.Err == nil) != (g.Err == nil) {
			t.Errorf("%s: life %+v != live %+v", where, g, l)
		}
	}
}

func checkSame(t *testing.T, s *session) []mcpclient.Event {
	t.Helper()
	tr := openTrace(t, s.path)
	if len(tr.Warnings) > 0 || tr.Truncated {
		t.Errorf("warnings on a clean trace: %v", tr.Warnings)
	}
	got := loadEvents(t, tr)
	if len(got) != len(s.live) || tr.Len() != len(s.live) {
		t.Fatalf("trace has %d events (Len %d), live session had %d", len(got), tr.Len(), len(s.live))
	}
	for i := range got {
		sameEvent(t, &s.live[i], &got[i])
		// Random access gives the same bytes.
		ev, err := tr.Event(i)
		if err != nil || !bytes.Equal(ev.Raw, s.live[i].Raw) {
			t.Errorf("Event(%d): %v %q", i, err, ev.Raw)
		}
	}
	return got
}

// TestRoundTripFakeScenarios records sessions with odd frames and checks the loader
// rebuilds every event, stored and derived data alike, as the live client made it.
func TestRoundTripFakeScenarios(t *testing.T) {
	t.Parallel()
	callAll := func(tool string, args string) func(ctx context.Context, c *mcpclient.Client) {
		return func(ctx context.Context, c *mcpclient.Client) {
			if _, err := c.Initialize(ctx); err != nil {
				return
			}
			_, _, _ = c.ListTools(ctx)
			_, _, _ = c.CallTool(ctx, tool, json.RawMessage(args))
			time.Sleep(100 * time.Millisecond) // what follows the response
		}
	}
	cases := []struct {
		scenario string
		env      []string
		drive    func(ctx context.Context, c *mcpclient.Client)
		check    func(t *testing.T, evs []mcpclient.Event)
	}{
		{scenario: "minimal", drive: callAll("echo", `{"text":"hi"}`)},
		{scenario: "b01", drive: callAll("echo", `{}`), check: func(t *testing.T, evs []mcpclient.Event) {
			wantKind(t, evs, mcpclient.KindNotJSON)
		}},
		{scenario: "b02b", drive: callAll("echo", `{"text":"bytewise"}`)},
		{scenario: "b02", drive: callAll("echo", `{"text":"split"}`), check: func(t *testing.T, evs []mcpclient.Event) {
			// initialize's response comes in two writes 200 ms apart: one chunk mark.
			for _, ev := range evs {
				if ev.Pair != 0 && ev.Method == "initialize" && ev.ChunkCount == 1 && len(ev.Chunks) == 1 && ev.Chunks[0] == 40 {
					return
				}
			}
			t.Error("the split initialize response has no chunk mark at byte 40")
		}},
		{scenario: "b05", drive: callAll("snippet", `{}`), check: func(t *testing.T, evs []mcpclient.Event) {
			wantProblem(t, evs, "invalid-utf8")
		}},
		{scenario: "b07", drive: func(ctx context.Context, c *mcpclient.Client) {
			time.Sleep(200 * time.Millisecond) // the notification comes first
			callAll("echo", `{}`)(ctx, c)
		}, check: func(t *testing.T, evs []mcpclient.Event) {
			wantProblem(t, evs, "before-initialize")
		}},
		{scenario: "b03", drive: func(ctx context.Context, c *mcpclient.Client) {
			c.Initialize(ctx)
			c.CallTool(ctx, "big", json.RawMessage(`{"bytes":300000}`))
		}},
		{scenario: "b10", drive: callAll("crash", `{}`), check: func(t *testing.T, evs []mcpclient.Event) {
			last := evs[len(evs)-1]
			for _, ev := range evs {
				if ev.Life != nil && ev.Life.Kind == mcpclient.LifeExited {
					last = ev
				}
			}
			if last.Life == nil || last.Life.Signal != "KILL" {
				t.Errorf("no exit by SIGKILL in the trace: %+v", last.Life)
			}
		}},
		{scenario: "b11", env: []string{fake.EnvStepMS + "=10", fake.EnvSteps + "=5"}, drive: callAll("slow", `{"seconds":25}`), check: func(t *testing.T, evs []mcpclient.Event) {
			n := 0
			for _, ev := range evs {
				if ev.Msg != nil && ev.Msg.Method == "notifications/progress" && ev.Pair != 0 {
					n++
				}
			}
			if n != 5 {
				t.Errorf("%d paired progress notifications, want 5", n)
			}
		}},
		{scenario: "b12", env: []string{fake.EnvSleepMS + "=3000"}, drive: func(ctx context.Context, c *mcpclient.Client) {
			c.Initialize(ctx)
			cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
			defer cancel()
			c.CallTool(cctx, "sleep", json.RawMessage(`{"seconds":3}`))
			time.Sleep(200 * time.Millisecond)
		}},
		{scenario: "b13", env: []string{fake.EnvWaitMS + "=5000"}, drive: func(ctx context.Context, c *mcpclient.Client) {
			c.Initialize(ctx)
			c.CallTool(ctx, "summarize", json.RawMessage(`{}`))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.scenario, func(t *testing.T) {
			t.Parallel()
			s := record(t, fakeConfig(t, tc.scenario, tc.env...), nil, tc.drive)
			evs := checkSame(t, s)
			if tc.check != nil {
				tc.check(t, evs)
			}
		})
	}
}

func wantKind(t *testing.T, evs []mcpclient.Event, k mcpclient.Kind) {
	t.Helper()
	for _, ev := range evs {
		if ev.Kind == k {
			return
		}
	}
	t.Errorf("no %s frame in the trace", k)
}

func wantProblem(t *testing.T, evs []mcpclient.Event, code mcpclient.ProblemCode) {
	t.Helper()
	for _, ev := range evs {
		for _, p := range ev.Problems {
			if p.Code == code {
				return
			}
		}
	}
	t.Errorf("no %s problem in the trace", code)
}

// TestOversizeFrameKeepsHead: a frame over --max-message keeps its head, its full size, and
// loads as oversize again.
func TestOversizeFrameKeepsHead(t *testing.T) {
	t.Parallel()
	cfg := fakeConfig(t, "b03")
	cfg.MaxMessage = 100 << 10
	s := record(t, cfg, nil, func(ctx context.Context, c *mcpclient.Client) {
		c.Initialize(ctx)
		c.CallTool(ctx, "big", json.RawMessage(`{"bytes":500000}`))
	})
	evs := checkSame(t, s)
	for _, ev := range evs {
		if ev.Kind == mcpclient.KindOversize {
			if ev.Size < 500000 || int64(len(ev.Raw)) >= ev.Size {
				t.Errorf("oversize frame: size %d, kept %d", ev.Size, len(ev.Raw))
			}
			return
		}
	}
	t.Error("no oversize frame")
}

// TestWriterOneWritePerLine: each event reaches the file in one Write of one whole line.
func TestWriterOneWritePerLine(t *testing.T) {
	t.Parallel()
	var cw countingWriter
	w, err := trace.NewWriter(&cw, trace.Header{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	evs := []mcpclient.Event{
		{Seq: 1, Time: time.Now(), Dir: mcpclient.Lifecycle, Kind: mcpclient.KindLifecycle, Life: &mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, PID: 42, Text: "started pid 42"}},
		{Seq: 2, Time: time.Now(), Dir: mcpclient.ClientToServer, Raw: []byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}\n"), Size: 38},
		{Seq: 3, Time: time.Now(), Dir: mcpclient.ServerToClient, Raw: []byte("\xc7\xd1 not utf-8\n"), Size: 14, Chunks: []int{3}, ChunkCount: 1},
		{Seq: 4, Time: time.Now(), Dir: mcpclient.Stderr, Raw: []byte("line with \"quotes\" and \x1b[31mcolor\n"), Size: 36},
	}
	for _, ev := range evs {
		if err := w.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	if len(cw.writes) != 1+len(evs) {
		t.Fatalf("%d writes for a header and %d events", len(cw.writes), len(evs))
	}
	for i, b := range cw.writes {
		if bytes.Count(b, []byte("\n")) != 1 || b[len(b)-1] != '\n' || !json.Valid(b) {
			t.Errorf("write %d is not one JSON line: %q", i, b)
		}
	}
	tr, err := trace.OpenReader(bytes.NewReader(cw.all()), int64(len(cw.all())))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range evs {
		got, err := tr.Event(i)
		if err != nil || !bytes.Equal(got.Raw, want.Raw) || got.Size != want.Size {
			t.Errorf("event %d: %v %q", i, err, got.Raw)
		}
	}
	r, _ := tr.Record(2)
	if !bytes.Contains(cw.writes[3], []byte(`"b64":true`)) || !reflect.DeepEqual(r.Chunks, []int{3}) {
		t.Errorf("invalid UTF-8 not stored as base64, or chunks lost: %s", cw.writes[3])
	}
}

type countingWriter struct{ writes [][]byte }

func (c *countingWriter) Write(b []byte) (int, error) {
	c.writes = append(c.writes, append([]byte(nil), b...))
	return len(b), nil
}

func (c *countingWriter) all() []byte { return bytes.Join(c.writes, nil) }

// TestHeaderAndEventLine pins the format: the header's members and an event line's.
func TestHeaderAndEventLine(t *testing.T) {
	t.Parallel()
	var cw countingWriter
	start := time.Date(2026, 11, 29, 23, 57, 30, 0, time.UTC)
	w, err := trace.NewWriter(&cw, trace.Header{Tool: "mcp-inspect", ToolVersion: "1.2.3", Start: start, Argv: []string{"srv", "--token", "s3cr3t-value-123"}, Env: []string{"API_KEY=abcdefgh"}, Era: "legacy", ProtocolVersion: "2025-11-25"},
		mustRedactor(t, trace.RedactConfig{Env: []string{"API_KEY=abcdefgh"}, Argv: []string{"srv", "--token", "s3cr3t-value-123"}}))
	if err != nil {
		t.Fatal(err)
	}
	w.Write(mcpclient.Event{Seq: 7, Time: w.Start().Add(1500 * time.Microsecond), Dir: mcpclient.ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{"k":"abcdefgh"}}` + "\n"), Size: 51})
	var h map[string]any
	if err := json.Unmarshal(cw.writes[0], &h); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"format", "version", "tool", "toolVersion", "start", "argv", "cwd", "env", "era", "framing", "protocolVersion", "redaction"} {
		if _, ok := h[k]; !ok && k != "cwd" {
			t.Errorf("header lacks %q: %s", k, cw.writes[0])
		}
	}
	if h["format"] != "mcp-inspect-trace" || h["start"] != "2026-11-29T23:57:30Z" || fmt.Sprint(h["argv"]) != "[srv --token ***]" || fmt.Sprint(h["env"]) != "[API_KEY=***]" {
		t.Errorf("header: %s", cw.writes[0])
	}
	want := `{"seq":7,"t":"2026-11-29T23:57:30.0015Z","mono":1500000,"dir":"s2c","raw":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"k\":\"***\"}}\n","size":51,"red":["API_KEY"]}` + "\n"
	if string(cw.writes[1]) != want {
		t.Errorf("event line\n got %s\nwant %s", cw.writes[1], want)
	}
}

func mustRedactor(t testing.TB, cfg trace.RedactConfig) *trace.Redactor {
	t.Helper()
	r, err := trace.NewRedactor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCopyTo saves a running recording under another name: the copy is a complete trace of
// what was written so far, and the recording goes on.
func TestCopyTo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := trace.Create(dir+"/live.jsonl", trace.Header{Tool: "t"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	w.Write(mcpclient.Event{Seq: 1, Time: now, Dir: mcpclient.Stderr, Raw: []byte("one\n"), Size: 4})
	if err := w.CopyTo(dir + "/saved.jsonl"); err != nil {
		t.Fatal(err)
	}
	w.Write(mcpclient.Event{Seq: 2, Time: now, Dir: mcpclient.Stderr, Raw: []byte("two\n"), Size: 4})
	w.Close()
	saved, live := openTrace(t, dir+"/saved.jsonl"), openTrace(t, dir+"/live.jsonl")
	if saved.Len() != 1 || live.Len() != 2 || saved.Truncated {
		t.Errorf("saved %d events, live %d", saved.Len(), live.Len())
	}
	var nw countingWriter
	w2, _ := trace.NewWriter(&nw, trace.Header{}, nil)
	if w2.CopyTo(dir+"/x.jsonl") == nil {
		t.Error("CopyTo without a file succeeded")
	}
}
