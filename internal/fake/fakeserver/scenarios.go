package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/internal/stdioserver"
)

const echoTool = `{"name":"echo","description":"Echo text back","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}`

// argString returns a string argument, or def when it is absent or not a string.
func argString(args json.RawMessage, name, def string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return def
	}
	var v string
	if json.Unmarshal(m[name], &v) != nil {
		return def
	}
	return v
}

// argNumber returns a number argument, or def when it is absent or not a number.
func argNumber(args json.RawMessage, name string, def float64) float64 {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return def
	}
	var v float64
	if json.Unmarshal(m[name], &v) != nil {
		return def
	}
	return v
}

// compactArgs returns the arguments as compact JSON ({} when absent).
func compactArgs(args json.RawMessage) string {
	if len(args) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	if err := json.Compact(&b, args); err != nil {
		return string(args)
	}
	return b.String()
}

func callEcho(s *server, m *stdioserver.Message, args json.RawMessage) {
	s.result(m.ID, textResult(argString(args, "text", "")))
}

// callEchoArgs answers with the arguments it received, as compact JSON in a text block.
func callEchoArgs(s *server, m *stdioserver.Message, args json.RawMessage) {
	s.result(m.ID, textResult(compactArgs(args)))
}

// scenarios returns every scenario by name. Names are the case ids of cases.md, lowercase.
func scenarios() map[string]*scenario {
	return map[string]*scenario{
		"minimal": {
			summary: "well-behaved: initialize, tools/list with echo, tools/call echo, all at once",
		},
		"b01": {
			summary: "banner and debug text lines on stdout around real messages",
			startup: func(s *server) int {
				s.write("Demo MCP Server v1.0.0 started successfully\n")
				return -1
			},
			listTools: func(s *server, m *stdioserver.Message) {
				s.write("[MCP] list_tools requested\n")
				s.result(m.ID, s.toolsJSON())
			},
			calls: map[string]toolFunc{"echo": func(s *server, m *stdioserver.Message, args json.RawMessage) {
				s.write("[MCP] call_tool requested\n")
				callEcho(s, m, args)
			}},
		},
		"b01b": {
			summary: "stray stdout lines that are JSON but not JSON-RPC",
			startup: func(s *server) int {
				s.write(`{"level":"info","msg":"Demo MCP Server v1.0.0 started successfully","time":"2025-01-01T00:00:00.000Z"}` + "\n")
				return -1
			},
			initialized: func(s *server) {
				s.write(`{"level":"info","msg":"client initialized","time":"2025-01-01T00:00:00.000Z"}` + "\n")
			},
			listTools: func(s *server, m *stdioserver.Message) {
				s.write(`{"level":"debug","msg":"list_tools requested","time":"2025-01-01T00:00:00.000Z"}` + "\n")
				s.result(m.ID, s.toolsJSON())
			},
		},
		"b02":  b02(false),
		"b02b": b02(true),
		"b03": {
			summary: "very long lines: tools/call big {bytes:N} returns N x's; tools/list has 400 tools",
			tools:   bigToolList(),
			calls:   map[string]toolFunc{"big": callBig},
		},
		"b05": {
			summary: "tools/call snippet answers with raw EUC-KR bytes (invalid UTF-8) in a JSON string",
			tools:   snippetTools,
			calls: map[string]toolFunc{"snippet": func(s *server, m *stdioserver.Message, _ json.RawMessage) {
				s.write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"content":[{"type":"text","text":"` +
					"\xC7\xD1\xB1\xDB" + `"}]}}` + "\n")
			}},
		},
		"b05s": {
			summary: "tools/call snippet answers with a lone surrogate escape abc\\ud83d",
			tools:   snippetTools,
			calls: map[string]toolFunc{"snippet": func(s *server, m *stdioserver.Message, _ json.RawMessage) {
				s.write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"content":[{"type":"text","text":"abc\ud83d"}]}}` + "\n")
			}},
		},
		"b07": {
			summary: "notifications/message before initialize",
			startup: func(s *server) int {
				s.write(`{"method":"notifications/message","params":{"level":"info","data":"Demo server running on stdio with 21/21 tools available"},"jsonrpc":"2.0"}` + "\n")
				return -1
			},
		},
		"b07b": {
			summary: "a non-standard server.initialized notification before initialize",
			startup: func(s *server) int {
				s.write(`{"jsonrpc":"2.0","method":"server.initialized","params":{"serverInfo":{"name":"demo-server","version":"0.0.1"}}}` + "\n")
				return -1
			},
		},
		"b09": {
			summary: "writes a missing-env-var error to stderr and exits 2 without reading stdin",
			startup: func(s *server) int {
				fmt.Fprint(s.stderr, "error: required environment variable DEMO_API_KEY is not set\n")
				return 2
			},
		},
		"b09-exit0": {
			summary: "exits 0 at once with no output",
			startup: func(*server) int { return 0 },
		},
		"b09-halfline": {
			summary: "writes half a JSON line to stdout (no newline) and exits 1",
			startup: func(s *server) int {
				s.write(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","da`)
				return 1
			},
		},
		"b10": {
			summary: "tools/call crash kills the server with SIGKILL (TerminateProcess, exit code 1, on Windows)",
			tools:   `{"tools":[` + echoTool + `,` + crashTool + `]}`,
			calls: map[string]toolFunc{"echo": callEcho, "crash": func(*server, *stdioserver.Message, json.RawMessage) {
				if p, err := os.FindProcess(os.Getpid()); err == nil {
					_ = p.Kill()
				}
				time.Sleep(time.Hour) // never answer, should the signal be late
			}},
		},
		"b10-panic": {
			summary: "tools/call crash writes panic: boom to stderr and exits 1",
			tools:   `{"tools":[` + echoTool + `,` + crashTool + `]}`,
			calls: map[string]toolFunc{"echo": callEcho, "crash": func(s *server, _ *stdioserver.Message, _ json.RawMessage) {
				fmt.Fprint(s.stderr, "panic: boom\n")
				os.Exit(1)
			}},
		},
		"b11":  b11(false),
		"b11b": b11(true),
		"b12":  b12(true),
		"b12b": b12(false),
		"b13": b13("sampling/createMessage",
			`{"messages":[{"role":"user","content":{"type":"text","text":"Say hi"}}],"maxTokens":50}`),
		"b13-roots": b13("roots/list", `{}`),
		"b13-elicit": b13("elicitation/create",
			`{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}`),
		"b15": {
			summary: "nullable enums: anyOf with a null branch, type lists with null",
			tools:   `{"tools":[{"name":"set_direction","description":"Set transfer direction","inputSchema":{"type":"object","properties":{"direction":{"anyOf":[{"type":"string","enum":["send","receive"]},{"type":"null"}]},"retries":{"type":["integer","null"],"enum":[1,2,3,null]},"mode":{"type":["string","null"],"enum":["fast"]}}}}]}`,
			calls:   map[string]toolFunc{"set_direction": callEchoArgs},
		},
		"b16": {
			summary: "$ref into $defs, null defaults, an array without items",
			tools:   `{"tools":[{"name":"list_schedules","description":"List on-call schedules","inputSchema":{"$defs":{"ScheduleQuery":{"type":"object","properties":{"query":{"type":"string","default":null},"team_ids":{"type":"array","default":null},"limit":{"type":"integer","default":20}}}},"type":"object","properties":{"query_model":{"$ref":"#/$defs/ScheduleQuery"}},"required":["query_model"]}}]}`,
			calls:   map[string]toolFunc{"list_schedules": callEchoArgs},
		},
		"b16-recursive": {
			summary: "a recursive $ref tree schema",
			tools:   `{"tools":[{"name":"build_tree","description":"Build a tree of named nodes","inputSchema":{"$defs":{"node":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}},"$ref":"#/$defs/node"}}]}`,
			calls:   map[string]toolFunc{"build_tree": callEchoArgs},
		},
		"b18": {
			summary: "type given as an array (with null); tools/call echoes the exact argument bytes",
			tools:   `{"tools":[{"name":"send_request","inputSchema":{"type":"object","properties":{"raw":{"type":"string"},"ids":{"type":["null","array"],"items":{"type":"string"}},"tls":{"type":["null","boolean"]},"value":{"type":["string","number","boolean"]}},"required":["raw"]}}]}`,
			calls: map[string]toolFunc{"send_request": func(s *server, m *stdioserver.Message, args json.RawMessage) {
				s.result(m.ID, textResult(string(args)))
			}},
		},
		"b19": {
			summary: "strict validation: null or mistyped optional fields give -32602",
			tools:   `{"tools":[{"name":"grep_record","inputSchema":{"type":"object","properties":{"query":{"type":"string","minLength":1},"page":{"type":"number"},"page_size":{"type":"integer","default":50},"zip":{"type":"string"},"filters":{"type":"object","properties":{"since":{"type":"string","format":"date-time"}}}},"required":["query"]}}]}`,
			calls: map[string]toolFunc{"grep_record": func(s *server, m *stdioserver.Message, args json.RawMessage) {
				if msg := validateGrepRecord(args); msg != "" {
					s.fail(m.ID, stdioserver.CodeInvalidParams, "Invalid arguments: "+msg)
					return
				}
				callEchoArgs(s, m, args)
			}},
		},
		"b20": {
			summary:      "a tool result with resource_link, an embedded resource and an unknown block type",
			capabilities: `{"tools":{},"resources":{}}`,
			tools:        `{"tools":[{"name":"find_docs","description":"Find documents","inputSchema":{"type":"object","properties":{"query":{"type":"string"}}}}]}`,
			calls: map[string]toolFunc{"find_docs": func(s *server, m *stdioserver.Message, _ json.RawMessage) {
				s.result(m.ID, `{"content":[{"type":"text","text":"Found 1 document"},{"type":"resource_link","uri":"file:///workspace/README.md","name":"README.md","description":"Project readme","mimeType":"text/markdown"},{"type":"resource","resource":{"uri":"file:///workspace/notes.txt","mimeType":"text/plain","text":"hello"}},{"type":"future_block","payload":42}]}`)
			}},
			methods: map[string]func(*server, *stdioserver.Message){
				"resources/list": func(s *server, m *stdioserver.Message) {
					s.result(m.ID, `{"resources":[{"uri":"file:///workspace/README.md","name":"README.md","description":"Project readme","mimeType":"text/markdown"}]}`)
				},
				"resources/read": func(s *server, m *stdioserver.Message) {
					var p struct {
						URI string `json:"uri"`
					}
					_ = json.Unmarshal(m.Params, &p)
					if p.URI != "file:///workspace/README.md" {
						s.fail(m.ID, stdioserver.CodeResourceNotFound, "Resource not found")
						return
					}
					s.result(m.ID, `{"contents":[{"uri":"file:///workspace/README.md","mimeType":"text/markdown","text":`+quote(b20Readme)+`}]}`)
				},
			},
		},
		"b22": {
			summary: "tools/call whoami returns its argv, DEMO_MODE and whether PATH is set",
			tools:   `{"tools":[{"name":"whoami","description":"Report argv and environment","inputSchema":{"type":"object","properties":{}}}]}`,
			calls: map[string]toolFunc{"whoami": func(s *server, m *stdioserver.Message, _ json.RawMessage) {
				var who struct {
					Argv     []string `json:"argv"`
					DemoMode *string  `json:"DEMO_MODE"`
					PathSet  bool     `json:"PATH_set"`
				}
				who.Argv = s.args
				if v, ok := os.LookupEnv("DEMO_MODE"); ok {
					who.DemoMode = &v
				}
				who.PathSet = s.getenv("PATH") != ""
				b, err := stdioserver.Encode(who)
				if err != nil {
					s.fail(m.ID, stdioserver.CodeInternalError, err.Error())
					return
				}
				s.result(m.ID, textResult(strings.TrimSuffix(string(b), "\n")))
			}},
		},
		"b23": {
			summary: "terminal escape sequences in a description, a result, a log message and stderr",
			tools:   `{"tools":[{"name":"headers","description":"Fetch headers\u001b[2J\u001b]0;owned\u0007","inputSchema":{"type":"object","properties":{}}}]}`,
			calls: map[string]toolFunc{"headers": func(s *server, m *stdioserver.Message, _ json.RawMessage) {
				var raw string
				_ = json.Unmarshal([]byte(`"`+b23Text+`"`), &raw)
				fmt.Fprint(s.stderr, raw+"\n")
				s.write(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","data":"` + b23Text + `"}}` + "\n")
				s.result(m.ID, `{"content":[{"type":"text","text":"`+b23Text+`"}]}`)
			}},
		},
		"b25": {
			summary: "echoes its token to stderr and in tool leak; --fail exits 1 at startup",
			startup: func(s *server) int {
				fmt.Fprintf(s.stderr, "using token %s\n", b25Token(s))
				for _, a := range s.args {
					if a == "--fail" {
						return 1
					}
				}
				return -1
			},
			tools: `{"tools":[{"name":"leak","description":"Returns the configured token","inputSchema":{"type":"object","properties":{}}}]}`,
			calls: map[string]toolFunc{"leak": func(s *server, m *stdioserver.Message, _ json.RawMessage) {
				s.result(m.ID, textResult(b25Token(s)))
			}},
		},
	}
}

const crashTool = `{"name":"crash","description":"Kills the server","inputSchema":{"type":"object","properties":{}}}`

const snippetTools = `{"tools":[{"name":"snippet","description":"Return a source snippet","inputSchema":{"type":"object","properties":{}}}]}`

const b20Readme = "# Workspace\n\nThe README of the fake workspace.\n"

// b23Text is the B23 result text as a JSON string body: ESC, BEL and bidi controls, escaped.
const b23Text = `Server: Apache\u001b[2J\u001b]0;PWNED\u0007 \u001b]8;;http://attacker.invalid/\u0007click\u001b]8;;\u0007 \u001b[31mred\u001b[0m \u202eevil\u202c`

// b25Token is the secret B25 leaks: the GitHub token from the environment, or a fixed fake.
func b25Token(s *server) string {
	if v := s.getenv("GITHUB_PERSONAL_ACCESS_TOKEN"); v != "" {
		return v
	}
	return "ghp_FAKE_TOKEN_FOR_TESTS_0000"
}

// b02 is B02 (split initialize, coalesced tools/list, log line + response in one buffer)
// or, with bytewise, B02b: the same but the tools/call response goes out one byte per write.
func b02(bytewise bool) *scenario {
	summary := "split and coalesced writes: initialize in two writes 200 ms apart, two messages in one write"
	if bytewise {
		summary = "like b02, but the tools/call response is written one byte per write"
	}
	return &scenario{
		summary: summary,
		initialize: func(s *server, m *stdioserver.Message) {
			line := s.initializeLine(m)
			_ = s.out.Locked(func(w io.Writer) error {
				if _, err := io.WriteString(w, line[:40]); err != nil {
					return err
				}
				time.Sleep(200 * time.Millisecond)
				_, err := io.WriteString(w, line[40:])
				return err
			})
		},
		listTools: func(s *server, m *stdioserver.Message) {
			s.write(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n" + respLine(m.ID, `{"tools":[]}`))
		},
		calls: map[string]toolFunc{"echo": func(s *server, m *stdioserver.Message, args json.RawMessage) {
			// The case's response says "hi"; the text argument, when given, lets a test make
			// the byte-by-byte response as long as it likes.
			resp := respLine(m.ID, textResult(argString(args, "text", "hi")))
			if !bytewise {
				s.write("debug: echo called\n" + resp)
				return
			}
			_ = s.out.Locked(func(w io.Writer) error {
				for i := range len(resp) {
					if _, err := io.WriteString(w, resp[i:i+1]); err != nil {
						return err
					}
				}
				return nil
			})
		}},
	}
}

// bigToolList is B03's tools/list result: big plus 399 filler tools, each with a
// 300-character description, about 150 KB on one line.
func bigToolList() string {
	const filler = "This tool exists to make the tools/list response long. It takes no arguments and " +
		"does nothing useful; its description is padded to exactly three hundred characters so that " +
		"four hundred of them add up to a line far longer than the sixty-four KiB that bufio.Scanner " +
		"accepts by default, which is the bug this scenario reproduces. "
	desc := func(prefix string) string {
		d := prefix + filler + filler
		return d[:300]
	}
	var b strings.Builder
	b.WriteString(`{"tools":[`)
	b.WriteString(`{"name":"big","description":` + quote(desc("Returns a text block of N bytes of x. ")) +
		`,"inputSchema":{"type":"object","properties":{"bytes":{"type":"integer","minimum":0}},"required":["bytes"]}}`)
	for i := 1; i < 400; i++ {
		name := fmt.Sprintf("filler_%03d", i)
		b.WriteString(`,{"name":"` + name + `","description":` + quote(desc(name+": ")) +
			`,"inputSchema":{"type":"object","properties":{}}}`)
	}
	b.WriteString(`]}`)
	return b.String()
}

func callBig(s *server, m *stdioserver.Message, args json.RawMessage) {
	n := argNumber(args, "bytes", -1)
	if n < 0 || n != math.Trunc(n) || n > 1<<30 {
		s.fail(m.ID, stdioserver.CodeInvalidParams, "bytes must be an integer from 0 to 1073741824")
		return
	}
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"content":[{"type":"text","text":"`)
	b.Write(bytes.Repeat([]byte("x"), int(n)))
	b.WriteString(`"}]}}` + "\n")
	if err := s.out.WriteFrame(b.Bytes()); err != nil {
		s.logf("fakeserver: write: %v", err)
	}
}

// progressToken returns params._meta.progressToken as raw JSON, or nil.
func progressToken(m *stdioserver.Message) json.RawMessage {
	var p struct {
		Meta struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if json.Unmarshal(m.Params, &p) != nil || string(p.Meta.ProgressToken) == "null" {
		return nil
	}
	return p.Meta.ProgressToken
}

// b11 is B11: tool slow reports progress every step and finishes with "done". With
// unknownToken (B11b) the progress carries a token the client never issued.
func b11(unknownToken bool) *scenario {
	summary := "tools/call slow: progress and a log message every 5 s for 90 s (FAKE_STEP_MS, FAKE_STEPS)"
	if unknownToken {
		summary = "like b11, but progress uses a token the client never issued"
	}
	return &scenario{
		summary: summary,
		tools:   `{"tools":[{"name":"slow","description":"Takes a long time and reports progress","inputSchema":{"type":"object","properties":{"seconds":{"type":"number","default":90}}}}]}`,
		calls: map[string]toolFunc{"slow": func(s *server, m *stdioserver.Message, args json.RawMessage) {
			stepMS, ok := s.envInt("FAKE_STEP_MS")
			if !ok {
				stepMS = 5000
			}
			steps, ok := s.envInt("FAKE_STEPS")
			if !ok {
				steps = int(math.Ceil(argNumber(args, "seconds", 90) / 5))
			}
			token := progressToken(m)
			if unknownToken {
				token = json.RawMessage(`"fake-unknown-token"`)
			}
			cancelled, done := s.track(m.ID)
			go func() {
				defer done()
				total := strconv.Itoa(steps)
				for k := 1; k <= steps; k++ {
					if !sleep(time.Duration(stepMS)*time.Millisecond, cancelled) {
						s.logf("cancelled request %s", m.ID)
						return
					}
					ks := strconv.Itoa(k)
					if token != nil {
						s.write(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + string(token) +
							`,"progress":` + ks + `,"total":` + total + `,"message":"step ` + ks + `"}}` + "\n")
					}
					s.write(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working ` +
						ks + "/" + total + `"}}` + "\n")
				}
				s.result(m.ID, `{"content":[{"type":"text","text":"done"}]}`)
			}()
		}},
	}
}

// b12 is B12 (honor, true) or B12b (ignore the cancel and answer anyway).
func b12(honor bool) *scenario {
	summary := "tools/call sleep stops on notifications/cancelled and sends no response (FAKE_SLEEP_MS)"
	if !honor {
		summary = "tools/call sleep ignores notifications/cancelled and answers after the full sleep"
	}
	return &scenario{
		summary: summary,
		tools:   `{"tools":[{"name":"sleep","description":"Sleep for a while","inputSchema":{"type":"object","properties":{"seconds":{"type":"number","default":30}}}}]}`,
		calls: map[string]toolFunc{"sleep": func(s *server, m *stdioserver.Message, args json.RawMessage) {
			ms, ok := s.envInt("FAKE_SLEEP_MS")
			if !ok {
				ms = int(argNumber(args, "seconds", 30) * 1000)
			}
			d := time.Duration(ms) * time.Millisecond
			cancelled, done := s.track(m.ID)
			go func() {
				defer done()
				deadline := time.Now().Add(d)
				if !sleep(d, cancelled) {
					if honor {
						s.logf("cancelled request %s", m.ID)
						return
					}
					s.logf("ignoring cancellation of request %s", m.ID)
					time.Sleep(time.Until(deadline))
				}
				s.result(m.ID, textResult("slept"))
			}()
		}},
	}
}

// b13 is B13 and its variants: during tools/call summarize the server sends method to the
// client with id 1 (then 2, 3 … for later calls), waits for the reply, and answers the call
// with the reply's text, or isError with the error message.
func b13(method, params string) *scenario {
	return &scenario{
		summary: "tools/call summarize first sends " + method + " with id 1 to the client and waits for the reply (FAKE_WAIT_MS)",
		tools:   `{"tools":[{"name":"summarize","description":"Summarize with the client's help","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]}`,
		calls: map[string]toolFunc{"summarize": func(s *server, m *stdioserver.Message, _ json.RawMessage) {
			waitMS, ok := s.envInt("FAKE_WAIT_MS")
			if !ok {
				waitMS = 30000
			}
			s.mu.Lock()
			s.nextOutID++
			outID := strconv.Itoa(s.nextOutID)
			reply := make(chan *stdioserver.Message, 1)
			s.waiters[outID] = reply
			s.mu.Unlock()
			cancelled, done := s.track(m.ID)
			s.write(`{"jsonrpc":"2.0","id":` + outID + `,"method":"` + method + `","params":` + params + "}\n")
			go func() {
				defer done()
				t := time.NewTimer(time.Duration(waitMS) * time.Millisecond)
				defer t.Stop()
				select {
				case r := <-reply:
					if r.Error != nil {
						s.result(m.ID, toolError(r.Error.Message))
						return
					}
					s.result(m.ID, textResult(replyText(method, r.Result)))
				case <-t.C:
					s.mu.Lock()
					delete(s.waiters, outID)
					s.mu.Unlock()
					s.result(m.ID, toolError(fmt.Sprintf("no reply to %s (id %s) within %d ms", method, outID, waitMS)))
				case <-cancelled:
					s.logf("cancelled request %s", m.ID)
				}
			}()
		}},
	}
}

// replyText is the text of a sampling reply's content, or the compact JSON of any other reply.
func replyText(method string, result json.RawMessage) string {
	if method == "sampling/createMessage" {
		var r struct {
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(result, &r) == nil {
			var one struct{ Text *string }
			if json.Unmarshal(r.Content, &one) == nil && one.Text != nil {
				return *one.Text
			}
			var many []struct{ Text *string }
			if json.Unmarshal(r.Content, &many) == nil {
				for _, c := range many {
					if c.Text != nil {
						return *c.Text
					}
				}
			}
		}
	}
	return compactArgs(result)
}

// jsonKind names the JSON type of a raw value, the way Zod reports it.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "undefined"
	}
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// validateGrepRecord checks B19's arguments strictly and returns "field: expected …,
// received …", or "" when they are valid.
func validateGrepRecord(args json.RawMessage) string {
	if k := jsonKind(args); k != "object" {
		return "arguments: expected object, received " + k
	}
	var a map[string]json.RawMessage
	if err := json.Unmarshal(args, &a); err != nil {
		return "arguments: " + err.Error()
	}
	expect := func(field string, raw json.RawMessage, want string) string {
		if k := jsonKind(raw); k != want {
			return field + ": expected " + want + ", received " + k
		}
		return ""
	}
	q, ok := a["query"]
	if !ok {
		return "query: expected string, received undefined"
	}
	if msg := expect("query", q, "string"); msg != "" {
		return msg
	}
	var qs string
	if json.Unmarshal(q, &qs) == nil && utf8.RuneCountInString(qs) < 1 {
		return "query: expected string of at least 1 character, received empty string"
	}
	if v, ok := a["page"]; ok {
		if msg := expect("page", v, "number"); msg != "" {
			return msg
		}
	}
	if v, ok := a["page_size"]; ok {
		if k := jsonKind(v); k != "number" {
			return "page_size: expected integer, received " + k
		}
		var f float64
		if json.Unmarshal(v, &f) != nil || f != math.Trunc(f) {
			return "page_size: expected integer, received number"
		}
	}
	if v, ok := a["zip"]; ok {
		if msg := expect("zip", v, "string"); msg != "" {
			return msg
		}
	}
	if v, ok := a["filters"]; ok {
		if msg := expect("filters", v, "object"); msg != "" {
			return msg
		}
		var f map[string]json.RawMessage
		_ = json.Unmarshal(v, &f)
		if since, ok := f["since"]; ok {
			if msg := expect("filters.since", since, "string"); msg != "" {
				return msg
			}
			var ts string
			_ = json.Unmarshal(since, &ts)
			if _, err := time.Parse(time.RFC3339Nano, ts); err != nil {
				return "filters.since: expected date-time, received " + quote(ts)
			}
		}
	}
	return ""
}
