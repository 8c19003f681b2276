package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

func mustContain(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("%s lacks %q\n%s", what, w, out)
		}
	}
}

// Resources: every resource and template listed; enter reads (text in full, blob as MIME
// type and size); w saves the decoded blob to a new file.
func TestResourcesReadAndSave(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "5")
	out := view(m)
	mustContain(t, "resources pane", out, "resources (2) · templates (1)", "notes.txt", "logo", "   profile template", "uri:  file:///notes.txt", "Some notes")
	keys(t, m, "enter")
	if len(s.reads) != 1 || s.reads[0] != "file:///notes.txt" {
		t.Fatalf("reads %q", s.reads)
	}
	mustContain(t, "text read", view(m), "1 content item(s)", "line one", "line two", "the end", "took 3ms · request #20 → response #21")

	keys(t, m, "j", "enter")
	mustContain(t, "blob read", view(m), "mime: image/png", "blob: 8B decoded (8 bytes) · w saves it")
	dir := t.TempDir()
	keys(t, m, "w")
	if m.resources.save == nil || m.resources.save.input.Value() != "logo.png" {
		t.Fatalf("save prompt: %+v", m.resources.save)
	}
	path := filepath.Join(dir, "logo.png")
	m.resources.save.input.SetValue(path)
	keys(t, m, "enter")
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "\x89PNG\r\n\x1a\n" {
		t.Fatalf("saved %q %v", b, err)
	}
	mustContain(t, "saved note", view(m), "saved 8 bytes to")
	// Never over an existing file.
	keys(t, m, "w")
	m.resources.save.input.SetValue(path)
	keys(t, m, "enter")
	if !strings.Contains(m.resources.saved, "file exists") {
		t.Fatalf("overwrote: %q", m.resources.saved)
	}
}

// Templates: a form of the RFC 6570 variables with completions (debounced, tagged, with
// the other variables as context); the expanded URI is read.
func TestTemplateFormCompletionAndRead(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "5", "G", "enter")
	f := m.resources.form
	if f == nil || len(f.fields) != 2 || f.fields[0].name != "team" || f.fields[1].name != "user" {
		t.Fatalf("template form: %+v", f)
	}
	typeIn(t, m, "c")
	// The debounce tick of an older edit is stale: nothing is sent for it.
	stale := completeTickMsg{form: f.id, tag: f.tag - 1}
	drive(t, m, stale)
	if len(s.completes) != 0 {
		t.Fatalf("a stale tick sent completion/complete: %q", s.completes)
	}
	drive(t, m, completeTickMsg{form: f.id, tag: f.tag})
	if len(s.completes) != 1 || s.completes[0] != "ref/resource:users://{team}/{user}/profile team=c ctx[]" {
		t.Fatalf("completes %q", s.completes)
	}
	out := view(m)
	mustContain(t, "suggestions", out, "core", "cloud")
	// An answer for an old tag is dropped.
	f.completed(completedMsg{form: f.id, tag: f.tag - 5, field: 0, res: &mcpclient.Completion{Values: []string{"STALE"}}})
	if strings.Contains(view(m), "STALE") {
		t.Fatal("stale completion shown")
	}
	keys(t, m, "ctrl+n", "ctrl+n", "enter") // the second suggestion: cloud
	if v := f.fields[0].input.Value(); v != "cloud" {
		t.Fatalf("accepted %q", v)
	}
	f.fields[0].input.SetValue("core")
	keys(t, m, "tab")
	typeIn(t, m, "a")
	drive(t, m, completeTickMsg{form: f.id, tag: f.tag})
	if got := s.completes[len(s.completes)-1]; got != "ref/resource:users://{team}/{user}/profile user=a ctx[team=core]" {
		t.Fatalf("completion context: %q", got)
	}
	mustContain(t, "user suggestions", view(m), "ann", "uri: users://core/a/profile")
	keys(t, m, "ctrl+n", "enter", "ctrl+s")
	if last := s.reads[len(s.reads)-1]; last != "users://core/ann/profile" {
		t.Fatalf("read %q", s.reads)
	}
	mustContain(t, "template read", view(m), `{"name":"Ann"}`, "resources/read users://core/ann/profile")
}

// Subscribe sends resources/subscribe; notifications/resources/updated marks the resource;
// s again unsubscribes.
func TestSubscribeAndUpdates(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "5", "s")
	if len(s.subs) != 1 || s.subs[0] != "+file:///notes.txt" || !m.resources.subs["file:///notes.txt"] {
		t.Fatalf("subs %q", s.subs)
	}
	mustContain(t, "subscribed", view(m), "● subscribed", "▸● notes.txt")
	upd := ev(7, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///notes.txt"}}`+"\n")
	drive(t, m, eventsMsg{events: []mcpclient.Event{upd}})
	mustContain(t, "updated", view(m), "▸↻ notes.txt", "↻ updated 1 time(s)", "resource updated: file:///notes.txt")
	keys(t, m, "s")
	if s.subs[1] != "-file:///notes.txt" || m.resources.subs["file:///notes.txt"] {
		t.Fatalf("unsubscribe: %q", s.subs)
	}
}

// Prompts: enter opens the arguments form (completion by ref/prompt); the messages come
// back rendered by role, every content type, the unknown one raw.
func TestPromptsGet(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 60)
	keys(t, m, "6")
	mustContain(t, "prompts", view(m), "prompts (2)", "simple", "greet (2)")
	keys(t, m, "enter")
	if len(s.gets) != 1 || s.gets[0] != "simple null" {
		t.Fatalf("gets %q", s.gets)
	}
	keys(t, m, "j", "enter")
	f := m.prompts.form
	if f == nil {
		t.Fatal("no form")
	}
	typeIn(t, m, "P")
	drive(t, m, completeTickMsg{form: f.id, tag: f.tag})
	if got := s.completes[len(s.completes)-1]; got != "ref/prompt:greet city=P ctx[]" {
		t.Fatalf("completion %q", got)
	}
	mustContain(t, "city suggestions", view(m), "Paris", "Prague")
	// Sending with the required city missing is refused once.
	f.fields[0].input.SetValue("")
	keys(t, m, "ctrl+s")
	mustContain(t, "required", view(m), "required: city")
	f.fields[0].input.SetValue("Paris")
	keys(t, m, "ctrl+s")
	if s.gets[len(s.gets)-1] != `greet {"city":"Paris"}` {
		t.Fatalf("gets %q", s.gets)
	}
	out := view(m)
	mustContain(t, "prompt result", out, "6 message(s)", "── 1 · user ──", "Say hello to Paris", "── 2 · assistant ──", "[1] image",
		"embedded notes", "[1] audio", "[1] resource_link", "unknown content type 'sparkle'", "arguments: city=Paris")
}

// Logs: notifications/message with level, logger and data; f filters by level; l sets the
// server's level through logging/setLevel.
func TestLogsPane(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	drive(t, m, eventsMsg{events: []mcpclient.Event{
		ev(5, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"debug","logger":"db","data":"connecting"}}`+"\n"),
		ev(6, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","logger":"db","data":{"code":7,"why":"refused"}}}`+"\n"),
	}})
	keys(t, m, "7")
	mustContain(t, "logs", view(m), "debug    [db] connecting", "error    [db] {\"code\":7", `"why": "refused"`, "logger db", "wire #6")
	keys(t, m, "f", "f", "f", "f", "f") // info, notice, warning, error
	out := view(m)
	if strings.Contains(out, "connecting") || !strings.Contains(out, "showing error and above") {
		t.Fatalf("filter:\n%s", out)
	}
	keys(t, m, "l", "right", "right", "enter") // info → warning
	if len(s.levels) != 1 || s.levels[0] != "warning" {
		t.Fatalf("levels %q", s.levels)
	}
	keys(t, m, "f", "f", "f", "f")
	mustContain(t, "level set", view(m), "server level: warning", "logging/setLevel warning accepted")
}

// list_changed lists again (once for a burst) and says so.
func TestListChangedRefreshes(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	s.prompts = append(s.prompts, mcpclient.Prompt{Name: "added"})
	n := func(method string, seq uint64) mcpclient.Event {
		return ev(seq, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"`+method+`"}`+"\n")
	}
	drive(t, m, eventsMsg{events: []mcpclient.Event{n("notifications/prompts/list_changed", 5), n("notifications/tools/list_changed", 6), n("notifications/resources/list_changed", 7)}})
	if len(m.prompts.prompts) != 3 {
		t.Fatalf("prompts not listed again: %d", len(m.prompts.prompts))
	}
	keys(t, m, "7")
	mustContain(t, "notes", view(m), "prompts list changed: listed again, 3 prompts", "tools list changed: listed again, 1 tool", "resources list changed: listed again, 3 resources")
	// A burst while a listing is in flight asks for exactly one more.
	m.sess.Lists().Start(session.Tools)
	drive(t, m, eventsMsg{events: []mcpclient.Event{n("notifications/tools/list_changed", 8), n("notifications/tools/list_changed", 9)}})
	if !m.sess.Lists().Dirty(session.Tools) {
		t.Fatal("not marked dirty")
	}
	cmd := m.toolsListed(toolsListedMsg{tools: s.tools})
	if cmd == nil || m.sess.Lists().Dirty(session.Tools) || !m.sess.Lists().InFlight(session.Tools) {
		t.Fatal("the burst did not list once more")
	}
}

// Ping measures the round trip (legacy); modern has none.
func TestPing(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "P")
	mustContain(t, "ping", view(m), "ping: 1.5ms round trip", "ping 1.5ms")
	keys(t, m, "4")
	mustContain(t, "server pane", view(m), "ping: 1.5ms round trip (P again)", "legacy (initialize handshake, 2025-11-25)")
}

// Sampling: the dialog shows the request; the typed reply goes back shaped per spec;
// ctrl+d rejects with an error.
func TestSamplingDialog(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 40)
	var rec recorder
	params := `{"messages":[{"role":"user","content":{"type":"text","text":"Say hi"}},{"role":"assistant","content":[{"type":"text","text":"earlier"}]}],"systemPrompt":"Be brief","modelPreferences":{"hints":[{"name":"claude"}],"speedPriority":0.5},"maxTokens":50,"temperature":0.2}`
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("sampling/createMessage", params), rec.req("sampling/createMessage", params)}})
	out := view(m)
	mustContain(t, "sampling dialog", out, "server request: sampling/createMessage · request id 1", "+1 more waiting", "⚑ 2 waiting",
		"system prompt", "Be brief", "── 1 · user ──", "Say hi", "── 2 · assistant ──", "earlier", "maxTokens 50 · temperature 0.2",
		"model preferences", `"name": "claude"`, "your reply")
	typeIn(t, m, "q1 hello") // q is text here, never quit
	if m.quitting {
		t.Fatal("q quit from a dialog")
	}
	keys(t, m, "ctrl+s")
	want := `{"role":"assistant","content":{"text":"q1 hello","type":"text"},"model":"mcp-inspect-user","stopReason":"endTurn"}`
	if got := rec.answers(); len(got) != 1 || got[0] != want {
		t.Fatalf("answer %q", got)
	}
	mustContain(t, "next dialog", view(m), "⚑ 1 waiting")
	keys(t, m, "ctrl+d")
	if got := rec.answers(); len(got) != 2 || got[1] != `error {"code":-1,"message":"User rejected sampling request"}` {
		t.Fatalf("reject %q", got)
	}
	if len(m.overlay.requests) != 0 || strings.Contains(view(m), "waiting") {
		t.Fatal("dialog not closed")
	}
}

// Elicitation, form mode: the form from requestedSchema (the tool form's engine); accept
// sends {action, content}; decline and cancel send the action alone. URL mode shows the URL,
// its host and id.
func TestElicitationDialogs(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 40)
	var rec recorder
	form := `{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name"]}}`
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("elicitation/create", form), rec.req("elicitation/create", form), rec.req("elicitation/create", form),
		rec.req("elicitation/create", `{"mode":"url","message":"Log in please","url":"https://auth.example.com/login?x=1","elicitationId":"el-9"}`)}})
	mustContain(t, "form dialog", view(m), "elicitation/create (form)", "Your name?", "name", "age", "ctrl+s accept")
	typeIn(t, m, "Ann")
	keys(t, m, "tab")
	typeIn(t, m, "42")
	keys(t, m, "ctrl+s")
	keys(t, m, "ctrl+d")
	keys(t, m, "esc")
	got := rec.answers()
	want := []string{`{"action":"accept","content":{"name":"Ann","age":42}}`, `{"action":"decline"}`, `{"action":"cancel"}`}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("answers %q", got)
	}
	mustContain(t, "url dialog", view(m), "elicitation/create (url)", "Log in please", "url:  https://auth.example.com/login?x=1", "host: auth.example.com", "elicitationId: el-9")
	keys(t, m, "enter")
	if got := rec.answers(); got[3] != `{"action":"accept"}` {
		t.Fatalf("url accept %q", got)
	}
}

// roots/list shows the configured roots; accept sends them; editing sends
// notifications/roots/list_changed (legacy).
func TestRootsDialogAndEditing(t *testing.T) {
	s := moreSession()
	dir := t.TempDir()
	m := connected(t, s, 120, 30, func(o *Options) { o.Roots = []string{dir, "file:///srv/data"} })
	if len(m.roots.List) != 2 || m.roots.List[0].URI != "file://"+dir || m.roots.List[1].URI != "file:///srv/data" {
		t.Fatalf("roots %+v", m.roots.List)
	}
	var rec recorder
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("roots/list", `{}`)}})
	mustContain(t, "roots dialog", view(m), "the server asks for the client's roots", "file://"+dir, "file:///srv/data")
	keys(t, m, "e", "d") // edit: delete the first
	if len(m.roots.List) != 1 || s.rootsNotified != 1 {
		t.Fatalf("roots %+v notified %d", m.roots.List, s.rootsNotified)
	}
	keys(t, m, "a")
	typeIn(t, m, dir+"/sub")
	keys(t, m, "enter")
	if len(m.roots.List) != 2 || s.rootsNotified != 2 || !strings.Contains(view(m), "does not exist (kept)") {
		t.Fatalf("add: %+v %d\n%s", m.roots.List, s.rootsNotified, view(m))
	}
	keys(t, m, "esc", "enter")
	want := `{"roots":[{"uri":"file:///srv/data","name":"data"},{"uri":"file://` + dir + `/sub","name":"sub"}]}`
	if got := rec.answers(); len(got) != 1 || got[0] != want {
		t.Fatalf("roots answer %q", got)
	}
}

// Requests the features do not cover are answered at once, never shown and never left.
func TestUnsupportedRequestsAnsweredAtOnce(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30, func(o *Options) {
		o.Features = session.ClientFeatures{NoSampling: true, NoElicitationURL: true, NoRoots: true}
	})
	var rec recorder
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{
		rec.req("sampling/createMessage", `{"messages":[],"maxTokens":1}`),
		rec.req("roots/list", `{}`),
		rec.req("elicitation/create", `{"mode":"url","url":"https://x","message":"m","elicitationId":"1"}`),
		rec.req("bogus/method", `{}`),
	}})
	got := rec.answers()
	if len(got) != 4 || len(m.overlay.requests) != 0 {
		t.Fatalf("answers %q dialogs %d", got, len(m.overlay.requests))
	}
	for i, code := range []string{`"code":-32601`, `"code":-32601`, `"code":-32602`, `"code":-32601`} {
		if !strings.Contains(got[i], code) {
			t.Errorf("answer %d: %s, want %s", i, got[i], code)
		}
	}
	if caps := string(m.features.Capabilities()); caps != `{"elicitation":{"form":{}}}` {
		t.Fatalf("capabilities %s", caps)
	}
	if caps := string(session.ClientFeatures{}.Capabilities()); caps != `{"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true},"sampling":{}}` {
		t.Fatalf("all capabilities %s", caps)
	}
}

// A server that cancels its own request closes the dialog unanswered.
func TestServerCancelsItsRequest(t *testing.T) {
	m := connected(t, moreSession(), 120, 30)
	var rec recorder
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("sampling/createMessage", `{"messages":[],"maxTokens":1}`)}})
	drive(t, m, eventsMsg{events: []mcpclient.Event{ev(9, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"timeout"}}`+"\n")}})
	if len(m.overlay.requests) != 0 || len(rec.answers()) != 0 {
		t.Fatalf("dialogs %d answers %q", len(m.overlay.requests), rec.answers())
	}
	mustContain(t, "note", view(m), "the server cancelled its sampling/createMessage")
}

// A tool with execution.taskSupport "required" is called as a task, polled, and its
// result is the call's; ctrl+x sends tasks/cancel.
func TestTaskCall(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "enter") // the research tool's form
	keys(t, m, "ctrl+s")
	if len(s.taskCalls) != 1 || s.taskCalls[0] != "research {}" || len(s.calls) != 0 {
		t.Fatalf("task calls %q calls %q", s.taskCalls, s.calls)
	}
	mustContain(t, "in flight", view(m), "task task-1: ⟳ working · thinking", "ctrl+x sends tasks/cancel")
	keys(t, m, "8")
	mustContain(t, "tasks pane", view(m), "▸⟳ research task-1 working", "status:   ⟳ working", "message:  thinking")
	s.tasks["task-1"].Status = "completed"
	drive(t, m, taskPollMsg{id: "task-1"})
	if m.call.run.running() || m.call.run.res == nil || m.call.run.res.Content[0].Text != "research done" {
		t.Fatalf("call not finished from tasks/result: %+v", m.call.run)
	}
	mustContain(t, "done", view(m), "▸✓ research task-1 completed", `"text": "research done"`)

	// A second call, cancelled.
	keys(t, m, "1", "enter", "ctrl+s")
	s.tasks["task-1"].Status = "working"
	drive(t, m, taskPollMsg{id: "task-1"})
	keys(t, m, "ctrl+x")
	if len(s.taskCancels) != 1 || m.call.run.running() || !errors.Is(m.call.run.err, context.Canceled) {
		t.Fatalf("cancel: %q %+v", s.taskCancels, m.call.run)
	}
	keys(t, m, "8")
	mustContain(t, "cancelled task", view(m), "cancelled")
}

// ctrl+x cancels a read in flight; the late response that comes anyway is shown, not used.
func TestReadCancelAndLateResponse(t *testing.T) {
	s := moreSession()
	s.readBlock = true
	m := connected(t, s, 120, 30)
	keys(t, m, "5")
	_, cmd := m.Update(keyMsg("enter"))
	done := make(chan tea.Msg, 8)
	go func() {
		for _, c := range cmd().(tea.BatchMsg) {
			if c != nil {
				c := c
				go func() { done <- c() }()
			}
		}
	}()
	req := ev(10, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"file:///notes.txt","_meta":{"progressToken":4}}}`+"\n")
	prog := ev(11, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":4,"progress":1,"total":4,"message":"reading"}}`+"\n")
	prog.Pair = 10
	drive(t, m, eventsMsg{events: []mcpclient.Event{req, prog}})
	mustContain(t, "in flight", view(m), "⟳ resources/read file:///notes.txt: waiting for the answer…", "1/4", "reading", "1 in flight")
	keys(t, m, "ctrl+x")
	for msg := range done {
		if rm, ok := msg.(resourceReadMsg); ok {
			drive(t, m, rm)
			break
		}
	}
	late := ev(12, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":4,"result":{"contents":[]}}`+"\n")
	late.Pair, late.Method = 10, "resources/read"
	late.Problems = []mcpclient.Problem{{Severity: mcpclient.Info, Code: mcpclient.CodeAfterCancel, Text: "response after cancel"}}
	drive(t, m, eventsMsg{events: []mcpclient.Event{late}})
	mustContain(t, "cancelled", view(m), "cancelled by you", "a late response arrived after the cancel (#12)", `"result":{"contents":[]}`, "response after cancel")
}

// Pagination warnings from mcpclient's guard are shown on the pane and the server tab.
func TestPaginationWarningsShown(t *testing.T) {
	s := moreSession()
	s.resWarnings = []string{`stopped paging resources/list: cursor "same" repeated`}
	m := connected(t, s, 120, 30)
	keys(t, m, "5")
	mustContain(t, "warning", view(m), `⚠ stopped paging resources/list: cursor "same" repeated`)
	mustContain(t, "server warnings", strings.Join(m.serverLines(120), "\n"), `⚠ stopped paging resources/list`)
}

// Modern era: the server pane shows server/discover; subscriptions go through
// subscriptions/listen, opened again with each change; ping says it does not exist.
func TestModernEra(t *testing.T) {
	s := moreSession()
	ttl := int64(0)
	s.init.Era = mcpclient.EraModern
	s.init.ProtocolVersion = "2026-07-28"
	s.init.Discover = &mcpclient.DiscoverResult{SupportedVersions: []string{"2026-07-28", "2025-11-25"}, TTLMs: &ttl, CacheScope: "public"}
	m := connected(t, s, 120, 40)
	keys(t, m, "4")
	mustContain(t, "server pane", view(m), "modern (2026-07-28)", "supportedVersions: 2026-07-28, 2025-11-25", "cacheScope: public", "modern era")
	keys(t, m, "5", "s")
	waitFor(t, func() bool { s.mmu.Lock(); defer s.mmu.Unlock(); return len(s.listens) == 2 })
	s.mmu.Lock()
	first, second := s.listens[0], s.listens[1]
	s.mmu.Unlock()
	if !first.ResourcesListChanged || len(first.ResourceSubscriptions) != 0 || len(second.ResourceSubscriptions) != 1 || second.ResourceSubscriptions[0] != "file:///notes.txt" {
		t.Fatalf("listens %+v", s.listens)
	}
	if len(s.subs) != 0 {
		t.Fatal("resources/subscribe sent in the modern era")
	}
	keys(t, m, "P")
	mustContain(t, "ping", view(m), "ping does not exist in the modern era")
	// Roots edits send no list_changed in the modern era.
	keys(t, m, "R", "a")
	typeIn(t, m, "/tmp")
	keys(t, m, "enter")
	if s.rootsNotified != 0 {
		t.Fatal("list_changed sent in the modern era")
	}
}

// waitFor polls cond (for commands that run on their own goroutines).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for i := 0; i < 200; i++ {
		if cond() {
			return
		}
		sleepMS(10)
	}
	t.Fatal("condition not met")
}

// Help shows the keys of the new panes and of an open dialog; every pane fits the screen.
func TestMorePanesHelpAndLayout(t *testing.T) {
	for _, sz := range [][2]int{{40, 10}, {80, 24}, {160, 50}} {
		m := connected(t, moreSession(), sz[0], sz[1])
		for _, p := range []string{"5", "6", "7", "8"} {
			keys(t, m, p)
			if lines := strings.Split(view(m), "\n"); len(lines) != sz[1] {
				t.Fatalf("%v pane %s: %d lines", sz, p, len(lines))
			}
		}
	}
	m := connected(t, moreSession(), 120, 40)
	keys(t, m, "5", "?")
	mustContain(t, "resources help", view(m), "subscribe ⇄ unsubscribe", "save contents to a file", "ping (round trip)", "edit roots")
	keys(t, m, "?")
	var rec recorder
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("sampling/createMessage", `{"messages":[],"maxTokens":1}`)}})
	keys(t, m, "?") // the dialog owns the keys: "?" is text in the reply
	if m.showHelp || m.overlay.requests[0].(*samplingDialog).reply.Value() != "?" {
		t.Fatalf("help over a dialog: %v %q", m.showHelp, m.overlay.requests[0].(*samplingDialog).reply.Value())
	}
	mustContain(t, "dialog keys", view(m), "ctrl+s send the reply · ctrl+d or esc reject")
}

func sleepMS(n int) { time.Sleep(time.Duration(n) * time.Millisecond) }

// Keys typed just as a dialog pops up (meant for a pane) never answer it.
func TestDialogIgnoresKeysAsItAppears(t *testing.T) {
	m := connected(t, moreSession(), 120, 30)
	m.dialogGuard = 400 * time.Millisecond
	now := t0
	m.now = func() time.Time { return now }
	var rec recorder
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("roots/list", `{}`)}})
	keys(t, m, "enter") // not drawn yet
	view(m)
	now = now.Add(100 * time.Millisecond)
	keys(t, m, "e", "enter")
	if len(rec.answers()) != 0 || openDialog[*rootsEditor](m) != nil {
		t.Fatalf("keys typed as the dialog appeared acted: %q editor=%v", rec.answers(), openDialog[*rootsEditor](m) != nil)
	}
	now = now.Add(time.Second)
	keys(t, m, "enter")
	if got := rec.answers(); len(got) != 1 || got[0] != `{"roots":[]}` {
		t.Fatalf("answer %q", got)
	}
}

// When the server dies, its open requests are closed (nobody is left to answer).
func TestDialogsCloseWhenTheServerDies(t *testing.T) {
	m := connected(t, moreSession(), 120, 30)
	var rec recorder
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("roots/list", `{}`), rec.req("roots/list", `{}`)}})
	drive(t, m, eventsMsg{events: []mcpclient.Event{life(9, mcpclient.LifeInfo{Kind: mcpclient.LifeExited, ExitCode: 1})}})
	if len(m.overlay.requests) != 0 {
		t.Fatalf("%d dialogs left", len(m.overlay.requests))
	}
	mustContain(t, "note", view(m), "the server is gone: 2 server request(s) closed unanswered")
}
