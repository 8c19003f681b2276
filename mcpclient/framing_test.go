package mcpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

func withFraming(f mcpclient.Framing) func(*mcpclient.Config) {
	return func(c *mcpclient.Config) {
		c.Framing = f
		c.Timeout = 10 * time.Minute // a framing failure must not be a timeout
	}
}

func notes(evs []mcpclient.Event) []string {
	var out []string
	for _, ev := range evs {
		if ev.Life != nil && ev.Life.Kind == mcpclient.LifeNote {
			out = append(out, ev.Life.Text)
		}
	}
	return out
}

// TestContentLengthFraming: --framing content-length talks to a Content-Length server both
// ways; the raw frames carry the headers; the violation is a Warning once, Info after.
func TestContentLengthFraming(t *testing.T) {
	s := startFake(t, "lsp", withFraming(mcpclient.FramingContentLength))
	ctx := context.Background()
	if _, err := s.c.Initialize(ctx); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	tools, _, err := s.c.ListTools(ctx)
	if err != nil || len(tools) != 1 || tools[0].Name != "echo" {
		t.Fatalf("tools/list: %v %v", tools, err)
	}
	res, _, err := s.c.CallTool(ctx, "echo", json.RawMessage(`{"text":"hi"}`))
	if err != nil || len(res.Content) != 1 || res.Content[0].Text != "hi" {
		t.Fatalf("tools/call: %+v %v", res, err)
	}
	warnings := 0
	var s2c, c2s int
	for _, ev := range s.events(t) {
		switch ev.Dir {
		case mcpclient.ClientToServer:
			c2s++
			if !strings.HasPrefix(string(ev.Raw), "Content-Length: ") || strings.HasSuffix(string(ev.Raw), "\n") {
				t.Errorf("client frame not Content-Length framed: %q", ev.Raw)
			}
		case mcpclient.ServerToClient:
			s2c++
			if !ev.Kind.IsMessage() || !strings.HasPrefix(string(ev.Raw), "Content-Length: ") {
				t.Errorf("server frame %v %q", ev.Kind, ev.Raw)
			}
			p := problem(ev, mcpclient.CodeLSPFraming)
			if p == nil {
				t.Errorf("server frame without the lsp-framing problem: %q", ev.Raw)
			} else if p.Severity == mcpclient.Warning {
				warnings++
			}
		}
	}
	if s2c != 3 || c2s != 4 || warnings != 1 {
		t.Fatalf("%d server frames, %d client frames, %d warnings; want 3, 4 (with initialized), 1", s2c, c2s, warnings)
	}
}

// TestNewlineFramingFailsFast: with the default framing, a server that answers with a
// Content-Length header (whether it read our JSON line or not) fails the handshake at once
// with a *FramingError naming the flag, and later requests fail the same way.
func TestNewlineFramingFailsFast(t *testing.T) {
	// lsp-out reads JSON lines and writes headers: --framing auto talks to it, and
	// --framing content-length would not.
	for sc, flag := range map[string]string{"lsp": "--framing content-length", "lsp-out": "--framing auto"} {
		t.Run(sc, func(t *testing.T) {
			s := startFake(t, sc, withFraming(""))
			ctx := context.Background()
			_, err := s.c.Initialize(ctx)
			var fe *mcpclient.FramingError
			if !errors.As(err, &fe) {
				t.Fatalf("initialize: %v (%T), want a *FramingError", err, err)
			}
			msg := err.Error()
			for _, want := range []string{"request id 1 (initialize)", "Content-Length", "newline-delimited JSON", flag} {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
			if _, _, err := s.c.ListTools(ctx); !errors.As(err, &fe) {
				t.Errorf("a later request: %v, want the framing error", err)
			}
			if ns := notes(s.events(t)); len(ns) != 1 || !strings.Contains(ns[0], flag) {
				t.Errorf("notes %q, want the framing note once", ns)
			}
		})
	}
}

// TestAutoFraming: --framing auto follows a Content-Length server (re-sending initialize so
// framed) and says so; with a server that reads JSON lines it keeps writing them.
func TestAutoFraming(t *testing.T) {
	for _, tc := range []struct {
		scenario, note string
		writes         mcpclient.Framing
	}{
		{"lsp", "switched to Content-Length framing both ways; re-sending 1 pending request(s)", mcpclient.FramingContentLength},
		{"lsp-out", "still writing newline JSON", mcpclient.FramingNewline},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			s := startFake(t, tc.scenario, withFraming(mcpclient.FramingAuto))
			ctx := context.Background()
			if _, err := s.c.Initialize(ctx); err != nil {
				t.Fatalf("initialize: %v", err)
			}
			if tools, _, err := s.c.ListTools(ctx); err != nil || len(tools) != 1 {
				t.Fatalf("tools/list: %v %v", tools, err)
			}
			if got := s.c.Framing(); got != tc.writes {
				t.Errorf("writes %s, want %s", got, tc.writes)
			}
			evs := s.events(t)
			ns := notes(evs)
			if len(ns) != 1 || !strings.Contains(ns[0], tc.note) {
				t.Errorf("notes %q, want one with %q", ns, tc.note)
			}
			warnings := 0
			for _, ev := range stdoutFrames(evs) {
				if p := problem(ev, mcpclient.CodeLSPFraming); p != nil && p.Severity == mcpclient.Warning {
					warnings++
				}
			}
			if warnings != 1 {
				t.Errorf("%d lsp-framing warnings, want 1 (still a violation)", warnings)
			}
		})
	}
}

// TestPrettyPrintedMessages: a server that pretty-prints its messages: each is one frame,
// paired and usable, with one multiline-message problem; no "not JSON" rows.
func TestPrettyPrintedMessages(t *testing.T) {
	s := startFake(t, "pretty", withFraming(""))
	ctx := context.Background()
	if _, err := s.c.Initialize(ctx); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if tools, _, err := s.c.ListTools(ctx); err != nil || len(tools) != 1 {
		t.Fatalf("tools/list: %v %v", tools, err)
	}
	frames := stdoutFrames(s.events(t))
	if len(frames) != 2 {
		t.Fatalf("%d server frames, want 2", len(frames))
	}
	for _, ev := range frames {
		if ev.Kind != mcpclient.KindResponse || ev.Pair == 0 || problem(ev, mcpclient.CodeMultiline) == nil || problem(ev, mcpclient.CodeNotJSON) != nil {
			t.Errorf("frame %v pair %d problems %+v", ev.Kind, ev.Pair, ev.Problems)
		}
	}
}

// TestContentLengthToNewlineServer: --framing content-length against a server that speaks
// MCP's newline JSON fails at once with the reverse framing error, not a timeout.
func TestContentLengthToNewlineServer(t *testing.T) {
	s := startFake(t, "minimal", withFraming(mcpclient.FramingContentLength))
	_, err := s.c.Initialize(context.Background())
	var fe *mcpclient.FramingError
	if !errors.As(err, &fe) || !fe.Newline {
		t.Fatalf("initialize: %v (%T), want a newline *FramingError", err, err)
	}
	for _, want := range []string{"request id 1 (initialize)", "newline-delimited JSON", "run again without --framing content-length"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	s.events(t)
}
