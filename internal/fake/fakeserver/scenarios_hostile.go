package main

import (
	"encoding/json"
	"fmt"

	"github.com/mcp-inspect/mcp-inspect/internal/stdioserver"
)

// hostileText is what the hostile scenario puts in every string: a title (OSC 0), a
// clipboard write (OSC 52), a screen clear, the 8-bit CSI/ST/OSC controls, a bidi override,
// zero-width space and joiner, a BOM and a tag character. ESC and BEL go out as \u escapes
// (raw, they would not be JSON); the rest go out raw, as UTF-8.
const hostileText = "\x1b]0;PWNED\x07\x1b]52;c;aGk=\x07\x1b[2J\u009b31m\u009c\u009d0;t\u009c" +
	"\u202eevil\u202c\u200bzw\u200djoin\ufeffbom\U000E0041tag"

// hostileScenarios is the one server whose every string is hostile (issue 15): serverInfo,
// instructions, tool, resource, template and prompt names and descriptions, results, a
// structured result's keys, log messages, stderr and error messages. With FAKE_HOSTILE_VARIANT
// set, call results differ (a replay then prints diff lines and $.paths of hostile keys). The
// one tool is "tool"+hostileText; "fail" answers with a hostile error, other names -32602.
func hostileScenarios() map[string]*scenario {
	h := hostileText
	q := quote
	return map[string]*scenario{
		"hostile": {
			summary:      "every string the server sends holds terminal escapes, C1 controls, bidi and invisible characters",
			capabilities: `{"tools":{},"resources":{},"prompts":{},"logging":{},"completions":{}}`,
			startup: func(s *server) int {
				fmt.Fprint(s.stderr, "stderr "+h+"\n")
				return -1
			},
			initialize: func(s *server, m *stdioserver.Message) {
				s.result(m.ID, `{"protocolVersion":`+q(requestedVersion(m))+
					`,"capabilities":{"tools":{},"resources":{},"prompts":{},"logging":{},"completions":{}}`+
					`,"serverInfo":{"name":`+q("name"+h)+`,"version":`+q("1.0"+h)+`,"title":`+q("title"+h)+`}`+
					`,"instructions":`+q("instructions"+h)+`}`)
			},
			tools: `{"tools":[{"name":` + q("tool"+h) + `,"title":` + q("title"+h) + `,"description":` + q("desc"+h) +
				`,"inputSchema":{"type":"object","properties":{` + q("prop"+h) + `:{"type":"string","description":` + q(h) + `}}}}]}`,
			methods: map[string]func(s *server, m *stdioserver.Message){
				"tools/call": func(s *server, m *stdioserver.Message) {
					var p struct {
						Name string `json:"name"`
					}
					_ = json.Unmarshal(m.Params, &p)
					switch p.Name {
					case "fail":
						s.fail(m.ID, stdioserver.CodeInvalidParams, "error "+h)
						return
					case "tool" + h:
					default:
						s.fail(m.ID, stdioserver.CodeInvalidParams, "Unknown tool: "+p.Name)
						return
					}
					fmt.Fprint(s.stderr, "call "+h+"\n")
					s.write(`{"jsonrpc":"2.0","method":` + q("notifications/x"+h) + `}` + "\n")
					s.write(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":` + q("logger"+h) + `,"data":` + q("log"+h) + `}}` + "\n")
					value := "value" + h
					if s.getenv("FAKE_HOSTILE_VARIANT") != "" {
						value = "other" + h
					}
					s.result(m.ID, `{"content":[{"type":"text","text":`+q("text"+h)+`}],"structuredContent":{`+q("key"+h)+`:`+q(value)+`}}`)
				},
				"resources/list": func(s *server, m *stdioserver.Message) {
					s.result(m.ID, `{"resources":[{"uri":`+q("file:///r"+h)+`,"name":`+q("res"+h)+`,"description":`+q(h)+`,"mimeType":`+q("text/plain"+h)+`}]}`)
				},
				"resources/templates/list": func(s *server, m *stdioserver.Message) {
					s.result(m.ID, `{"resourceTemplates":[{"uriTemplate":`+q("file:///{x}"+h)+`,"name":`+q("tpl"+h)+`,"description":`+q(h)+`}]}`)
				},
				"resources/read": func(s *server, m *stdioserver.Message) {
					s.result(m.ID, `{"contents":[{"uri":`+q("file:///r"+h)+`,"mimeType":"text/plain","text":`+q("contents"+h)+`}]}`)
				},
				"prompts/list": func(s *server, m *stdioserver.Message) {
					s.result(m.ID, `{"prompts":[{"name":`+q("prompt"+h)+`,"description":`+q(h)+`,"arguments":[{"name":`+q("arg"+h)+`,"description":`+q(h)+`}]}]}`)
				},
				"prompts/get": func(s *server, m *stdioserver.Message) {
					s.result(m.ID, `{"description":`+q(h)+`,"messages":[{"role":"user","content":{"type":"text","text":`+q("msg"+h)+`}}]}`)
				},
				"completion/complete": func(s *server, m *stdioserver.Message) {
					s.result(m.ID, `{"completion":{"values":[`+q("v1"+h)+`,`+q("v2"+h)+`],"total":2,"hasMore":false}}`)
				},
				"logging/setLevel": func(s *server, m *stdioserver.Message) { s.result(m.ID, `{}`) },
			},
		},
	}
}
