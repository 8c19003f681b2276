package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// toolCase is how one tool of a real server is called and what its result must hold.
type toolCase struct {
	args    string
	want    string
	isError bool
	// dialogs are the server requests the call must raise, by method (at least n; 0: none,
	// e.g. roots/list with roots configured, answered at once).
	dialogs map[string]int
	// answer answers them (defaultAnswer when nil).
	answer answerer
	// check looks at the finished call.
	check func(t *testing.T, l *live, r *callRun)
}

// callEvery calls every listed tool with its case, and fails for a tool without one (so
// a server that grows a tool grows this test).
func callEvery(t *testing.T, l *live, cases map[string]toolCase) {
	t.Helper()
	names := map[string]bool{}
	for _, tl := range l.m.tools.tools {
		names[tl.Name] = true
		if _, ok := cases[tl.Name]; !ok {
			t.Errorf("tool %s is listed but not exercised", tl.Name)
		}
	}
	for name, c := range cases {
		if !names[name] {
			t.Errorf("tool %s is not listed", name)
			continue
		}
		seen := map[string]int{}
		ans := c.answer
		if ans == nil {
			ans = defaultAnswer
		}
		r := l.callTool(name, c.args, ans, seen)
		if r.err != nil {
			t.Errorf("%s: %v", name, r.err)
			continue
		}
		if r.res.IsError != c.isError || !strings.Contains(resultText(r), c.want) {
			t.Errorf("%s: isError=%v %q, want isError=%v and %q", name, r.res.IsError, resultText(r), c.isError, c.want)
		}
		for m, n := range c.dialogs {
			if seen[m] < n || n == 0 && seen[m] > 0 { // 0: the request must not raise a dialog
				t.Errorf("%s: %d %s dialog(s), want %d", name, seen[m], m, n)
			}
		}
		if c.check != nil {
			c.check(t, l, r)
		}
	}
}

func hasBlock(r *callRun, typ string) bool {
	for _, b := range r.res.Content {
		if b.Type == typ {
			return true
		}
	}
	return false
}

// @modelcontextprotocol/server-everything, legacy era, through mcpclient and the TUI
// model: every tool, resource, template and prompt; its sampling, elicitation (form and
// URL), roots and task requests answered through the dialogs.
func TestServerEverythingThroughTheTUI(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	l := startLive(t, testservers.ServerEverything(t), mcpclient.Config{Era: mcpclient.EraLegacy}, Options{Roots: []string{root}})
	// It asks for the roots right after initialized (answered at once with the configured
	// root, no dialog: get-roots-list below shows what it got), and announces its
	// conditional tools with tools/list_changed.
	l.until("roots/list answered", func() bool {
		for _, e := range l.m.logs.entries {
			if strings.HasPrefix(e.text, "roots/list: sent the 1 configured root(s) without asking") {
				return true
			}
		}
		return false
	}, 20*time.Second)
	if n := len(l.m.overlay.requests); n != 0 {
		t.Fatalf("%d dialog(s) open for configured roots:\n%s", n, view(l.m))
	}
	l.until("the conditional tools", func() bool {
		return l.m.toolNamed("trigger-sampling-request") != nil && !l.m.sess.Lists().InFlight(session.Tools)
	}, 20*time.Second)
	l.key("7")
	mustContain(t, "logs", view(l.m), "notifications/tools/list_changed", "tools list changed: listed again")

	// Logging: setLevel, and the simulated log messages.
	l.key("l", "left", "left", "left", "enter")
	l.until("setLevel", func() bool { return l.m.logs.serverLevel == "debug" }, 10*time.Second)

	callEvery(t, l, map[string]toolCase{
		"echo": {args: `{"message":"hello from the TUI"}`, want: "hello from the TUI"},
		"get-annotated-message": {args: `{"messageType":"success","includeImage":true}`, check: func(t *testing.T, l *live, r *callRun) {
			if !hasBlock(r, "image") {
				t.Errorf("get-annotated-message: no image block")
			}
		}},
		"get-env": {args: `{}`, want: "PATH"},
		"get-resource-links": {args: `{"count":2}`, check: func(t *testing.T, l *live, r *callRun) {
			if !hasBlock(r, "resource_link") {
				t.Errorf("get-resource-links: no resource_link")
			}
		}},
		"get-resource-reference": {args: `{"resourceType":"Text","resourceId":1}`, check: func(t *testing.T, l *live, r *callRun) {
			if !hasBlock(r, "resource") {
				t.Errorf("get-resource-reference: no embedded resource")
			}
		}},
		"get-structured-content": {args: `{"location":"Chicago"}`, check: func(t *testing.T, l *live, r *callRun) {
			if len(r.res.StructuredContent) == 0 {
				t.Errorf("get-structured-content: no structuredContent")
			}
		}},
		"get-sum": {args: `{"a":2,"b":40}`, want: "42"},
		"get-tiny-image": {args: `{}`, check: func(t *testing.T, l *live, r *callRun) {
			if !hasBlock(r, "image") {
				t.Errorf("get-tiny-image: no image")
			}
		}},
		"gzip-file-as-resource": {args: `{"name":"hello.txt.gz","data":"data:text/plain;base64,aGVsbG8="}`},
		"toggle-simulated-logging": {args: `{}`, check: func(t *testing.T, l *live, r *callRun) {
			// One message at once, then one every 5 s, of a random level; the alert one reads
			// "Alert level-message" (sic), which "-level message" missed: 1 run in 8 then
			// waited for the next, and a loaded CI machine ran out the 10 s.
			l.until("a simulated log message", func() bool {
				for _, e := range l.m.logs.entries {
					if e.kind == logServer && (strings.Contains(e.text, "-level message") || strings.Contains(e.text, "level-message")) && e.seq > r.resp.RequestSeq {
						return true
					}
				}
				return false
			}, 20*time.Second)
		}},
		"toggle-subscriber-updates": {args: `{}`},
		"trigger-long-running-operation": {args: `{"duration":1,"steps":4}`, want: "Long running operation completed", check: func(t *testing.T, l *live, r *callRun) {
			// The last progress may land after the result: the bar showed at least one step.
			if r.total != 4 || r.progress < 1 {
				t.Errorf("progress %g/%g, want steps of 4", r.progress, r.total)
			}
		}},
		"get-roots-list":              {args: `{}`, want: "file://" + root},
		"trigger-elicitation-request": {args: `{}`, want: "accept", dialogs: map[string]int{"elicitation/create": 1}},
		"trigger-url-elicitation":     {args: `{"url":"https://example.com/login"}`, want: "accept", dialogs: map[string]int{"elicitation/create": 1}},
		"trigger-sampling-request":    {args: `{"prompt":"hello"}`, want: "reply from the test", dialogs: map[string]int{"sampling/createMessage": 1}},
		"simulate-research-query": {args: `{"topic":"terminal UIs"}`, want: "terminal UIs", check: func(t *testing.T, l *live, r *callRun) {
			if l.m.call.run.task == nil || l.m.call.run.task.TaskID == "" {
				t.Errorf("simulate-research-query did not run as a task")
			}
		}},
	})
	// The task tool again, ambiguous: the task needs input, which arrives through tasks/result.
	seen := map[string]int{}
	r := l.callTool("simulate-research-query", `{"topic":"go","ambiguous":true}`, defaultAnswer, seen)
	if r.err != nil || seen["elicitation/create"] != 1 {
		t.Errorf("ambiguous research: %v, dialogs %v, %q", r.err, seen, resultText(r))
	}
	l.key("8")
	mustContain(t, "tasks pane", view(l.m), "simulate-research-query", "completed")

	// Resources: every one read, subscribe (updates come from toggle-subscriber-updates).
	l.until("resources", func() bool { return len(l.m.resources.resources) > 0 }, 10*time.Second)
	for _, res := range l.m.resources.resources {
		rd := l.readResource(resKey(res.URI))
		if len(rd.res.Contents) == 0 || rd.res.Contents[0].Text == "" && rd.res.Contents[0].Blob == "" {
			t.Errorf("%s: empty contents", res.URI)
		}
	}
	first := l.m.resources.resources[0].URI
	l.m.resources.list.selectKey(resKey(first))
	l.key("s")
	l.until("subscribed", func() bool { return l.m.resources.subs[first] }, 10*time.Second)
	l.until("an update", func() bool { return l.m.resources.updated[first] != nil }, 12*time.Second)
	mustContain(t, "updated", view(l.m), "↻")
	// Templates: text and blob.
	for _, tmpl := range l.m.resources.templates {
		rd := l.readResource(tmplKey(tmpl.URITemplate), "1")
		if len(rd.res.Contents) == 0 {
			t.Errorf("%s: no contents", tmpl.URITemplate)
		}
	}
	mustContain(t, "blob template", view(l.m), "blob: ")

	// Prompts, with completion on the completable one.
	for _, p := range l.m.prompts.prompts {
		var g *promptGet
		switch p.Name {
		case "simple-prompt":
			g = l.getPrompt(p.Name, nil)
		case "args-prompt":
			g = l.getPrompt(p.Name, nil, "Paris")
		case "resource-prompt":
			g = l.getPrompt(p.Name, nil, "Text", "1")
		case "completable-prompt":
			l.key("6")
			l.m.prompts.list.selectKey(p.Name)
			l.key("enter")
			f := l.m.prompts.form
			l.typeText("E")
			l.until("completions for department", func() bool { return f.compl.field == "department" && len(f.compl.sugg) > 0 }, 10*time.Second)
			mustContain(t, "suggestions", view(l.m), "Engineering")
			l.key("ctrl+n", "enter", "tab")
			l.until("completions for name", func() bool { return f.compl.field == "name" && len(f.compl.sugg) > 0 }, 10*time.Second)
			l.key("ctrl+n", "enter", "ctrl+s")
			g = l.m.prompts.gets[p.Name]
			l.until("prompts/get", func() bool { return !l.m.sess.Inflight().Get(g.opID).Running() }, 10*time.Second)
			if g.args["department"] != "Engineering" || g.args["name"] == "" {
				t.Errorf("completed arguments %v", g.args)
			}
		default:
			t.Errorf("prompt %s is not exercised", p.Name)
			continue
		}
		if g.res == nil || len(g.res.Messages) == 0 {
			t.Errorf("%s: no messages", p.Name)
		}
	}
	l.key("P")
	l.until("ping", func() bool { return l.m.state().Ping.Seen }, 5*time.Second)
	if l.m.state().Ping.Err != nil {
		t.Errorf("ping: %v", l.m.state().Ping.Err)
	}
	if v := l.m.tl.violations; v != 0 {
		t.Errorf("%d protocol violations on a clean server", v)
	}
}

// goSDKCases are the go-sdk everything-server's tools; era changes how server requests
// arrive (legacy requests, or modern input_required results).
func goSDKCases(era mcpclient.Era) map[string]toolCase {
	modern := era == mcpclient.EraModern
	one := func(method string) map[string]int { return map[string]int{method: 1} }
	c := map[string]toolCase{
		"json_schema_2020_12_tool":    {args: `{"name":"Ann","email":"ann@example.com"}`},
		"test_audio_content":          {args: `{}`},
		"test_embedded_resource":      {args: `{}`},
		"test_error_handling":         {args: `{}`, isError: true},
		"test_image_content":          {args: `{}`},
		"test_multiple_content_types": {args: `{}`},
		"test_simple_text":            {args: `{}`},
		"test_reconnection":           {args: `{}`, want: "Reconnection test completed"},
		"test_missing_capability":     {args: `{}`, want: "sampling capability"},
		"test_logging_tool":           {args: `{}`},
		"test_tool_with_logging":      {args: `{}`, want: "Tool with logging executed successfully"},
		"test_streaming_elicitation":  {args: `{}`},
		"test_trigger_prompt_change":  {args: `{}`, want: "published"},
		"test_trigger_tool_change":    {args: `{}`, want: "published"},
		"test_x_mcp_header":           {args: `{"region":"eu","level":2}`},
		"test_tool_with_progress": {args: `{}`, check: func(t *testing.T, l *live, r *callRun) {
			if r.total != 100 {
				t.Errorf("progress %g/%g, want steps of 100", r.progress, r.total)
			}
		}},
		"test_sampling":                     {args: `{"prompt":"capital of France?"}`, want: "LLM response: reply from the test", dialogs: one("sampling/createMessage")},
		"test_elicitation":                  {args: `{"message":"who are you?"}`, want: "action=accept", dialogs: one("elicitation/create")},
		"test_elicitation_sep1034_defaults": {args: `{}`, want: "action=accept", dialogs: one("elicitation/create")},
		// Declined: on accept the go-sdk server fails on its own titledMulti schema
		// ("items must specify enum for untitled enums").
		"test_elicitation_sep1330_enums": {args: `{}`, want: "action=decline", dialogs: one("elicitation/create"),
			answer: func(l *live, d requestDialog) {
				mustContain(l.t, "enum form", view(l.m), "legacyEnum", "titledMulti")
				l.key("ctrl+d")
			}},
	}
	if modern {
		// The server may not send requests in the modern era: these say so as tool errors.
		c["test_sampling"] = toolCase{args: `{"prompt":"x"}`, isError: true, want: "cannot be sent while serving a request"}
		c["test_elicitation"] = toolCase{args: `{"message":"x"}`, isError: true, want: "cannot be sent while serving a request"}
		c["test_elicitation_sep1034_defaults"] = toolCase{args: `{}`, isError: true, want: "cannot be sent while serving a request"}
		c["test_elicitation_sep1330_enums"] = toolCase{args: `{}`, isError: true, want: "cannot be sent while serving a request"}
		c["test_input_required_result_elicitation"] = toolCase{args: `{}`, want: "Hello, from the test!", dialogs: one("elicitation/create")}
		c["test_input_required_result_sampling"] = toolCase{args: `{}`, want: "Sampling response: reply from the test", dialogs: one("sampling/createMessage")}
		c["test_input_required_result_list_roots"] = toolCase{args: `{}`, want: "Client exposed 1 root(s): file:///srv/project", dialogs: map[string]int{"roots/list": 0}}
		c["test_input_required_result_request_state"] = toolCase{args: `{}`, want: "state-ok", dialogs: one("elicitation/create")}
		c["test_input_required_result_tampered_state"] = toolCase{args: `{}`, want: "state-ok", dialogs: one("elicitation/create")}
		c["test_input_required_result_multi_round"] = toolCase{args: `{}`, want: "Multi-round complete: from the test likes from the test", dialogs: map[string]int{"elicitation/create": 2}}
		c["test_input_required_result_capabilities"] = toolCase{args: `{}`, want: "Capability-aware input requests fulfilled", dialogs: map[string]int{"elicitation/create": 1, "sampling/createMessage": 1, "roots/list": 0}}
		c["test_input_required_result_multiple_inputs"] = toolCase{args: `{}`, want: "reply from the test from the test — 1 root(s) visible",
			dialogs: map[string]int{"elicitation/create": 1, "sampling/createMessage": 1, "roots/list": 0},
			answer: func(l *live, d requestDialog) {
				// Three input requests in one round: one dialog, the others queued visibly.
				if n := len(l.m.overlay.requests); n == 3 {
					l.until("the input_required response on the wire", func() bool { _, ok := l.m.tl.index(d.base().req.Seq); return ok }, 5*time.Second)
					mustContain(l.t, "queued inputs", view(l.m), "⚑ 3 waiting", "+2 more waiting", "modern input request", "tools/call test_input_required_result_multiple_inputs")
				}
				defaultAnswer(l, d)
			}}
	} else {
		// Legacy: the same tools send plain server→client requests; they are answered and
		// the calls finish.
		for _, n := range []string{"elicitation", "sampling", "list_roots", "request_state", "tampered_state", "multi_round", "capabilities", "multiple_inputs"} {
			c["test_input_required_result_"+n] = toolCase{args: `{}`}
		}
	}
	return c
}

// The go-sdk conformance everything-server in both eras, through mcpclient and the TUI
// model: every tool, resource, template and prompt; modern input_required rounds answered
// through the same dialogs; subscriptions through subscriptions/listen.
func TestGoEverythingThroughTheTUI(t *testing.T) {
	t.Parallel()
	for _, era := range []mcpclient.Era{mcpclient.EraLegacy, mcpclient.EraModern} {
		era := era
		t.Run(string(era), func(t *testing.T) {
			t.Parallel()
			l := startLive(t, testservers.GoEverything(t), mcpclient.Config{Era: era}, Options{Roots: []string{"file:///srv/project"}})
			if l.m.state().Era() != era {
				t.Fatalf("era %s, want %s", l.m.state().Era(), era)
			}
			l.until("lists", func() bool { return len(l.m.tools.tools) > 0 && l.m.resources.listed && l.m.prompts.listed }, 20*time.Second)
			l.key("4")
			if era == mcpclient.EraModern {
				mustContain(t, "server pane", view(l.m), "modern (2026-07-28)", "server/discover supportedVersions: 2026-07-28")
				l.until("subscriptions/listen", func() bool {
					for _, e := range l.m.logs.entries {
						if strings.HasPrefix(e.text, "notifications/subscriptions/acknowledged") {
							return true
						}
					}
					return false
				}, 10*time.Second)
			} else {
				mustContain(t, "server pane", view(l.m), "legacy (initialize handshake, 2025-11-25)")
			}
			// The level, before the logging tools (modern: in each request's _meta).
			l.key("7", "l", "left", "left", "left", "enter")
			l.until("the level", func() bool { return l.m.logs.serverLevel == "debug" }, 10*time.Second)

			callEvery(t, l, goSDKCases(era))
			l.key("7")
			for _, note := range []string{"Tool execution started", "tools list changed: listed again", "prompts list changed: listed again"} {
				l.until("the log line "+note, func() bool {
					for _, e := range l.m.logs.entries {
						if strings.HasPrefix(e.text, note) {
							return true
						}
					}
					return false
				}, 5*time.Second)
			}

			for _, res := range l.m.resources.resources {
				rd := l.readResource(resKey(res.URI))
				if len(rd.res.Contents) == 0 {
					t.Errorf("%s: no contents", res.URI)
				}
			}
			rd := l.readResource(tmplKey("test://template/{id}/data"), "42")
			if rd.uri != "test://template/42/data" || !strings.Contains(rd.res.Contents[0].Text, "Data for ID: 42") {
				t.Errorf("template read %s: %+v", rd.uri, rd.res.Contents)
			}
			l.m.resources.list.selectKey(resKey("test://watched-resource"))
			l.key("s")
			l.until("subscribed", func() bool { return l.m.resources.subs["test://watched-resource"] }, 10*time.Second)

			for _, p := range l.m.prompts.prompts {
				var g *promptGet
				switch p.Name {
				case "test_prompt_with_arguments":
					g = l.getPrompt(p.Name, nil, "one", "two")
				case "test_prompt_with_embedded_resource":
					g = l.getPrompt(p.Name, nil, "test://static-text")
				case "test_input_required_result_prompt":
					g = l.getPrompt(p.Name, defaultAnswer)
				default:
					g = l.getPrompt(p.Name, nil)
				}
				if g.res == nil {
					t.Errorf("%s: no result", p.Name)
					continue
				}
				if era == mcpclient.EraModern && p.Name == "test_input_required_result_prompt" && !strings.Contains(g.res.Messages[0].Content.Text, "Context: from the test") {
					t.Errorf("%s: %+v", p.Name, g.res.Messages)
				}
			}
			if era == mcpclient.EraModern {
				l.key("P")
				mustContain(t, "no ping", view(l.m), "ping does not exist in the modern era")
			}
			// Cancel through the TUI: a call cancelled in flight is marked, its late answer shown.
			run := l.callToolAsync("test_tool_with_progress")
			l.key("ctrl+x")
			l.until("cancelled", func() bool { return run.done }, 10*time.Second)
			if !errors.Is(run.err, context.Canceled) && run.err != nil {
				t.Errorf("cancel: %v", run.err)
			}
		})
	}
}

// callToolAsync sends a tool with its defaults and returns at once.
func (l *live) callToolAsync(name string) *callRun {
	l.t.Helper()
	l.selectTool(name)
	l.key("enter", "ctrl+s")
	if l.m.call.form != nil {
		l.key("ctrl+s")
	}
	return l.m.call.run
}
