package ui

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// fakeMore answers the Session methods beyond tools like a server would, and records what
// the UI sent. The zero value is an empty server.
type fakeMore struct {
	mmu sync.Mutex

	resources   []mcpclient.Resource
	templates   []mcpclient.ResourceTemplate
	resWarnings []string
	contents    map[string]*mcpclient.ReadResourceResult
	readBlock   bool
	reads       []string
	subs        []string
	listens     []mcpclient.ListenFilter
	// listened gets a value for each subscriptions/listen opened, when not nil (buffered:
	// Listen never blocks on it).
	listened chan struct{}

	prompts   []mcpclient.Prompt
	promptRes *mcpclient.GetPromptResult
	gets      []string

	// completions answers completion/complete by argument name.
	completions map[string][]string
	completes   []string

	levels        []string
	pingRTT       time.Duration
	rootsNotified int

	tasks       map[string]*mcpclient.Task
	taskCalls   []string
	taskGets    int
	taskResult  json.RawMessage
	taskCancels []string
}

func (f *fakeMore) ListResources(context.Context) ([]mcpclient.Resource, []string, error) {
	return f.resources, f.resWarnings, nil
}

func (f *fakeMore) ListResourceTemplates(context.Context) ([]mcpclient.ResourceTemplate, []string, error) {
	return f.templates, nil, nil
}

func (f *fakeMore) ReadResource(ctx context.Context, uri string) (*mcpclient.ReadResourceResult, *mcpclient.Response, error) {
	f.mmu.Lock()
	f.reads = append(f.reads, uri)
	f.mmu.Unlock()
	if f.readBlock {
		<-ctx.Done()
		return nil, nil, ctx.Err()
	}
	res, ok := f.contents[uri]
	if !ok {
		return nil, nil, &mcpclient.RPCError{Code: -32002, Message: "Resource not found: " + uri}
	}
	return res, &mcpclient.Response{Seq: 21, RequestSeq: 20, Elapsed: 3 * time.Millisecond}, nil
}

func (f *fakeMore) Subscribe(_ context.Context, uri string) error {
	f.mmu.Lock()
	defer f.mmu.Unlock()
	f.subs = append(f.subs, "+"+uri)
	return nil
}

func (f *fakeMore) Unsubscribe(_ context.Context, uri string) error {
	f.mmu.Lock()
	defer f.mmu.Unlock()
	f.subs = append(f.subs, "-"+uri)
	return nil
}

func (f *fakeMore) Listen(ctx context.Context, lf mcpclient.ListenFilter) (*mcpclient.Response, error) {
	f.mmu.Lock()
	f.listens = append(f.listens, lf)
	f.mmu.Unlock()
	select {
	case f.listened <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

func (f *fakeMore) ListPrompts(context.Context) ([]mcpclient.Prompt, []string, error) {
	return f.prompts, nil, nil
}

func (f *fakeMore) GetPrompt(_ context.Context, name string, args map[string]string) (*mcpclient.GetPromptResult, *mcpclient.Response, error) {
	b, _ := json.Marshal(args)
	f.mmu.Lock()
	f.gets = append(f.gets, name+" "+string(b))
	f.mmu.Unlock()
	return f.promptRes, &mcpclient.Response{Seq: 31, RequestSeq: 30, Elapsed: 2 * time.Millisecond}, nil
}

func (f *fakeMore) Complete(_ context.Context, ref mcpclient.CompletionRef, arg, value string, cargs map[string]string) (*mcpclient.Completion, error) {
	keys := make([]string, 0, len(cargs))
	for k, v := range cargs {
		keys = append(keys, k+"="+v)
	}
	sort.Strings(keys)
	f.mmu.Lock()
	f.completes = append(f.completes, ref.Type+":"+ref.Name+ref.URI+" "+arg+"="+value+" ctx["+strings.Join(keys, ",")+"]")
	f.mmu.Unlock()
	var out []string
	for _, v := range f.completions[arg] {
		if strings.HasPrefix(v, value) {
			out = append(out, v)
		}
	}
	return &mcpclient.Completion{Values: out}, nil
}

func (f *fakeMore) SetLogLevel(_ context.Context, level string) error {
	f.mmu.Lock()
	defer f.mmu.Unlock()
	f.levels = append(f.levels, level)
	return nil
}

func (f *fakeMore) Ping(context.Context) (time.Duration, error) { return f.pingRTT, nil }

func (f *fakeMore) NotifyRootsChanged() error {
	f.mmu.Lock()
	defer f.mmu.Unlock()
	f.rootsNotified++
	return nil
}

func (f *fakeMore) CallToolAsTask(_ context.Context, name string, args json.RawMessage, _ int64) (*mcpclient.Task, *mcpclient.Response, error) {
	f.mmu.Lock()
	defer f.mmu.Unlock()
	f.taskCalls = append(f.taskCalls, name+" "+string(args))
	t := &mcpclient.Task{TaskID: "task-1", Status: "working", StatusMessage: "thinking"}
	if f.tasks == nil {
		f.tasks = map[string]*mcpclient.Task{}
	}
	f.tasks[t.TaskID] = t
	cp := *t
	return &cp, &mcpclient.Response{Seq: 41, RequestSeq: 40}, nil
}

func (f *fakeMore) GetTask(_ context.Context, id string) (*mcpclient.Task, error) {
	f.mmu.Lock()
	defer f.mmu.Unlock()
	f.taskGets++
	t, ok := f.tasks[id]
	if !ok {
		return nil, &mcpclient.RPCError{Code: -32602, Message: "no such task"}
	}
	cp := *t
	return &cp, nil
}

func (f *fakeMore) TaskResult(_ context.Context, id string) (*mcpclient.Response, error) {
	return &mcpclient.Response{Msg: &mcpclient.Message{Result: f.taskResult}, Seq: 51, RequestSeq: 50}, nil
}

func (f *fakeMore) CancelTask(_ context.Context, id string) (*mcpclient.Task, error) {
	f.mmu.Lock()
	defer f.mmu.Unlock()
	f.taskCancels = append(f.taskCancels, id)
	t := f.tasks[id]
	t.Status = "cancelled"
	cp := *t
	return &cp, nil
}

func (f *fakeMore) ListTasks(context.Context) ([]mcpclient.Task, []string, error) {
	f.mmu.Lock()
	defer f.mmu.Unlock()
	var out []mcpclient.Task
	for _, t := range f.tasks {
		out = append(out, *t)
	}
	return out, nil, nil
}

// drive delivers msgs in order and runs the commands they return, feeding every message
// back like the runtime would: fake session calls answer at once, timers are on fakeTick.
func drive(t testing.TB, m *model, msgs ...tea.Msg) {
	t.Helper()
	for _, msg := range msgs {
		_, cmd := m.Update(msg)
		exec(t, m, cmd, 0)
	}
}

// exec runs cmd as the runtime would and feeds its messages back (batches fanned out,
// tea.Quit marking the model quitting), up to 30 levels deep. A command that blocks (a
// call the fake holds) is left running, in a test run by inBubble only.
func exec(t testing.TB, m *model, cmd tea.Cmd, depth int) {
	t.Helper()
	if cmd == nil || depth > 30 {
		return
	}
	if onWallClock(m) {
		t.Fatal("exec: the model's timers wait on the wall clock; build it with Options.Tick = fakeTick")
	}
	msg, ok := runCmd(t, cmd)
	if !ok {
		return
	}
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			exec(t, m, c, depth+1)
		}
	case tea.QuitMsg:
		m.quitting = true
	default:
		_, next := m.Update(msg)
		exec(t, m, next, depth+1)
	}
}

// cmdDeadline bounds how long runCmd waits for a command outside a bubble: every command
// there answers at once (fake calls, fakeTick), so reaching it fails the test.
const cmdDeadline = 10 * time.Second

// bubbled holds the tests that inBubble runs (their *testing.T).
var bubbled sync.Map

// inBubble runs a test whose commands block (a call the fake holds until it is cancelled,
// the wait for a held call's next request) in a synctest bubble, where runCmd can tell a
// command that blocks from one that answers without waiting on any clock.
func inBubble(t *testing.T, f func(t *testing.T)) {
	synctest.Test(t, func(t *testing.T) {
		bubbled.Store(t, true)
		defer bubbled.Delete(t)
		f(t)
	})
}

// runCmd runs cmd on its own goroutine, as the runtime does, and returns its message. In
// a bubble, a command still running once every goroutine of the bubble is durably blocked
// (synctest.Wait) blocks: ok is false and it is left running. Outside one, a command must
// answer; one that has not within cmdDeadline fails the test.
func runCmd(t testing.TB, cmd tea.Cmd) (msg tea.Msg, ok bool) {
	t.Helper()
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	if _, in := bubbled.Load(t); in {
		synctest.Wait()
		select {
		case msg = <-done:
			return msg, true
		default:
			return nil, false
		}
	}
	select {
	case msg = <-done:
		return msg, true
	case <-time.After(cmdDeadline):
		t.Fatalf("a command has not answered in %s (one that blocks needs inBubble)", cmdDeadline)
		return nil, false
	}
}

// keys types named keys (see keyMsg), running what they start.
func keys(t testing.TB, m *model, ks ...string) {
	t.Helper()
	for _, k := range ks {
		drive(t, m, keyMsg(k))
	}
}

// typeIn types text key by key, running what it starts.
func typeIn(t testing.TB, m *model, s string) {
	t.Helper()
	for _, r := range s {
		drive(t, m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// answerLog collects the answers the UI gives to server requests.
type answerLog struct {
	mu  sync.Mutex
	got []string
}

func (r *answerLog) req(method, params string) *session.Inbound {
	in := session.NewInbound(method, json.RawMessage(params), "", 0, t0,
		func(result json.RawMessage, e *mcpclient.RPCError) error {
			r.mu.Lock()
			defer r.mu.Unlock()
			if e != nil {
				b, _ := json.Marshal(e)
				r.got = append(r.got, "error "+string(b))
				return nil
			}
			r.got = append(r.got, string(result))
			return nil
		})
	in.ID = json.RawMessage("1")
	return in
}

func (r *answerLog) answers() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

// moreSession is a connected legacy server with resources, prompts and completions.
func moreSession() *fakeSession {
	size := int64(5)
	s := &fakeSession{init: &mcpclient.InitializeResult{
		ProtocolVersion: "2025-11-25", Era: mcpclient.EraLegacy,
		ServerInfo:   mcpclient.Implementation{Name: "fake", Version: "1"},
		Capabilities: json.RawMessage(`{"resources":{"subscribe":true,"listChanged":true},"prompts":{},"tools":{},"logging":{},"completions":{}}`),
		Caps: mcpclient.ServerCapabilities{Resources: &mcpclient.ResourcesCap{Subscribe: true, ListChanged: true}, Prompts: &mcpclient.ListChangedCap{},
			Tools: &mcpclient.ListChangedCap{}},
	}}
	s.tools = []mcpclient.Tool{{Name: "research", InputSchema: json.RawMessage(`{"type":"object","properties":{"topic":{"type":"string"}}}`), Execution: json.RawMessage(`{"taskSupport":"required"}`)}}
	s.resources = []mcpclient.Resource{
		{URI: "file:///notes.txt", Name: "notes.txt", MimeType: "text/plain", Description: "Some notes"},
		{URI: "mem://logo", Name: "logo", MimeType: "image/png", Size: &size},
	}
	s.templates = []mcpclient.ResourceTemplate{{URITemplate: "users://{team}/{user}/profile", Name: "profile", Description: "A user's profile"}}
	s.contents = map[string]*mcpclient.ReadResourceResult{
		"file:///notes.txt":        {Contents: []mcpclient.ResourceContents{{URI: "file:///notes.txt", MimeType: "text/plain", Text: "line one\nline two\nthe end"}}},
		"mem://logo":               {Contents: []mcpclient.ResourceContents{{URI: "mem://logo", MimeType: "image/png", Blob: "iVBORw0KGgo="}}},
		"users://core/ann/profile": {Contents: []mcpclient.ResourceContents{{URI: "users://core/ann/profile", MimeType: "application/json", Text: `{"name":"Ann"}`}}},
	}
	s.prompts = []mcpclient.Prompt{
		{Name: "simple", Description: "No arguments"},
		{Name: "greet", Description: "Greets", Arguments: []mcpclient.PromptArgument{{Name: "city", Description: "Where", Required: true}, {Name: "mood"}}},
	}
	s.promptRes = &mcpclient.GetPromptResult{Description: "a greeting", Messages: []mcpclient.PromptMessage{
		{Role: "user", Content: mcpclient.ContentBlock{Type: "text", Text: "Say hello to Paris"}},
		{Role: "assistant", Content: mcpclient.ContentBlock{Type: "image", MimeType: "image/png", Data: "iVBORw0KGgo="}},
		{Role: "user", Content: mcpclient.ContentBlock{Type: "resource", Resource: &mcpclient.ResourceContents{URI: "file:///notes.txt", Text: "embedded notes"}}},
		{Role: "user", Content: mcpclient.ContentBlock{Type: "audio", MimeType: "audio/wav", Data: "UklGRg=="}},
		{Role: "user", Content: mcpclient.ContentBlock{Type: "resource_link", URI: "file:///a", Name: "a"}},
		{Role: "user", Content: mcpclient.ContentBlock{Type: "sparkle", Raw: json.RawMessage(`{"type":"sparkle","x":1}`)}},
	}}
	s.completions = map[string][]string{"team": {"core", "cloud"}, "user": {"ann", "bob"}, "city": {"Paris", "Prague", "Oslo"}}
	s.pingRTT = 1500 * time.Microsecond
	s.taskResult = json.RawMessage(`{"content":[{"type":"text","text":"research done"}]}`)
	s.listened = make(chan struct{}, 16)
	return s
}

// connected builds a model on s and runs the handshake and listings.
func connected(t testing.TB, s *fakeSession, w, h int, opts ...func(*Options)) *model {
	t.Helper()
	o := Options{Tick: fakeTick, Theme: "plain", Title: "fake", Argv: []string{"fake"}, Session: s, Context: t.Context()}
	for _, f := range opts {
		f(&o)
	}
	m := newModel(o)
	m.now = func() time.Time { return t0.Add(1500 * time.Millisecond) }
	m.dialogGuard = 0
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	exec(t, m, m.Init(), 0)
	return m
}

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
func newTestModel(t testing.TB, sess session.Conn, w, h int, with ...func(*Options)) *model {
	t.Helper()
	opts := Options{Tick: fakeTick, Theme: "plain", Title: "fake-server --flag", Argv: []string{"fake-server", "--flag"}, Context: t.Context()}
	if sess != nil {
		opts.Session = sess
	}
	for _, f := range with {
		f(&opts)
	}
	m := newModel(opts)
	m.now = func() time.Time { return t0.Add(1500 * time.Millisecond) }
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// fakeTick is the tests' clock (Options.Tick): a timer started on it (a debounce, a
// redraw, a task poll, the cursor's blink, the spinner's next frame) answers at once with
// nothing, so the driver never waits for it, and it never fires; a test that needs a
// timer's effect delivers its message itself (taskPollMsg, say).
func fakeTick(time.Duration, func(time.Time) tea.Msg) tea.Cmd {
	return func() tea.Msg { return nil }
}

// onWallClock reports whether m's timers wait on the wall clock (tea.Tick): exec refuses
// to drive such a model, as its timers would block the driver.
func onWallClock(m *model) bool {
	return reflect.ValueOf(m.c.tick).Pointer() == reflect.ValueOf(tea.Tick).Pointer()
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

func mustContain(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("%s lacks %q\n%s", what, w, out)
		}
	}
}

// waitListens waits until f has seen exactly n subscriptions/listen requests (the UI opens them from
// commands on their own goroutines): each Listen signals f.listened; the timeout only
// guards against a hang.
func waitListens(t *testing.T, f *fakeMore, n int) {
	t.Helper()
	for {
		f.mmu.Lock()
		got := len(f.listens)
		f.mmu.Unlock()
		if got == n {
			return
		}
		if got > n {
			t.Fatalf("%d subscriptions/listen requests seen, want %d", got, n)
		}
		select {
		case <-f.listened:
		case <-time.After(10 * time.Second):
			t.Fatalf("%d subscriptions/listen requests seen, want %d", got, n)
		}
	}
}
