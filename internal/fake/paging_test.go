package fake

import "testing"

// The paging scenarios answer every list page with a nextCursor: the same one, or a new one
// each time.
func TestPagingScenarios(t *testing.T) {
	t.Parallel()
	p := scenario(t, "paging-stuck")
	pagingHandshake(p)
	for _, id := range []string{"2", "3"} {
		p.exchange(`{"jsonrpc":"2.0","id":`+id+`,"method":"resources/list","params":{"cursor":"same"}}`,
			`{"jsonrpc":"2.0","id":`+id+`,"result":{"resources":[{"uri":"mem://a","name":"a"}],"nextCursor":"same"}}`)
	}
	p.exchange(`{"jsonrpc":"2.0","id":4,"method":"prompts/list"}`, `{"jsonrpc":"2.0","id":4,"result":{"prompts":[{"name":"p"}],"nextCursor":"same"}}`)
	p = scenario(t, "paging-endless")
	pagingHandshake(p)
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"resources/templates/list"}`,
		`{"jsonrpc":"2.0","id":2,"result":{"resourceTemplates":[{"uriTemplate":"mem://{x}","name":"x"}],"nextCursor":"page-1"}}`)
	p.exchange(`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"page-41"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"tools":[`+echoToolJSON+`],"nextCursor":"page-42"}}`)
}

const echoToolJSON = `{"name":"echo","description":"Echo text back","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}`

// pagingHandshake is handshake for a server that offers tools, resources and prompts.
func pagingHandshake(p *proc) {
	p.t.Helper()
	p.exchange(initReq, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{},"resources":{},"prompts":{}},"serverInfo":{"name":"demo-server","version":"0.0.1"}}}`)
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// paging-repeat's pages repeat items of page 1; paging-empty-cursor ends every page with
// "nextCursor": "".
func TestPagingRepeatScenarios(t *testing.T) {
	t.Parallel()
	p := scenario(t, "paging-repeat")
	pagingHandshake(p)
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"prompts/list"}`, `{"jsonrpc":"2.0","id":2,"result":{"prompts":[{"name":"p1"},{"name":"p2"}],"nextCursor":"2"}}`)
	p.exchange(`{"jsonrpc":"2.0","id":3,"method":"prompts/list","params":{"cursor":"2"}}`, `{"jsonrpc":"2.0","id":3,"result":{"prompts":[{"name":"p2"}],"nextCursor":"3"}}`)
	p.exchange(`{"jsonrpc":"2.0","id":4,"method":"prompts/list","params":{"cursor":"3"}}`, `{"jsonrpc":"2.0","id":4,"result":{"prompts":[{"name":"p3"}]}}`)
	p = scenario(t, "paging-empty-cursor")
	pagingHandshake(p)
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"prompts/list"}`, `{"jsonrpc":"2.0","id":2,"result":{"prompts":[{"name":"p"}],"nextCursor":""}}`)
}

// The id scenarios answer with the wrong id, or not at all to id 0.
func TestIDScenarios(t *testing.T) {
	t.Parallel()
	p := scenario(t, "id-stringly")
	p.handshake()
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"ping"}`, `{"jsonrpc":"2.0","id":"2","result":{}}`)
	p = scenario(t, "id-zero-answer")
	p.handshake()
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":0,"result":{"tools":[`+echoToolJSON+`]}}`)
	p = scenario(t, "drop-id-0")
	p.send(`{"jsonrpc":"2.0","id":0,"method":"ping"}`)
	p.exchange(`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`)
}

// The version scenarios answer initialize with an old, an unknown or no protocolVersion.
func TestVersionScenarios(t *testing.T) {
	t.Parallel()
	for name, v := range map[string]string{"version-old": `"protocolVersion":"2025-03-26",`, "version-unknown": `"protocolVersion":"2099-01-01",`, "version-missing": ``} {
		p := scenario(t, name)
		p.exchange(initReq, `{"jsonrpc":"2.0","id":1,"result":{`+v+`"capabilities":{"tools":{}},"serverInfo":{"name":"demo-server","version":"0.0.1"}}}`)
	}
}
