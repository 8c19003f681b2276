package ui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// fakeSession answers like a server, without a process.
type fakeSession struct {
	// fakeMore answers everything beyond tools (resources, prompts, tasks …).
	fakeMore
	mu    sync.Mutex
	init  *mcpclient.InitializeResult
	tools []mcpclient.Tool
	// calls records tools/call arguments.
	calls  []json.RawMessage
	result *mcpclient.CallToolResult
	err    error
	// block makes CallTool wait for ctx (to test cancel).
	block bool
}

func (f *fakeSession) Connect(context.Context) (*mcpclient.InitializeResult, error) {
	if f.init == nil {
		return nil, &mcpclient.ExitError{ExitCode: 1}
	}
	return f.init, nil
}

func (f *fakeSession) ListTools(context.Context) ([]mcpclient.Tool, []string, error) {
	return f.tools, nil, nil
}

func (f *fakeSession) CallTool(ctx context.Context, name string, args json.RawMessage) (*mcpclient.CallToolResult, *mcpclient.Response, error) {
	f.mu.Lock()
	f.calls = append(f.calls, append(json.RawMessage(nil), args...))
	f.mu.Unlock()
	if f.block {
		<-ctx.Done()
		return nil, nil, ctx.Err()
	}
	return f.result, &mcpclient.Response{Seq: 9, RequestSeq: 8, Elapsed: 42 * time.Millisecond}, f.err
}

// Request answers tools/call like CallTool does, reporting the request as sent first
// (Seq 8, as CallTool's Response says); other methods are not faked.
func (f *fakeSession) Request(ctx context.Context, method string, params any, opt *mcpclient.RequestOptions) (*mcpclient.Response, error) {
	if method != "tools/call" {
		return nil, errors.New("fakeSession.Request: " + method + " is not faked")
	}
	b, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, err
	}
	if opt != nil && opt.OnSent != nil {
		opt.OnSent(8, json.RawMessage("1"))
	}
	res, resp, err := f.CallTool(ctx, p.Name, p.Arguments)
	if err != nil || res == nil {
		return resp, err
	}
	result, err := encodeResult(res)
	if err != nil {
		return nil, err
	}
	resp.Msg = &mcpclient.Message{JSONRPC: "2.0", ID: json.RawMessage("1"), Result: result}
	return resp, nil
}

// encodeResult writes a CallToolResult as a server would: blocks known only by their raw
// JSON keep it (with their type), so decoding gives back the same blocks.
func encodeResult(res *mcpclient.CallToolResult) (json.RawMessage, error) {
	blocks := make([]json.RawMessage, len(res.Content))
	for i, b := range res.Content {
		var err error
		if len(b.Raw) > 0 {
			var obj map[string]json.RawMessage
			if err = json.Unmarshal(b.Raw, &obj); err == nil {
				obj["type"], _ = json.Marshal(b.Type)
				blocks[i], err = json.Marshal(obj)
			}
		} else {
			blocks[i], err = json.Marshal(b)
		}
		if err != nil {
			return nil, err
		}
	}
	return json.Marshal(struct {
		Content           []json.RawMessage `json:"content"`
		StructuredContent json.RawMessage   `json:"structuredContent,omitempty"`
		IsError           bool              `json:"isError,omitempty"`
	}{blocks, res.StructuredContent, res.IsError})
}

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// newTestModel builds a model with the plain theme (no escape sequences of its own) at a
// fixed size and a fixed clock.
func newTestModel(t testing.TB, sess session.Conn, w, h int) *model {
	t.Helper()
	opts := Options{Theme: "plain", Title: "fake-server --flag", Argv: []string{"fake-server", "--flag"}}
	if sess != nil {
		opts.Session = sess
	}
	m := newModel(opts)
	m.now = func() time.Time { return t0.Add(1500 * time.Millisecond) }
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// send delivers msgs in order and runs the commands they return that finish at once
// (fake session calls), feeding their messages back, like the runtime would.
func send(t testing.TB, m *model, msgs ...tea.Msg) {
	t.Helper()
	for _, msg := range msgs {
		_, cmd := m.Update(msg)
		run(t, m, cmd, 0)
	}
}

func run(t testing.TB, m *model, cmd tea.Cmd, depth int) {
	if cmd == nil || depth > 5 {
		return
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(200 * time.Millisecond):
		return // a blocking command (tick, blocked call): not run in tests
	}
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			run(t, m, c, depth+1)
		}
	case nil:
	case tea.QuitMsg:
		m.quitting = true
	default:
		switch msg.(type) {
		case initializedMsg, toolsListedMsg, callDoneMsg, eventsMsg, historyLoadedMsg, historySavedMsg:
			_, next := m.Update(msg)
			run(t, m, next, depth+1)
		}
	}
}

// typeText types s key by key.
func typeText(t testing.TB, m *model, s string) {
	t.Helper()
	for _, r := range s {
		send(t, m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func press(t testing.TB, m *model, keys ...string) {
	t.Helper()
	for _, k := range keys {
		send(t, m, keyMsg(k))
	}
}

// keyMsg builds a key press from its String() form.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	if strings.HasPrefix(k, "alt+") {
		m := keyMsg(k[4:])
		m.Mod |= tea.ModAlt
		m.Text = ""
		return m
	}
	if strings.HasPrefix(k, "ctrl+") {
		return tea.KeyPressMsg{Code: rune(k[5]), Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// ev builds an event.
func ev(seq uint64, dir mcpclient.Direction, raw string) mcpclient.Event {
	e := mcpclient.Event{Seq: seq, Time: t0.Add(time.Duration(seq) * time.Millisecond), Dir: dir, Raw: []byte(raw), Size: int64(len(raw))}
	switch dir {
	case mcpclient.Stderr:
		e.Kind = mcpclient.KindStderr
	case mcpclient.Lifecycle:
		e.Kind = mcpclient.KindLifecycle
	default:
		e.Kind, e.Msg, e.Problems = mcpclient.Classify([]byte(raw))
	}
	return e
}

func life(seq uint64, l mcpclient.LifeInfo) mcpclient.Event {
	e := ev(seq, mcpclient.Lifecycle, "")
	e.Life = &l
	return e
}

func view(m *model) string { return m.render() }

// TestBatchNotificationsReachLogs: a notifications/message inside a JSON-RPC batch reaches
// the Logs pane like one sent alone, in the batch's order, and a batched list_changed is
// noted there too.
func TestBatchNotificationsReachLogs(t *testing.T) {
	s2c := mcpclient.ServerToClient
	evs := pairedSession("2025-03-26",
		frame{s2c, `[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"batched hello"}},{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"},{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"second"}}]` + "\n"},
	)
	m := newTestModel(t, nil, 200, 50)
	m.Update(eventsMsg{events: evs})
	var got []string
	for _, e := range m.logs.entries {
		got = append(got, e.text)
		if e.seq != 3 {
			t.Errorf("entry %q has seq %d, want the batch's 3", e.text, e.seq)
		}
	}
	if len(got) != 3 || !strings.Contains(got[0], "batched hello") || !strings.Contains(got[1], "notifications/prompts/list_changed") || !strings.Contains(got[2], "second") {
		t.Fatalf("logs from the batch: %q", got)
	}
	press(t, m, "7")
	if v := view(m); !strings.Contains(v, "batched hello") || strings.Contains(v, "nothing logged yet") {
		t.Errorf("the Logs pane should show the batched message:\n%s", v)
	}
}

// TestWireLinksRequestToBatchedResponse: a request answered by a response inside a batch
// shows the batch frame as its response, and p jumps to the batch and back.
func TestWireLinksRequestToBatchedResponse(t *testing.T) {
	c2s, s2c := mcpclient.ClientToServer, mcpclient.ServerToClient
	evs := pairedSession("2025-03-26",
		frame{c2s, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo"}}` + "\n"},
		frame{s2c, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}` + "\n"},
		frame{s2c, `[{"jsonrpc":"2.0","id":3,"result":{"content":[]}},{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"y"}}]` + "\n"},
	)
	m := newTestModel(t, nil, 200, 50)
	m.Update(eventsMsg{events: evs})
	press(t, m, "3")
	m.wire.jump(3)
	v := view(m)
	if strings.Contains(v, "no response yet") || !strings.Contains(v, "response: #5") {
		t.Fatalf("the request should link to the batch #5:\n%s", v)
	}
	press(t, m, "p")
	if e := m.wire.selected(); e == nil || e.seq != 5 {
		t.Fatalf("p from the request selected %+v, want the batch #5", e)
	}
	press(t, m, "p")
	if e := m.wire.selected(); e == nil || e.seq != 3 {
		t.Fatalf("p from the batch selected %+v, want the request #3", e)
	}
}

// TestWireDetailNotesVersusProblems: an allowed batch (negotiated 2025-03-26) carries only
// an Info note, shown under "notes"; after 2025-03-26 the same batch is a warning, under
// "problems".
func TestWireDetailNotesVersusProblems(t *testing.T) {
	heading := func(v, h string) bool {
		for _, l := range strings.Split(v, "\n") {
			if i := strings.LastIndex(l, "│"); i >= 0 && strings.TrimSpace(l[i+len("│"):]) == h {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		version    string
		want, not  string
		violations int
	}{
		{"2025-03-26", "notes", "problems", 0},
		{"2025-06-18", "problems", "notes", 1},
	} {
		t.Run(c.version, func(t *testing.T) {
			s2c := mcpclient.ServerToClient
			evs := pairedSession(c.version,
				frame{s2c, `[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}]` + "\n"},
			)
			m := newTestModel(t, nil, 200, 50)
			m.Update(eventsMsg{events: evs})
			press(t, m, "3")
			v := view(m)
			if m.tl.violations != c.violations {
				t.Fatalf("%d violations, want %d", m.tl.violations, c.violations)
			}
			if !heading(v, c.want) || heading(v, c.not) {
				t.Errorf("the batch's detail should head its note %q, not %q:\n%s", c.want, c.not, v)
			}
		})
	}
}

// TestFlashQueuesItsExpiry: a status note set by an event (resources/updated) queues the
// redraw that takes it away after flashFor, like m.note does, so an idle screen does not
// keep it; once flashFor has passed it is gone from the status bar.
func TestFlashQueuesItsExpiry(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "5", "s", "1")
	upd := ev(7, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///notes.txt"}}`+"\n")
	m.pending = nil
	m.observeEvent(&upd)
	if !strings.Contains(m.flashText(), "resource updated: file:///notes.txt") {
		t.Fatalf("flash %q", m.flashText())
	}
	if len(m.pending) != 1 {
		t.Fatalf("%d commands queued with the flash, want its expiry redraw", len(m.pending))
	}
	at := m.now().Add(flashFor)
	m.now = func() time.Time { return at }
	if bar := m.statusBar(); strings.Contains(bar, "resource updated") {
		t.Errorf("the flash outlived flashFor: %q", bar)
	}
}
