package ui

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// live drives the real model on a real mcpclient.Client, headless: every Cmd runs on its
// own goroutine and its message comes back through one channel to Update, in the test's
// goroutine (as the bubbletea runtime would do it). The test types keys and answers the
// server's requests through the dialogs.
type live struct {
	t    *testing.T
	m    *model
	c    *mcpclient.Client
	msgs chan tea.Msg
	done chan struct{}
	// wake gets a value after each event the client reports (until checks again).
	wake chan struct{}
	// timers are the timers the model started (Options.Tick: the wall clock, recorded).
	tmu    sync.Mutex
	timers []*liveTimer
	// timerCode is the code of the Cmd tick returns (isTimer).
	timerCode uintptr
}

// liveTimer is a timer the model started: the message it will send, and whether Update
// has handled it.
type liveTimer struct {
	msg     tea.Msg
	handled bool
}

// timerMsg is a timer's message on its way to Update (step unwraps it).
type timerMsg struct {
	tm  *liveTimer
	msg tea.Msg
}

// tick is the model's clock: tea.Tick's, with each timer recorded (pending says which
// Update has not handled yet).
func (l *live) tick(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	tm := &liveTimer{msg: fn(time.Time{})}
	l.tmu.Lock()
	l.timers = append(l.timers, tm)
	l.tmu.Unlock()
	wait := tea.Tick(d, fn)
	cmd := func() tea.Msg { return timerMsg{tm: tm, msg: wait()} }
	l.tmu.Lock()
	l.timerCode = reflect.ValueOf(cmd).Pointer()
	l.tmu.Unlock()
	return cmd
}

// pending reports whether a timer that will send a message ok accepts has not been
// handled yet.
func (l *live) pending(ok func(tea.Msg) bool) bool {
	l.tmu.Lock()
	defer l.tmu.Unlock()
	for _, tm := range l.timers {
		if !tm.handled && ok(tm.msg) {
			return true
		}
	}
	return false
}

// startLive spawns argv (or connects to cfg.URL when argv is empty) with cfg's era and timeouts, wires the client to the UI (features,
// server requests) and runs the handshake.
func startLive(t *testing.T, argv []string, cfg mcpclient.Config, opts Options) *live {
	t.Helper()
	if len(argv) > 0 {
		cfg.Command, cfg.Args = argv[0], argv[1:]
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Second
	}
	opts.Theme = "plain"
	l := &live{t: t, msgs: make(chan tea.Msg, 1024), done: make(chan struct{}), wake: make(chan struct{}, 1)}
	opts.Tick = l.tick
	onEvent := cfg.OnEvent
	cfg.OnEvent = func(ev mcpclient.Event) {
		if onEvent != nil {
			onEvent(ev)
		}
		select {
		case l.wake <- struct{}{}:
		default:
		}
	}
	opts.ConfigureClient(&cfg)
	c, err := mcpclient.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	opts.Client = c
	l.c = c
	l.m = newModel(opts)
	l.m.dialogGuard = 0 // the test types only after it saw the dialog
	t.Cleanup(func() {
		close(l.done)
		l.m.abandon()
		c.Close()
	})
	l.m.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	l.run(l.m.Init())
	l.until("the handshake", func() bool { return l.m.state().Init != nil || l.m.state().InitErr != nil }, 30*time.Second)
	if l.m.state().InitErr != nil {
		t.Fatalf("handshake: %v", l.m.state().InitErr)
	}
	return l
}

func (l *live) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() { l.deliver(cmd()) }()
}

func (l *live) deliver(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			l.run(c)
		}
	default:
		select {
		case l.msgs <- msg:
		case <-l.done:
		}
	}
}

// handle gives msg to Update and runs what it starts.
func (l *live) handle(msg tea.Msg) {
	tm, isTimer := msg.(timerMsg)
	if isTimer {
		msg = tm.msg
	}
	_, cmd := l.m.Update(msg)
	if isTimer {
		l.tmu.Lock()
		tm.tm.handled = true
		l.tmu.Unlock()
	}
	l.run(cmd)
}

// until runs the program until cond holds: it checks cond again after each message
// Update handles and each event the client reports (Config.OnEvent: a test's wire log);
// it fails the test when timeout passes first.
func (l *live) until(what string, cond func() bool, timeout time.Duration) {
	l.t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for !cond() {
		select {
		case msg := <-l.msgs:
			l.handle(msg)
		case <-l.wake:
		case <-deadline.C:
			l.t.Fatalf("waiting for %s: timed out\n%s", what, view(l.m))
		}
	}
}

// keyDone types k and runs what it starts to its end, each command's answer handled in
// turn (a command that does not answer within cmdDeadline fails the test); timers are
// left to fire on their own.
func (l *live) keyDone(k string) {
	l.t.Helper()
	_, cmd := l.m.Update(keyMsg(k))
	l.finish(cmd)
}

func (l *live) finish(cmd tea.Cmd) {
	l.t.Helper()
	if cmd == nil {
		return
	}
	if l.isTimer(cmd) {
		l.run(cmd)
		return
	}
	msg, _ := runCmd(l.t, cmd)
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			l.finish(c)
		}
	default:
		_, next := l.m.Update(msg)
		l.finish(next)
	}
}

// isTimer reports whether cmd is a timer of l.tick (every one is the same closure).
func (l *live) isTimer(cmd tea.Cmd) bool {
	l.tmu.Lock()
	defer l.tmu.Unlock()
	return l.timerCode != 0 && reflect.ValueOf(cmd).Pointer() == l.timerCode
}

func (l *live) key(ks ...string) {
	for _, k := range ks {
		_, cmd := l.m.Update(keyMsg(k))
		l.run(cmd)
	}
}

func (l *live) typeText(s string) {
	for _, r := range s {
		_, cmd := l.m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		l.run(cmd)
	}
}

// answerer answers one dialog by typing keys; it gets the live driver and the dialog.
type answerer func(l *live, d requestDialog)

// defaultAnswer accepts everything: a typed sampling reply, an elicitation form filled
// through its raw JSON editor with a value for each required property, URL consent, the
// configured roots.
func defaultAnswer(l *live, d requestDialog) {
	switch d := d.(type) {
	case *samplingDialog:
		l.typeText("reply from the test")
		l.key("ctrl+s")
	case *elicitFormDialog:
		var p struct {
			RequestedSchema struct {
				Properties map[string]struct {
					Type    string                `json:"type"`
					Enum    []any                 `json:"enum"`
					OneOf   []struct{ Const any } `json:"oneOf"`
					Default json.RawMessage       `json:"default"`
				} `json:"properties"`
				Required []string `json:"required"`
			} `json:"requestedSchema"`
		}
		_ = json.Unmarshal(d.base().req.Params, &p)
		content := map[string]any{}
		for _, name := range p.RequestedSchema.Required {
			prop := p.RequestedSchema.Properties[name]
			switch {
			case len(prop.Enum) > 0:
				content[name] = prop.Enum[0]
			case len(prop.OneOf) > 0:
				content[name] = prop.OneOf[0].Const
			case prop.Type == "boolean":
				content[name] = true
			case prop.Type == "number" || prop.Type == "integer":
				content[name] = 7
			default:
				content[name] = "from the test"
			}
		}
		b, _ := json.Marshal(content)
		if !d.form.pane.rawMode {
			l.key("ctrl+e")
		}
		d.form.pane.raw.SetValue(string(b))
		l.key("ctrl+s")
		if len(l.m.overlay.requests) > 0 && l.m.overlay.requests[0] == d {
			l.key("ctrl+s") // sent anyway when the form still finds problems
		}
	default:
		l.key("enter")
	}
}

// answerDialogs answers every open dialog with ans until none is left; it reports how many
// it answered, by method.
func (l *live) answerDialogs(ans answerer, seen map[string]int) {
	for len(l.m.overlay.requests) > 0 {
		d := l.m.overlay.requests[0]
		if seen != nil {
			seen[d.base().req.Method]++
		}
		ans(l, d)
		if len(l.m.overlay.requests) > 0 && l.m.overlay.requests[0] == d {
			l.t.Fatalf("the dialog for %s is still open after answering\n%s", d.base().req.Method, view(l.m))
		}
	}
}

// selectTool selects a listed tool by name in the Tools pane.
func (l *live) selectTool(name string) {
	l.t.Helper()
	l.key("1")
	for r, i := range l.m.tools.list.shown {
		if l.m.tools.tools[i].Name == name {
			l.m.tools.list.sel = r
			return
		}
	}
	l.t.Fatalf("tool %q not listed", name)
}

// callTool calls a tool through the form (raw JSON editor when args are given) and waits
// for the result, answering dialogs with ans. It returns the finished call.
func (l *live) callTool(name, args string, ans answerer, seen map[string]int) *callRun {
	l.t.Helper()
	l.selectTool(name)
	l.key("enter")
	if l.m.call.form == nil {
		l.t.Fatalf("no form for %s\n%s", name, view(l.m))
	}
	if args != "" {
		if !l.m.call.form.rawMode {
			l.key("ctrl+e")
		}
		l.m.call.form.raw.SetValue(args)
	}
	l.key("ctrl+s")
	if l.m.call.form != nil {
		l.key("ctrl+s") // send anyway
	}
	run := l.m.call.run
	if run == nil || l.m.call.form != nil {
		l.t.Fatalf("%s was not sent\n%s", name, view(l.m))
	}
	l.until("the result of "+name, func() bool {
		if len(l.m.overlay.requests) > 0 && ans != nil {
			l.answerDialogs(ans, seen)
		}
		return run.done
	}, 60*time.Second)
	return run
}

// resultText is the text of a finished call's content blocks.
func resultText(r *callRun) string {
	if r.res == nil {
		return ""
	}
	var parts []string
	for _, b := range r.res.Content {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

// readResource reads a listed resource (or a template's expansion, when vals are given)
// through the Resources pane and returns what the detail shows.
func (l *live) readResource(key string, vals ...string) *readState {
	l.t.Helper()
	l.key("5")
	if !l.m.resources.list.selectKey(key) {
		l.t.Fatalf("%s not listed\n%s", key, view(l.m))
	}
	l.key("enter")
	if f := l.m.resources.form; f != nil {
		for i, v := range vals {
			setArg(f, i, v)
		}
		l.key("ctrl+s")
	}
	r := l.m.resources.reads[key]
	if r == nil {
		l.t.Fatalf("no read of %s\n%s", key, view(l.m))
	}
	l.until("resources/read "+key, func() bool { return !l.m.sess.Inflight().Get(r.opID).Running() }, 30*time.Second)
	if o := l.m.sess.Inflight().Get(r.opID); o.State != session.OpDone {
		l.t.Fatalf("read %s: %v\n%s", key, o.Err, view(l.m))
	}
	return r
}

// getPrompt gets a prompt through the Prompts pane with the given argument values, in
// form order, answering dialogs with ans.
func (l *live) getPrompt(name string, ans answerer, vals ...string) *promptGet {
	l.t.Helper()
	l.key("6")
	if !l.m.prompts.list.selectKey(name) {
		l.t.Fatalf("prompt %s not listed\n%s", name, view(l.m))
	}
	l.key("enter")
	if f := l.m.prompts.form; f != nil {
		for i, v := range vals {
			setArg(f, i, v)
		}
		l.key("ctrl+s")
		if l.m.prompts.form != nil {
			l.key("ctrl+s")
		}
	}
	g := l.m.prompts.gets[name]
	if g == nil {
		l.t.Fatalf("prompts/get %s not sent\n%s", name, view(l.m))
	}
	l.until("prompts/get "+name, func() bool {
		if len(l.m.overlay.requests) > 0 && ans != nil {
			l.answerDialogs(ans, nil)
		}
		return !l.m.sess.Inflight().Get(g.opID).Running()
	}, 30*time.Second)
	if o := l.m.sess.Inflight().Get(g.opID); o.State != session.OpDone {
		l.t.Fatalf("prompts/get %s: %v\n%s", name, o.Err, view(l.m))
	}
	return g
}
