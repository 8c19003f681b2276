package main

import (
	"encoding/json"
	"strconv"

	"github.com/mcp-inspect/mcp-inspect/internal/stdioserver"
)

// listsScenarios are the servers of issue #14 §2 (lists, ids and versions): pages that
// repeat items, an empty-string nextCursor, ids answered wrong or dropped, and protocol
// versions older, unknown or missing.
func listsScenarios() map[string]*scenario {
	return map[string]*scenario{
		"paging-repeat":       pagingRepeat(),
		"paging-empty-cursor": pagingEmptyCursor(),
		"id-zero-answer": {
			summary:   "answers tools/list and tools/call echo with id 0 instead of the request's id (after a correct initialize)",
			listTools: func(s *server, m *stdioserver.Message) { s.result(json.RawMessage("0"), `{"tools":[`+echoTool+`]}`) },
			calls: map[string]toolFunc{"echo": func(s *server, m *stdioserver.Message, args json.RawMessage) {
				s.result(json.RawMessage("0"), textResult(argString(args, "text", "")))
			}},
		},
		"id-stringly": {
			summary:   "answers tools/list, tools/call echo and ping with a numeric id as a string (\"2\" for 2)",
			listTools: func(s *server, m *stdioserver.Message) { s.result(stringID(m.ID), `{"tools":[`+echoTool+`]}`) },
			calls: map[string]toolFunc{"echo": func(s *server, m *stdioserver.Message, args json.RawMessage) {
				s.result(stringID(m.ID), textResult(argString(args, "text", "")))
			}},
			methods: map[string]func(*server, *stdioserver.Message){
				"ping": func(s *server, m *stdioserver.Message) { s.result(stringID(m.ID), `{}`) },
			},
		},
		"drop-id-0": {
			summary: "never answers a request whose id is 0 (a falsy-id bug: `if (!msg.id)` takes it for a notification)",
			startup: func(s *server) int { s.dropZero = true; return -1 },
		},
		"version-old":     versionScenario(`"2025-03-26"`, "answers initialize with protocolVersion 2025-03-26 whatever was asked; a tool with an outputSchema whose result has no structuredContent"),
		"version-unknown": versionScenario(`"2099-01-01"`, "answers initialize with protocolVersion 2099-01-01, which no revision has"),
		"version-missing": versionScenario("", "answers initialize without a protocolVersion"),
	}
}

// stringID is a numeric id as a JSON string: 2 → "2"; a string id stays as it is.
func stringID(id json.RawMessage) json.RawMessage {
	if len(id) > 0 && id[0] == '"' {
		return id
	}
	return json.RawMessage(strconv.Quote(string(id)))
}

// pagingRepeat lists tools, resources and prompts in three pages (cursors "2", "3") whose
// pages repeat items of earlier ones, as an offset bug does; templates come in one page.
func pagingRepeat() *scenario {
	pages := func(key string, items [3]string) func(*server, *stdioserver.Message) {
		return func(s *server, m *stdioserver.Message) {
			var p struct {
				Cursor string `json:"cursor"`
			}
			_ = json.Unmarshal(m.Params, &p)
			switch p.Cursor {
			case "":
				s.result(m.ID, `{"`+key+`":[`+items[0]+`],"nextCursor":"2"}`)
			case "2":
				s.result(m.ID, `{"`+key+`":[`+items[1]+`],"nextCursor":"3"}`)
			case "3":
				s.result(m.ID, `{"`+key+`":[`+items[2]+`]}`)
			default:
				s.fail(m.ID, stdioserver.CodeInvalidParams, "Invalid cursor")
			}
		}
	}
	tool := func(name string) string {
		return `{"name":"` + name + `","description":"` + name + ` text","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}`
	}
	res := func(n string) string { return `{"uri":"mem://` + n + `","name":"` + n + `"}` }
	prompt := func(n string) string { return `{"name":"` + n + `"}` }
	return &scenario{
		summary:      "tools, resources and prompts in three pages; pages 2 and 3 repeat items of page 1 (echo/add, mem://a/b, p1/p2)",
		capabilities: `{"tools":{},"resources":{},"prompts":{}}`,
		listTools:    pages("tools", [3]string{tool("echo") + "," + tool("add"), tool("add") + "," + tool("upper"), echoTool + "," + tool("lower")}),
		methods: map[string]func(*server, *stdioserver.Message){
			"resources/list":           pages("resources", [3]string{res("a") + "," + res("b"), res("b") + "," + res("c"), res("a")}),
			"resources/templates/list": func(s *server, m *stdioserver.Message) { s.result(m.ID, `{"resourceTemplates":[]}`) },
			"prompts/list":             pages("prompts", [3]string{prompt("p1") + "," + prompt("p2"), prompt("p2"), prompt("p3")}),
		},
	}
}

// pagingEmptyCursor answers every list page with "nextCursor": "" (the spec says to
// leave the member out on the last page).
func pagingEmptyCursor() *scenario {
	page := func(key, item string) func(*server, *stdioserver.Message) {
		return func(s *server, m *stdioserver.Message) { s.result(m.ID, `{"`+key+`":[`+item+`],"nextCursor":""}`) }
	}
	return &scenario{
		summary:      `every page of tools/list, resources/list, resources/templates/list and prompts/list carries "nextCursor": ""`,
		capabilities: `{"tools":{},"resources":{},"prompts":{}}`,
		listTools:    page("tools", echoTool),
		methods: map[string]func(*server, *stdioserver.Message){
			"resources/list":           page("resources", `{"uri":"mem://a","name":"a"}`),
			"resources/templates/list": page("resourceTemplates", `{"uriTemplate":"mem://{x}","name":"x"}`),
			"prompts/list":             page("prompts", `{"name":"p"}`),
		},
	}
}

// versionScenario answers initialize with version (raw JSON; "" leaves the member out) and
// lists a tool "stats" with an outputSchema whose result has no structuredContent (an
// advisory only from 2025-06-18, where outputSchema began).
func versionScenario(version, summary string) *scenario {
	const stats = `{"name":"stats","description":"Counts","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}}}}`
	return &scenario{
		summary: summary,
		initialize: func(s *server, m *stdioserver.Message) {
			v := ""
			if version != "" {
				v = `"protocolVersion":` + version + `,`
			}
			s.result(m.ID, `{`+v+`"capabilities":{"tools":{}},"serverInfo":{"name":"demo-server","version":"0.0.1"}}`)
		},
		tools: `{"tools":[` + echoTool + `,` + stats + `]}`,
		calls: map[string]toolFunc{
			"echo":  callEcho,
			"stats": func(s *server, m *stdioserver.Message, _ json.RawMessage) { s.result(m.ID, textResult(`{"n":3}`)) },
		},
	}
}
