package demo

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/stdioserver"
)

// tool is one demo tool: its tools/list entry (MCP 2025-11-25 server/tools, Tool) and
// its implementation.
type tool struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitempty"`
	Description  string           `json:"description"`
	InputSchema  json.RawMessage  `json:"inputSchema"`
	OutputSchema json.RawMessage  `json:"outputSchema,omitempty"`
	Annotations  *toolAnnotations `json:"annotations,omitempty"`

	run func(ctx context.Context, c *toolCall) (*toolResult, error)
}

// toolAnnotations are hints about a tool's behaviour (MCP 2025-03-26 and later).
type toolAnnotations struct {
	ReadOnlyHint    bool  `json:"readOnlyHint"`
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
	IdempotentHint  bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   bool  `json:"openWorldHint"`
}

// readOnly is the annotation of a tool that changes nothing and talks to nothing outside.
func readOnly() *toolAnnotations { return &toolAnnotations{ReadOnlyHint: true, IdempotentHint: true} }

// toolCall is one tools/call in progress.
type toolCall struct {
	s             *server
	req           *inflight
	arguments     json.RawMessage
	progressToken json.RawMessage // nil when the client did not ask for progress
}

// toolResult is a CallToolResult (MCP 2025-11-25 server/tools).
type toolResult struct {
	Content           []block `json:"content"`
	StructuredContent any     `json:"structuredContent,omitempty"`
	IsError           bool    `json:"isError,omitempty"`
}

// block is a content block (MCP 2025-11-25 schema.ts ContentBlock): text, image,
// resource_link or an embedded resource. A struct rather than a map so "type" comes first
// on the wire, where a person reading the raw pane looks for it.
type block struct {
	Type        string    `json:"type"`
	Text        *string   `json:"text,omitempty"`
	URI         string    `json:"uri,omitempty"`
	Name        string    `json:"name,omitempty"`
	Title       string    `json:"title,omitempty"`
	Description string    `json:"description,omitempty"`
	Data        string    `json:"data,omitempty"`
	MimeType    string    `json:"mimeType,omitempty"`
	Resource    *contents `json:"resource,omitempty"`
}

func textBlock(text string) block { return block{Type: "text", Text: &text} }

func textResult(text string) *toolResult {
	return &toolResult{Content: []block{textBlock(text)}}
}

func errorResult(text string) *toolResult {
	return &toolResult{Content: []block{textBlock(text)}, IsError: true}
}

// structuredResult returns v as structuredContent and, as the spec recommends, also as
// serialized JSON in a text block for clients that predate structured output.
func structuredResult(v any) (*toolResult, error) {
	b, err := stdioserver.Encode(v)
	if err != nil {
		return nil, err
	}
	return &toolResult{
		Content:           []block{textBlock(strings.TrimSuffix(string(b), "\n"))},
		StructuredContent: v,
	}, nil
}

// tools returns the demo's tools in the order tools/list shows them.
func tools() []*tool {
	return []*tool{
		{
			Name:        "echo",
			Title:       "Echo",
			Description: "Returns the text you send, optionally in upper case. The simplest possible tool.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{` +
				`"text":{"type":"string","description":"Text to send back"},` +
				`"uppercase":{"type":"boolean","description":"Upper-case the text first","default":false}},` +
				`"required":["text"],"additionalProperties":false}`),
			Annotations: readOnly(),
			run:         runEcho,
		},
		{
			Name:        "add",
			Title:       "Add two numbers",
			Description: "Adds a and b. Returns structuredContent {sum} matching its outputSchema, and the same JSON as text.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{` +
				`"a":{"type":"number","description":"First addend"},` +
				`"b":{"type":"number","description":"Second addend"}},` +
				`"required":["a","b"],"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}`),
			Annotations:  readOnly(),
			run:          runAdd,
		},
		{
			Name:        "repeat",
			Title:       "Repeat text",
			Description: "Repeats the text a number of times, one per line. times is an integer from 1 to 10.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{` +
				`"text":{"type":"string","description":"Text to repeat"},` +
				`"times":{"type":"integer","minimum":1,"maximum":10,"default":2,"description":"How many times"}},` +
				`"required":["text"],"additionalProperties":false}`),
			Annotations: readOnly(),
			run:         runRepeat,
		},
		{
			Name:        "weather",
			Title:       "Weather (made up)",
			Description: "Returns invented but stable weather for a city: the same city always gives the same answer. No network access.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{` +
				`"city":{"type":"string","description":"City name, e.g. Lisbon"},` +
				`"units":{"type":"string","enum":["metric","imperial"],"default":"metric","description":"Celsius and km/h, or Fahrenheit and mph"}},` +
				`"required":["city"],"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{` +
				`"city":{"type":"string"},"units":{"type":"string","enum":["metric","imperial"]},` +
				`"temperature":{"type":"number"},"wind":{"type":"number"},"humidity":{"type":"integer"},` +
				`"conditions":{"type":"string"}},` +
				`"required":["city","units","temperature","wind","humidity","conditions"]}`),
			Annotations: readOnly(),
			run:         runWeather,
		},
		{
			Name:  "create_issue",
			Title: "Create an issue",
			Description: "Files an issue in the demo server's memory and returns a resource_link to it " +
				"(demo://issues/{number}); read that resource to see the issue. Shows arrays, enums and nested objects.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{` +
				`"title":{"type":"string","minLength":1,"description":"One-line summary"},` +
				`"labels":{"type":"array","items":{"type":"string"},"description":"Labels, e.g. bug, ui"},` +
				`"priority":{"type":"string","enum":["low","medium","high","urgent"],"default":"medium"},` +
				`"assignee":{"type":"object","description":"Who should work on it","properties":{` +
				`"name":{"type":"string"},` +
				`"email":{"type":"string","format":"email"}},` +
				`"required":["name"],"additionalProperties":false}},` +
				`"required":["title"],"additionalProperties":false}`),
			Annotations: &toolAnnotations{DestructiveHint: new(false)},
			run:         runCreateIssue,
		},
		{
			Name:  "fail",
			Title: "Always fail",
			Description: "Always fails the way tools should: a normal result with isError: true and an explanation, " +
				"not a JSON-RPC error, so a model could read it and try again.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{` +
				`"reason":{"type":"string","description":"Put this text in the error message"}},` +
				`"additionalProperties":false}`),
			Annotations: readOnly(),
			run:         runFail,
		},
		{
			Name:        "image",
			Title:       "Image",
			Description: "Returns a 64x64 PNG as an image content block (base64 data and mimeType).",
			InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
			Annotations: readOnly(),
			run:         runImage,
		},
		{
			Name:  "slow",
			Title: "Slow task with progress",
			Description: "Works for a number of seconds in steps. If the request has params._meta.progressToken, " +
				"sends notifications/progress after each step. Cancel it with notifications/cancelled: it stops and sends no response.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{` +
				`"seconds":{"type":"number","minimum":0,"maximum":300,"default":5,"description":"Total duration"},` +
				`"steps":{"type":"integer","minimum":1,"maximum":100,"default":5,"description":"Number of progress steps"}},` +
				`"additionalProperties":false}`),
			Annotations: readOnly(),
			run:         runSlow,
		},
		{
			Name:  "log",
			Title: "Send a log message",
			Description: "Sends notifications/message at the given level (logger \"demo\") unless the level set with " +
				"logging/setLevel filters it out, and says which happened.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{` +
				`"level":{"type":"string","enum":["debug","info","notice","warning","error","critical","alert","emergency"],"description":"RFC 5424 severity"},` +
				`"message":{"type":"string","default":"Hello from the demo server","description":"The log message (notification data)"}},` +
				`"required":["level"],"additionalProperties":false}`),
			Annotations: readOnly(),
			run:         runLog,
		},
	}
}

func findTool(name string) *tool {
	i := slices.IndexFunc(tools(), func(t *tool) bool { return t.Name == name })
	if i < 0 {
		return nil
	}
	return tools()[i]
}

// toolList returns the tools/list entries, without the fields the negotiated revision
// does not know: annotations came in 2025-03-26, title and outputSchema in 2025-06-18.
func (s *server) toolList() []*tool {
	list := tools()
	for _, t := range list {
		if !s.atLeast("2025-06-18") {
			t.Title, t.OutputSchema = "", nil
		}
		if !s.atLeast("2025-03-26") {
			t.Annotations = nil
		}
	}
	return list
}

func (s *server) callTool(ctx context.Context, req *request) (any, error) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Meta      struct {
			ProgressToken json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if err := decodeParams(req.params, &p); err != nil {
		return nil, err
	}
	t := findTool(p.Name)
	if t == nil {
		// Unknown tools are a protocol error, not a tool error (MCP server/tools §Error Handling).
		return nil, invalidParams("Unknown tool: %q", p.Name)
	}
	token := p.Meta.ProgressToken
	if string(token) == "null" {
		token = nil
	}
	res, err := t.run(ctx, &toolCall{s: s, req: req.call, arguments: p.Arguments, progressToken: token})
	if err != nil {
		return nil, err
	}
	if !s.atLeast("2025-06-18") {
		res.StructuredContent = nil
	}
	return res, nil
}

// bind decodes the call's arguments into dst. A validation failure is returned as a tool
// error result, which is what the spec recommends for bad input (SEP-1303), so the caller
// returns (result, nil).
func (c *toolCall) bind(name string, dst any) *toolResult {
	if err := bindArguments(findTool(name).InputSchema, c.arguments, dst); err != nil {
		return errorResult("Invalid arguments for " + name + ": " + err.Error())
	}
	return nil
}

func runEcho(_ context.Context, c *toolCall) (*toolResult, error) {
	var a struct {
		Text      string `json:"text"`
		Uppercase bool   `json:"uppercase"`
	}
	if bad := c.bind("echo", &a); bad != nil {
		return bad, nil
	}
	if a.Uppercase {
		a.Text = strings.ToUpper(a.Text)
	}
	return textResult(a.Text), nil
}

func runAdd(_ context.Context, c *toolCall) (*toolResult, error) {
	var a struct {
		A float64 `json:"a"`
		B float64 `json:"b"`
	}
	if bad := c.bind("add", &a); bad != nil {
		return bad, nil
	}
	return structuredResult(struct {
		Sum float64 `json:"sum"`
	}{a.A + a.B})
}

func runRepeat(_ context.Context, c *toolCall) (*toolResult, error) {
	var a struct {
		Text  string `json:"text"`
		Times int    `json:"times"`
	}
	if bad := c.bind("repeat", &a); bad != nil {
		return bad, nil
	}
	lines := make([]string, a.Times)
	for i := range lines {
		lines[i] = a.Text
	}
	return textResult(strings.Join(lines, "\n")), nil
}

// weatherReport is the weather tool's structured output; field order is its JSON order.
type weatherReport struct {
	City        string  `json:"city"`
	Units       string  `json:"units"`
	Temperature float64 `json:"temperature"`
	Wind        float64 `json:"wind"`
	Humidity    int     `json:"humidity"`
	Conditions  string  `json:"conditions"`
}

func runWeather(_ context.Context, c *toolCall) (*toolResult, error) {
	var a struct {
		City  string `json:"city"`
		Units string `json:"units"`
	}
	if bad := c.bind("weather", &a); bad != nil {
		return bad, nil
	}
	// A hash of the city picks the weather, so answers are stable and need no network.
	h := fnv.New64a()
	h.Write([]byte(strings.ToLower(strings.TrimSpace(a.City))))
	n := h.Sum64()
	conditions := []string{"sunny", "partly cloudy", "overcast", "light rain", "showers", "thunderstorms", "fog", "snow"}
	celsius := float64(int(n%400)-50) / 10 // -5.0 … 34.9 °C
	kmh := float64(n>>16%60) + 0.5*float64(n>>24%2)
	r := weatherReport{
		City:        a.City,
		Units:       a.Units,
		Temperature: celsius,
		Wind:        kmh,
		Humidity:    int(n>>32%71) + 25,
		Conditions:  conditions[n>>40%uint64(len(conditions))],
	}
	if a.Units == "imperial" {
		r.Temperature = math.Round((celsius*9/5+32)*10) / 10
		r.Wind = math.Round(kmh/1.609344*10) / 10
	}
	return structuredResult(r)
}

// issue is one issue filed with create_issue, readable as demo://issues/{number}.
type issue struct {
	Number   int       `json:"number"`
	Title    string    `json:"title"`
	Labels   []string  `json:"labels"`
	Priority string    `json:"priority"`
	Assignee *assignee `json:"assignee,omitempty"`
	Created  string    `json:"created"`
}

type assignee struct {
	Name  string `json:"name"`
	Email string `json:"email,omitempty"`
}

func issueURI(n int) string { return "demo://issues/" + strconv.Itoa(n) }

func runCreateIssue(_ context.Context, c *toolCall) (*toolResult, error) {
	var a issue
	if bad := c.bind("create_issue", &a); bad != nil {
		return bad, nil
	}
	if a.Labels == nil {
		a.Labels = []string{}
	}
	a.Created = time.Now().UTC().Format(time.RFC3339)
	c.s.mu.Lock()
	a.Number = len(c.s.issues) + 1
	c.s.issues = append(c.s.issues, a)
	c.s.mu.Unlock()

	text := fmt.Sprintf("Created issue #%d %q (priority %s). Read %s for the details.", a.Number, a.Title, a.Priority, issueURI(a.Number))
	res := &toolResult{Content: []block{textBlock(text)}}
	if c.s.atLeast("2025-06-18") {
		res.Content = append(res.Content, block{
			Type:        "resource_link",
			URI:         issueURI(a.Number),
			Name:        fmt.Sprintf("issue-%d", a.Number),
			Title:       fmt.Sprintf("Issue #%d: %s", a.Number, a.Title),
			Description: "The issue just created, as JSON",
			MimeType:    "application/json",
		})
	} else {
		// resource_link arrived in 2025-06-18; older clients get the issue embedded instead.
		contents, err := issueContents(a)
		if err != nil {
			return nil, err
		}
		res.Content = append(res.Content, block{Type: "resource", Resource: &contents})
	}
	return res, nil
}

func runFail(_ context.Context, c *toolCall) (*toolResult, error) {
	var a struct {
		Reason string `json:"reason"`
	}
	if bad := c.bind("fail", &a); bad != nil {
		return bad, nil
	}
	msg := "The fail tool always fails. This is a tool error (isError: true), not a protocol error: the call itself worked."
	if a.Reason != "" {
		msg += " Reason given: " + a.Reason
	}
	return errorResult(msg), nil
}

func runImage(_ context.Context, c *toolCall) (*toolResult, error) {
	var a struct{}
	if bad := c.bind("image", &a); bad != nil {
		return bad, nil
	}
	png, err := logoPNG()
	if err != nil {
		return nil, err
	}
	return &toolResult{Content: []block{
		{Type: "image", Data: base64.StdEncoding.EncodeToString(png), MimeType: "image/png"},
		textBlock(fmt.Sprintf("A 64x64 PNG, %d bytes.", len(png))),
	}}, nil
}

// progressParams is a notifications/progress payload (MCP basic/utilities/progress).
type progressParams struct {
	ProgressToken json.RawMessage `json:"progressToken"`
	Progress      float64         `json:"progress"`
	Total         float64         `json:"total"`
	Message       string          `json:"message,omitempty"`
}

func runSlow(ctx context.Context, c *toolCall) (*toolResult, error) {
	var a struct {
		Seconds float64 `json:"seconds"`
		Steps   int     `json:"steps"`
	}
	if bad := c.bind("slow", &a); bad != nil {
		return bad, nil
	}
	step := time.Duration(a.Seconds * float64(time.Second) / float64(a.Steps))
	start := time.Now()
	timer := time.NewTimer(step)
	defer timer.Stop()
	for k := 1; k <= a.Steps; k++ {
		select {
		case <-ctx.Done():
			return nil, &stdioserver.Error{
				Code:    stdioserver.CodeInternalError,
				Message: fmt.Sprintf("slow stopped at step %d of %d: %v", k-1, a.Steps, context.Cause(ctx)),
			}
		case <-timer.C:
			timer.Reset(step)
		}
		// Progress only for a token the client gave; notify writes nothing after a cancel.
		if c.progressToken != nil {
			c.s.notify(c.req, "notifications/progress", progressParams{
				ProgressToken: c.progressToken,
				Progress:      float64(k),
				Total:         float64(a.Steps),
				Message:       fmt.Sprintf("step %d of %d", k, a.Steps),
			})
		}
	}
	return textResult(fmt.Sprintf("Done: %d steps in %.1f s.", a.Steps, time.Since(start).Seconds())), nil
}

func runLog(_ context.Context, c *toolCall) (*toolResult, error) {
	var a struct {
		Level   string `json:"level"`
		Message string `json:"message"`
	}
	if bad := c.bind("log", &a); bad != nil {
		return bad, nil
	}
	levels := logLevels()
	c.s.mu.Lock()
	threshold := c.s.logLevel
	c.s.mu.Unlock()
	if slices.Index(levels, a.Level) < threshold {
		return textResult(fmt.Sprintf("Not sent: %s is below the current level %s (change it with logging/setLevel).",
			a.Level, levels[threshold])), nil
	}
	c.s.notify(c.req, "notifications/message", struct {
		Level  string `json:"level"`
		Logger string `json:"logger"`
		Data   string `json:"data"`
	}{a.Level, "demo", a.Message})
	return textResult(fmt.Sprintf("Sent notifications/message at level %s.", a.Level)), nil
}
