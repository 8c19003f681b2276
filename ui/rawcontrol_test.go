package ui

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// evil is the B23 payload (cases.md): clear screen, window title, OSC-8 link, SGR color,
// a bidi override, plus a C1 control, DEL and invalid UTF-8 for good measure.
const evil = "\x1b[2J\x1b]0;PWNED\x07 \x1b]8;;http://attacker.invalid/\x07click\x1b]8;;\x07 \x1b[31mred\x1b[0m \u202eevil\u202c \u0085\x7f\u2066"

// evilJSON is evil as a JSON string literal (control characters escaped, as valid JSON
// requires; bidi characters raw, as JSON allows).
func evilJSON() string {
	b, _ := json.Marshal(evil)
	return string(b)
}

func evilSession() *fakeSession {
	ej := evilJSON()
	schema := `{"type":"object","title":` + ej + `,"properties":{` +
		`"s":{"type":"string","title":` + ej + `,"description":` + ej + `,"default":` + ej + `},` +
		`"e":{"type":"string","enum":[` + ej + `,"ok"]},` +
		`"n":{"type":"integer","description":` + ej + `}},"required":["s"]}`
	return &fakeSession{
		init: &mcpclient.InitializeResult{
			ProtocolVersion: "2025-11-25" + evil,
			ServerInfo:      mcpclient.Implementation{Name: "srv" + evil, Version: "1" + evil, Title: evil},
			Instructions:    "use me" + evil,
			Capabilities:    json.RawMessage(`{"tools":{},"x":` + ej + `}`),
			Warnings:        []string{"odd version" + evil},
		},
		tools: []mcpclient.Tool{{
			Name: "headers" + evil, Title: "T" + evil, Description: "Fetch headers" + evil,
			InputSchema: json.RawMessage(schema),
		}},
		result: &mcpclient.CallToolResult{
			IsError: true,
			Content: []mcpclient.ContentBlock{
				{Type: "text", Text: "Server: Apache" + evil},
				{Type: "image", MimeType: "image/png" + evil, Data: "aGVsbG8="},
				{Type: "resource_link", URI: "file:///x" + evil, Name: "n" + evil, MimeType: "m" + evil, Description: evil},
				{Type: "resource", Resource: &mcpclient.ResourceContents{URI: "u" + evil, MimeType: "text/plain", Text: "body" + evil}},
				{Type: "widget" + evil, Raw: json.RawMessage(`{"type":"widget","x":` + ej + `}`)},
			},
			StructuredContent: json.RawMessage(`{"v":` + ej + `}`),
		},
	}
}

func evilEvents() []mcpclient.Event {
	ej := evilJSON()
	notif := ev(4, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":`+ej+`}}`+"\n")
	errResp := ev(6, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":9,"error":{"code":-32000,"message":`+ej+`}}`+"\n")
	errResp.Method = "tools/call" + evil
	errResp.Pair = 5
	raw := ev(7, mcpclient.ServerToClient, "junk"+evil+"\r\n")
	raw.Problems = append(raw.Problems, mcpclient.Problem{Severity: mcpclient.Warning, Code: "x" + evil, Text: "problem" + evil})
	raw.Chunks, raw.ChunkCount = []int{2, 5}, 2
	return []mcpclient.Event{
		life(1, mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, PID: 7, Text: "started" + evil}),
		ev(2, mcpclient.Stderr, evil+"\n"),
		ev(3, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":`+ej+`}}`+"\n"),
		notif,
		ev(5, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":9,"method":"x"}`+"\n"),
		errResp,
		raw,
		life(8, mcpclient.LifeInfo{Kind: mcpclient.LifeExited, PID: 7, ExitCode: 2, Text: "server exited" + evil, Err: errors.New("boom" + evil)}),
	}
}

// assertClean fails if out holds anything a terminal would interpret, other than the
// one sequence the plain theme lets through: the text cursor's reverse video.
func assertClean(t *testing.T, where, out string) {
	t.Helper()
	out = strings.ReplaceAll(out, "\x1b[7m", "")
	out = strings.ReplaceAll(out, "\x1b[m", "")
	for i, r := range out {
		switch {
		case r == utf8.RuneError:
			t.Fatalf("%s: invalid UTF-8 or U+FFFD at %d: %q", where, i, out[max(i-20, 0):min(i+20, len(out))])
		case r == '\n':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || sanitize.Dangerous(r):
			t.Fatalf("%s: raw %U reached the screen at %d: %q", where, r, i, out[max(i-30, 0):min(i+30, len(out))])
		}
	}
	if strings.Contains(out, "PWNED\a") {
		t.Fatalf("%s: BEL", where)
	}
}

// TestNoRawControlReachesTheScreen walks every pane of a session whose every string
// carries terminal escapes (case B23).
func TestNoRawControlReachesTheScreen(t *testing.T) {
	for _, w := range []int{60, 140} {
		s := evilSession()
		m := newTestModel(t, s, w, 30)
		m.launch.argv = []string{"srv", "--x" + evil}
		exec(t, m, m.Init(), 0)
		drive(t, m, eventsMsg{events: evilEvents()})
		assertClean(t, "tools", view(m))
		keys(t, m, "]", "]", "]")
		assertClean(t, "tools detail scrolled", view(m))
		keys(t, m, "F")
		typeIn(t, m, "h")
		assertClean(t, "tools filter", view(m))
		keys(t, m, "enter", "enter")
		if m.call.form == nil {
			t.Fatal("form did not open")
		}
		for i := 0; i < 5; i++ {
			assertClean(t, "form", view(m))
			keys(t, m, "tab")
		}
		keys(t, m, "ctrl+e")
		assertClean(t, "raw editor", view(m))
		raw := m.call.form.raw.Value()
		keys(t, m, "ctrl+e", "ctrl+s", "ctrl+s")
		if len(s.calls) != 1 {
			t.Fatalf("not sent: %v", m.call.form.errs)
		}
		// The editor's escaped text is the same JSON value.
		var a, b any
		if err := json.Unmarshal([]byte(raw), &a); err != nil {
			t.Fatalf("raw editor text is not JSON: %v\n%s", err, raw)
		}
		if err := json.Unmarshal(s.calls[0], &b); err != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("editor value %v != sent %s", a, s.calls[0])
		}
		out := view(m)
		assertClean(t, "result", out)
		all := strings.Join(m.call.lines, "\n")
		if !strings.Contains(out, "tool returned an error (isError)") || !strings.Contains(all, "unknown content type 'widget") || !strings.Contains(all, "structuredContent") || !strings.Contains(all, "⚠ block 1 holds terminal control") {
			t.Fatalf("result:\n%s", out)
		}
		for range 6 {
			keys(t, m, "pgdown")
			assertClean(t, "result scrolled", view(m))
		}
		keys(t, m, "3", "g", "j")
		if w > 100 && !strings.Contains(view(m), " ␛ ") {
			t.Fatalf("stderr line with escapes has no badge:\n%s", view(m))
		}
		keys(t, m, "g")
		for i := 0; i < m.tl.len(); i++ {
			assertClean(t, "wire", view(m))
			for range 4 {
				keys(t, m, "]")
				assertClean(t, "wire detail", view(m))
			}
			keys(t, m, "j")
		}
		keys(t, m, "4")
		for range 5 {
			assertClean(t, "server", view(m))
			keys(t, m, "pgdown")
		}
		keys(t, m, "?")
		assertClean(t, "help", view(m))
		// The same error through a failed call.
		m.call.run.err = &mcpclient.RPCError{Code: -32000, Message: evil, Data: json.RawMessage(`{"d":` + evilJSON() + `}`)}
		m.call.render()
		keys(t, m, "?", "2")
		assertClean(t, "rpc error", view(m))
		m.call.run.err = &mcpclient.ExitError{ExitCode: 3, Pending: "req" + evil, Stderr: []string{evil}}
		m.call.render()
		assertClean(t, "exit error", view(m))
	}
}

func TestEscapeJSONTextRoundTrips(t *testing.T) {
	in := `{"a":"x` + "\u202e\U000E0041\u00ad" + `y","b":1}`
	out := escapeJSONText(in)
	if sanitize.Contains(out, sanitize.Text) {
		t.Fatalf("still dangerous: %q", out)
	}
	var a, b any
	if json.Unmarshal([]byte(in), &a) != nil || json.Unmarshal([]byte(out), &b) != nil || !reflect.DeepEqual(a, b) {
		t.Fatalf("%q does not decode to the same value as %q", out, in)
	}
}

// evilMore is a server whose resources, templates, prompts, completions, logs, tasks and
// requests all carry terminal escapes (case B23).
func evilMore() *fakeSession {
	ej := evilJSON()
	s := moreSession()
	size := int64(9)
	s.resources = []mcpclient.Resource{{URI: "file:///x" + evil, Name: "n" + evil, Title: evil, MimeType: "text/plain" + evil, Description: evil, Size: &size,
		Annotations: json.RawMessage(`{"audience":[` + ej + `]}`)}}
	s.templates = []mcpclient.ResourceTemplate{{URITemplate: "t://{v}" + evil, Name: "t" + evil, Description: evil, MimeType: evil}}
	s.contents = map[string]*mcpclient.ReadResourceResult{"file:///x" + evil: {Contents: []mcpclient.ResourceContents{
		{URI: "file:///x" + evil, MimeType: evil, Text: "body" + evil}, {URI: evil, MimeType: evil, Blob: "aGk="}}}}
	s.prompts = []mcpclient.Prompt{{Name: "p" + evil, Title: evil, Description: evil, Arguments: []mcpclient.PromptArgument{{Name: "a" + evil, Description: evil, Required: true}}}}
	s.promptRes = &mcpclient.GetPromptResult{Description: evil, Messages: []mcpclient.PromptMessage{
		{Role: "user" + evil, Content: mcpclient.ContentBlock{Type: "text", Text: evil}},
		{Role: "assistant", Content: mcpclient.ContentBlock{Type: "x" + evil, Raw: json.RawMessage(`{"type":` + ej + `}`)}},
	}}
	s.completions = map[string][]string{"a" + evil: {"v" + evil}}
	s.taskResult = json.RawMessage(`{"content":[{"type":"text","text":` + ej + `}]}`)
	return s
}

// TestMorePanesNoRawControl walks Resources, Prompts, Logs, Tasks and every dialog with
// escapes in every server string.
func TestMorePanesNoRawControl(t *testing.T) {
	ej := evilJSON()
	for _, w := range []int{60, 140} {
		s := evilMore()
		m := connected(t, s, w, 30)
		keys(t, m, "5")
		assertClean(t, "resources", view(m))
		keys(t, m, "enter")
		assertClean(t, "read", view(m))
		for range 4 {
			keys(t, m, "]")
			assertClean(t, "read scrolled", view(m))
		}
		keys(t, m, "w")
		assertClean(t, "save prompt", view(m))
		keys(t, m, "tab")
		assertClean(t, "save prompt, content 2", view(m))
		keys(t, m, "esc", "j", "enter")
		assertClean(t, "template form", view(m))
		keys(t, m, "esc", "6", "enter")
		f := m.prompts.form
		drive(t, m, completeTickMsg{form: f.id, tag: f.compl.tag})
		assertClean(t, "prompt form with suggestions", view(m))
		keys(t, m, "ctrl+n", "enter")
		assertClean(t, "accepted suggestion", view(m))
		keys(t, m, "ctrl+s")
		for range 4 {
			assertClean(t, "prompt result", view(m))
			keys(t, m, "]")
		}
		drive(t, m, eventsMsg{events: []mcpclient.Event{
			ev(50, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":`+ej+`,"logger":`+ej+`,"data":{"k":`+ej+`}}}`+"\n"),
			ev(51, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":`+ej+`}}`+"\n"),
			ev(52, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":`+ej+`,"status":`+ej+`,"statusMessage":`+ej+`}}`+"\n"),
			ev(53, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/x`+evil[:4]+`","params":{"v":`+ej+`}}`+"\n"),
		}})
		keys(t, m, "7")
		assertClean(t, "logs", view(m))
		keys(t, m, "k", "k")
		assertClean(t, "logs, earlier entry", view(m))
		keys(t, m, "8")
		assertClean(t, "tasks", view(m))
		keys(t, m, "4")
		for range 5 {
			assertClean(t, "server", view(m))
			keys(t, m, "pgdown")
		}
		var rec answerLog
		drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{
			rec.req("sampling/createMessage", `{"messages":[{"role":`+ej+`,"content":[{"type":"text","text":`+ej+`},{"type":"image","mimeType":`+ej+`,"data":"aGk="}]}],"systemPrompt":`+ej+`,"modelPreferences":{"hints":[{"name":`+ej+`}]},"maxTokens":5,"stopSequences":[`+ej+`],"includeContext":`+ej+`}`),
			rec.req("elicitation/create", `{"message":`+ej+`,"requestedSchema":{"type":"object","properties":{"n":{"type":"string","title":`+ej+`,"description":`+ej+`,"default":`+ej+`},"e":{"type":"string","enum":[`+ej+`]}}}}`),
			rec.req("elicitation/create", `{"mode":"url","message":`+ej+`,"url":"https://h`+evil[:2]+`.example/`+"\\u202e"+`","elicitationId":`+ej+`}`),
			rec.req("roots/list", `{}`),
		}})
		m.sess.Roots().List = []mcpclient.Root{{URI: "file:///r" + evil, Name: evil}}
		for range 4 {
			assertClean(t, "dialog "+m.overlay.requests[0].base().req.Method, view(m))
			keys(t, m, "pgdown")
			assertClean(t, "dialog scrolled", view(m))
			if _, roots := m.overlay.requests[0].(*rootsDialog); roots {
				keys(t, m, "e")
				assertClean(t, "roots editor", view(m))
				keys(t, m, "esc")
			}
			keys(t, m, "ctrl+d")
		}
		keys(t, m, "7")
		assertClean(t, "logs after the answers", view(m))
	}
}
