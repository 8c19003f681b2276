package main

import (
	"encoding/json"
	"strconv"

	"github.com/mcp-inspect/mcp-inspect/internal/stdioserver"
)

// pagingScenarios are servers whose pagination never ends (MCP server/utilities/pagination):
// "paging-stuck" answers every list page with the same nextCursor, "paging-endless" with a
// new nextCursor forever. A client must stop with a warning, never loop or hang.
func pagingScenarios() map[string]*scenario {
	return map[string]*scenario{
		"paging-stuck":   pagingScenario(false),
		"paging-endless": pagingScenario(true),
	}
}

func pagingScenario(endless bool) *scenario {
	summary := "every page of tools/list, resources/list, resources/templates/list and prompts/list carries nextCursor \"same\""
	if endless {
		summary = "every list page carries a new nextCursor (page-1, page-2, …): the pages never end"
	}
	page := func(key, item string) func(*server, *stdioserver.Message) {
		return func(s *server, m *stdioserver.Message) {
			var p struct {
				Cursor string `json:"cursor"`
			}
			_ = json.Unmarshal(m.Params, &p)
			next := "same"
			if endless {
				n := 0
				if len(p.Cursor) > len("page-") {
					n, _ = strconv.Atoi(p.Cursor[len("page-"):])
				}
				next = "page-" + strconv.Itoa(n+1)
			}
			s.result(m.ID, `{"`+key+`":[`+item+`],"nextCursor":`+quote(next)+`}`)
		}
	}
	return &scenario{
		summary:      summary,
		capabilities: `{"tools":{},"resources":{},"prompts":{}}`,
		listTools:    page("tools", echoTool),
		methods: map[string]func(*server, *stdioserver.Message){
			"resources/list":           page("resources", `{"uri":"mem://a","name":"a"}`),
			"resources/templates/list": page("resourceTemplates", `{"uriTemplate":"mem://{x}","name":"x"}`),
			"prompts/list":             page("prompts", `{"name":"p"}`),
		},
	}
}
