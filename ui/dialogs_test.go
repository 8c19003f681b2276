package ui

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// At the smallest screen (40x10) an elicitation dialog still shows the question and the
// whole key line (wrapped).
func TestElicitationDialogSmallScreenKeepsQuestionAndKeys(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 40, 10)
	var rec answerLog
	form := `{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name"]}}`
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("elicitation/create", form)}})
	out := ansi.Strip(view(m))
	if n := len(strings.Split(out, "\n")); n != 10 {
		t.Errorf("%d lines, want 10", n)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"Your name?", "ctrl+s accept", "ctrl+d decline", "esc cancel"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, out)
		}
	}
	typeIn(t, m, "Ann")
	keys(t, m, "ctrl+s")
	if got := rec.answers(); len(got) != 1 || got[0] != `{"action":"accept","content":{"name":"Ann"}}` {
		t.Fatalf("answers %q", got)
	}
}

// An elicitation form is filled with the schema's defaults (MCP 2025-11-25
// client/elicitation, SEP-1034): accepting at once sends them; typing on a field replaces
// its default. A tool form with the same schema still leaves defaults out.
func TestElicitationFormSendsDefaults(t *testing.T) {
	schema := `{"type":"object","properties":{"name":{"type":"string","default":"John Doe"},"age":{"type":"integer","default":30},"score":{"type":"number","default":95.5},"status":{"type":"string","enum":["active","inactive"],"default":"active"},"verified":{"type":"boolean","default":true}}}`
	m := connected(t, moreSession(), 120, 40)
	var rec answerLog
	req := `{"message":"Defaults?","requestedSchema":` + schema + `}`
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("elicitation/create", req), rec.req("elicitation/create", req)}})
	if out := view(m); strings.Contains(out, "default, not sent") || !strings.Contains(out, "John Doe") {
		t.Errorf("the form does not show the defaults as values:\n%s", out)
	}
	keys(t, m, "ctrl+s")
	// The second: the name typed over, the age edited (replaced on the first key).
	typeIn(t, m, "Ann")
	keys(t, m, "tab")
	typeIn(t, m, "41")
	keys(t, m, "ctrl+s")
	got := rec.answers()
	want := []string{
		`{"action":"accept","content":{"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}}`,
		`{"action":"accept","content":{"name":"Ann","age":41,"score":95.5,"status":"active","verified":true}}`,
	}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("answers\n%q\nwant\n%q", got, want)
	}
	// Tool forms keep "default, not sent".
	fm, s := formModel(t, 120, 40, "", mcpclient.Tool{Name: "d", InputSchema: json.RawMessage(schema)})
	if !strings.Contains(view(fm), "(default, not sent)") {
		t.Errorf("the tool form lost its default placeholders:\n%s", view(fm))
	}
	keys(t, fm, "ctrl+s")
	if len(s.calls) != 1 || string(s.calls[0]) != `{}` {
		t.Fatalf("the tool form sent %q", s.calls)
	}
}

// Sampling: the dialog shows the request; the typed reply goes back shaped per spec;
// ctrl+d rejects with an error.
func TestSamplingDialog(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 40)
	var rec answerLog
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
	var rec answerLog
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

// #14 §3: with roots configured (--root), roots/list is answered with them at once, no
// dialog; editing them (R) sends notifications/roots/list_changed (legacy) and the next
// roots/list gets the edited list.
func TestRootsAnsweredAtOnceAndEditing(t *testing.T) {
	s := moreSession()
	dir := t.TempDir()
	m := connected(t, s, 120, 30, func(o *Options) { o.Roots = []string{dir, "file:///srv/data"} })
	if len(m.sess.Roots().List) != 2 || m.sess.Roots().List[0].URI != "file://"+dir || m.sess.Roots().List[1].URI != "file:///srv/data" {
		t.Fatalf("roots %+v", m.sess.Roots().List)
	}
	var rec answerLog
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("roots/list", `{}`)}})
	first := `{"roots":[{"uri":"file://` + dir + `","name":"` + filepath.Base(dir) + `"},{"uri":"file:///srv/data","name":"data"}]}`
	if got := rec.answers(); len(got) != 1 || got[0] != first || len(m.overlay.requests) != 0 {
		t.Fatalf("roots answer %q, %d dialog(s) open", got, len(m.overlay.requests))
	}
	mustContain(t, "note", view(m), "roots/list: sent the 2 configured root(s) without asking (R edits them)")
	keys(t, m, "R", "d") // edit: delete the first
	if len(m.sess.Roots().List) != 1 || s.rootsNotified != 1 {
		t.Fatalf("roots %+v notified %d", m.sess.Roots().List, s.rootsNotified)
	}
	keys(t, m, "a")
	typeIn(t, m, dir+"/sub")
	keys(t, m, "enter")
	if len(m.sess.Roots().List) != 2 || s.rootsNotified != 2 || !strings.Contains(view(m), "does not exist (kept)") {
		t.Fatalf("add: %+v %d\n%s", m.sess.Roots().List, s.rootsNotified, view(m))
	}
	keys(t, m, "esc")
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("roots/list", `{}`)}})
	want := `{"roots":[{"uri":"file:///srv/data","name":"data"},{"uri":"file://` + dir + `/sub","name":"sub"}]}`
	if got := rec.answers(); len(got) != 2 || got[1] != want {
		t.Fatalf("roots answer %q", got)
	}
}

// A roots/list that comes before the --root paths are resolved waits for them: it is
// answered with them then, without a dialog over the first screen.
func TestRootsListBeforeRootsResolved(t *testing.T) {
	dir := t.TempDir()
	m := newTestModel(t, moreSession(), 120, 30, func(o *Options) { o.Roots = []string{dir} })
	m.dialogGuard = 0
	var rec answerLog
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("roots/list", `{}`)}})
	if len(m.overlay.requests) != 0 || len(rec.answers()) != 0 {
		t.Fatalf("before the roots resolved: %d dialog(s), answers %q", len(m.overlay.requests), rec.answers())
	}
	drive(t, m, resolveRoots([]string{dir}, true)())
	want := `{"roots":[{"uri":"file://` + dir + `","name":"` + filepath.Base(dir) + `"}]}`
	if got := rec.answers(); len(got) != 1 || got[0] != want || len(m.overlay.requests) != 0 {
		t.Fatalf("roots answer %q, %d dialog(s) open", got, len(m.overlay.requests))
	}
	mustContain(t, "note", view(m), "sent the 1 configured root(s) without asking")
}

// A local server without --root is answered with its working directory (DefaultRoot) at
// once, and the note says so; the root is not kept for a restart (offered again then).
func TestRootsDefaultWorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	m := connected(t, moreSession(), 160, 30, func(o *Options) { o.DefaultRoot = dir })
	var rec answerLog
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("roots/list", `{}`)}})
	want := `{"roots":[{"uri":"file://` + dir + `","name":"` + filepath.Base(dir) + `"}]}`
	if got := rec.answers(); len(got) != 1 || got[0] != want || len(m.overlay.requests) != 0 {
		t.Fatalf("roots answer %q, %d dialog(s) open", got, len(m.overlay.requests))
	}
	mustContain(t, "note", view(m), "sent the working directory "+dir+" as the root without asking")
	if k := m.rootsToKeep(); len(k) != 0 {
		t.Errorf("kept for a restart: %q", k)
	}
}

// Without roots configured, roots/list asks: the dialog shows it, e edits the roots
// there, and accept sends them.
func TestRootsDialogWithoutConfiguredRoots(t *testing.T) {
	s := moreSession()
	dir := t.TempDir()
	m := connected(t, s, 120, 30)
	var rec answerLog
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("roots/list", `{}`)}})
	mustContain(t, "roots dialog", view(m), "the server asks for the client's roots")
	if len(rec.answers()) != 0 {
		t.Fatalf("answered without asking: %q", rec.answers())
	}
	keys(t, m, "e", "a")
	typeIn(t, m, dir)
	keys(t, m, "enter", "esc", "enter")
	want := `{"roots":[{"uri":"file://` + dir + `","name":"` + filepath.Base(dir) + `"}]}`
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
	var rec answerLog
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
	if caps := string(m.sess.Features().Capabilities()); caps != `{"elicitation":{"form":{}}}` {
		t.Fatalf("capabilities %s", caps)
	}
	if caps := string(session.ClientFeatures{}.Capabilities()); caps != `{"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true},"sampling":{}}` {
		t.Fatalf("all capabilities %s", caps)
	}
}

// A server that cancels its own request closes the dialog unanswered.
func TestServerCancelsItsRequest(t *testing.T) {
	m := connected(t, moreSession(), 120, 30)
	var rec answerLog
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("sampling/createMessage", `{"messages":[],"maxTokens":1}`)}})
	drive(t, m, eventsMsg{events: []mcpclient.Event{ev(9, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"timeout"}}`+"\n")}})
	if len(m.overlay.requests) != 0 || len(rec.answers()) != 0 {
		t.Fatalf("dialogs %d answers %q", len(m.overlay.requests), rec.answers())
	}
	mustContain(t, "note", view(m), "the server cancelled its sampling/createMessage")
}

// Keys typed just as a dialog pops up (meant for a pane) never answer it.
func TestDialogIgnoresKeysAsItAppears(t *testing.T) {
	m := connected(t, moreSession(), 120, 30)
	m.dialogGuard = 400 * time.Millisecond
	now := t0
	m.now = func() time.Time { return now }
	var rec answerLog
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
	var rec answerLog
	drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{rec.req("roots/list", `{}`), rec.req("roots/list", `{}`)}})
	drive(t, m, eventsMsg{events: []mcpclient.Event{life(9, mcpclient.LifeInfo{Kind: mcpclient.LifeExited, ExitCode: 1})}})
	if len(m.overlay.requests) != 0 {
		t.Fatalf("%d dialogs left", len(m.overlay.requests))
	}
	mustContain(t, "note", view(m), "the server is gone: 2 server request(s) closed unanswered")
}
