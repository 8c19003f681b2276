package ui

import (
	"encoding/json"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

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
		drive(t, m, completeTickMsg{form: f.id, tag: f.tag})
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
		var rec recorder
		drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{
			rec.req("sampling/createMessage", `{"messages":[{"role":`+ej+`,"content":[{"type":"text","text":`+ej+`},{"type":"image","mimeType":`+ej+`,"data":"aGk="}]}],"systemPrompt":`+ej+`,"modelPreferences":{"hints":[{"name":`+ej+`}]},"maxTokens":5,"stopSequences":[`+ej+`],"includeContext":`+ej+`}`),
			rec.req("elicitation/create", `{"message":`+ej+`,"requestedSchema":{"type":"object","properties":{"n":{"type":"string","title":`+ej+`,"description":`+ej+`,"default":`+ej+`},"e":{"type":"string","enum":[`+ej+`]}}}}`),
			rec.req("elicitation/create", `{"mode":"url","message":`+ej+`,"url":"https://h`+evil[:2]+`.example/`+"\\u202e"+`","elicitationId":`+ej+`}`),
			rec.req("roots/list", `{}`),
		}})
		m.roots.List = []mcpclient.Root{{URI: "file:///r" + evil, Name: evil}}
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
