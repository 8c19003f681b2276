package main

import (
	"encoding/json"
	"os"

	"github.com/mcp-inspect/mcp-inspect/internal/stdioserver"
)

// checkScenarios are servers that each break rules of mcp-inspect check (docs/check.md)
// the other scenarios leave alone.
func checkScenarios() map[string]*scenario {
	return map[string]*scenario{
		"check-echo-version": {
			summary: "answers initialize with whatever protocolVersion was asked, even one no revision has",
			initialize: func(s *server, m *stdioserver.Message) {
				s.result(m.ID, `{"protocolVersion":`+quote(askedVersion(m))+`,"capabilities":{"tools":{}},"serverInfo":{"name":"demo-server","version":"0.0.1"}}`)
			},
		},
		"check-silent-init": {
			summary:    "never answers initialize",
			initialize: func(*server, *stdioserver.Message) {},
		},
		"check-bom": {
			summary: "writes a UTF-8 byte order mark before its initialize response",
			initialize: func(s *server, m *stdioserver.Message) {
				s.write("\ufeff" + s.initializeLine(m))
			},
		},
		"check-early-notify": {
			summary: "sends notifications/tools/list_changed right after its initialize response, before initialized",
			initialize: func(s *server, m *stdioserver.Message) {
				s.write(s.initializeLine(m))
				s.write(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n")
			},
			capabilities: `{"tools":{"listChanged":true}}`,
		},
		"check-dies-on-garbage": {
			summary: "exits 1 on a line that is not JSON, without an answer",
			garbage: func(s *server, _ []byte) {
				s.logf("fakeserver: unparsable line, giving up")
				os.Exit(1)
			},
		},
		"check-dies-on-string-id": {
			summary: "exits 1 on a request whose id is a string, without an answer",
			stringID: func(s *server, m *stdioserver.Message) {
				s.logf("fakeserver: string id %s, giving up", m.ID)
				os.Exit(1)
			},
		},
		"check-ignores-string-id": {
			summary:  "never answers a request whose id is a string",
			stringID: func(*server, *stdioserver.Message) {},
		},
		"check-answers-notifications": {
			summary: "answers every notification but initialized with an error response (id null)",
			notification: func(s *server, m *stdioserver.Message) {
				s.fail(nil, stdioserver.CodeMethodNotFound, "Method not found: "+m.Method)
			},
		},
		"check-wrong-codes":  checkWrongCodes(),
		"check-ping-object":  checkPingObject(),
		"check-bad-listings": checkBadListings(),
		"check-bad-discover": {
			summary: "answers server/discover with a result that has no supportedVersions",
			methods: map[string]func(*server, *stdioserver.Message){
				"server/discover": func(s *server, m *stdioserver.Message) {
					s.result(m.ID, `{"resultType":"complete","capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public"}`)
				},
			},
		},
	}
}

// checkWrongCodes answers with the wrong error codes and shapes: -32600 for an unknown
// method, an isError result for an unknown tool, a prompts/list result though prompts are
// not declared, "pong" to ping, id null to a request with a string id; its read-only tool
// lookup returns a text block without text.
func checkWrongCodes() *scenario {
	return &scenario{
		summary: "wrong codes: -32600 for an unknown method, isError for an unknown tool, prompts/list answered undeclared, ping answered \"pong\" (id null for a string id), read-only tool lookup returns a text block without text",
		tools:   `{"tools":[{"name":"lookup","inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]},"annotations":{"readOnlyHint":true}}]}`,
		methods: map[string]func(*server, *stdioserver.Message){
			"ping": func(s *server, m *stdioserver.Message) {
				id := m.ID
				if len(id) > 0 && id[0] == '"' {
					id = json.RawMessage("null")
				}
				s.result(id, `"pong"`)
			},
			"prompts/list": func(s *server, m *stdioserver.Message) { s.result(m.ID, `{"prompts":[]}`) },
			"tools/call": func(s *server, m *stdioserver.Message) {
				var p struct {
					Name string `json:"name"`
				}
				_ = json.Unmarshal(m.Params, &p)
				if p.Name == "lookup" {
					s.result(m.ID, `{"content":[{"type":"text"}]}`)
					return
				}
				s.result(m.ID, toolError("no tool "+p.Name))
			},
		},
		unknown: func(s *server, m *stdioserver.Message) {
			s.fail(m.ID, stdioserver.CodeInvalidRequest, "Invalid Request")
		},
	}
}

// checkPingObject answers ping with {"pong":true}: an object, but not the empty result the
// spec asks for.
func checkPingObject() *scenario {
	return &scenario{
		summary: `answers ping with {"pong":true}, not the empty result {}`,
		methods: map[string]func(*server, *stdioserver.Message){
			"ping": func(s *server, m *stdioserver.Message) { s.result(m.ID, `{"pong":true}`) },
		},
	}
}

// checkBadListings declares everything and gets every listing and read wrong.
func checkBadListings() *scenario {
	return &scenario{
		summary:      "bad listings: serverInfo without version; tool names, schemas and annotations wrong; a resource without name that fails to read; a bad uriTemplate; prompts/get without messages; completion without values; logging/setLevel fails",
		capabilities: `{"tools":{},"resources":{},"prompts":{},"completions":{},"logging":{}}`,
		initialize: func(s *server, m *stdioserver.Message) {
			s.result(m.ID, `{"protocolVersion":`+quote(requestedVersion(m))+`,"capabilities":{"tools":{},"resources":{},"prompts":{},"completions":{},"logging":{}},"serverInfo":{"name":"bad-listings"}}`)
		},
		tools: `{"tools":[` +
			`{"name":"my tool!","inputSchema":{"type":"object","properties":{"a":{"type":"nonsense"}}},"annotations":{"readOnlyHint":"yes"}},` +
			`{"name":"noschema"}]}`,
		methods: map[string]func(*server, *stdioserver.Message){
			"resources/list": func(s *server, m *stdioserver.Message) {
				s.result(m.ID, `{"resources":[{"uri":"mem://x","annotations":{"priority":5}}]}`)
			},
			"resources/templates/list": func(s *server, m *stdioserver.Message) {
				s.result(m.ID, `{"resourceTemplates":[{"uriTemplate":"mem://{x","name":"t"}]}`)
			},
			"resources/read": func(s *server, m *stdioserver.Message) {
				s.fail(m.ID, -32002, "Resource not found")
			},
			"prompts/list": func(s *server, m *stdioserver.Message) {
				s.result(m.ID, `{"prompts":[{"name":"greet","arguments":[{"name":"who"}]}]}`)
			},
			"prompts/get":         func(s *server, m *stdioserver.Message) { s.result(m.ID, `{"description":"no messages"}`) },
			"completion/complete": func(s *server, m *stdioserver.Message) { s.result(m.ID, `{"completion":{}}`) },
			"logging/setLevel": func(s *server, m *stdioserver.Message) {
				s.fail(m.ID, stdioserver.CodeInternalError, "logging is broken")
			},
		},
	}
}
