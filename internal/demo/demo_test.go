package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/stdioserver"
)

const timeout = 10 * time.Second

// lockedBuffer is a bytes.Buffer safe for the server's log writes and the test's reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// client drives Serve over io.Pipe, as the inspector drives the child process.
type client struct {
	t      *testing.T
	in     *io.PipeWriter
	lines  chan []byte
	stderr *lockedBuffer
	done   chan error
	cancel context.CancelFunc
	nextID int
	closed bool
}

func start(t *testing.T) *client {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{
		t: t, in: inW, lines: make(chan []byte, 1000), stderr: &lockedBuffer{},
		done: make(chan error, 1), cancel: cancel,
	}
	go func() {
		err := Serve(ctx, inR, outW, c.stderr)
		outW.Close()
		c.done <- err
	}()
	go func() {
		r := bufio.NewReader(outR)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				c.lines <- line
			}
			if err != nil {
				close(c.lines)
				return
			}
		}
	}()
	t.Cleanup(func() {
		if !c.closed {
			c.in.Close()
			select {
			case <-c.done:
			case <-time.After(timeout):
				t.Errorf("Serve did not return after stdin EOF")
			}
		}
		cancel()
	})
	return c
}

// closeInput closes stdin and returns Serve's result and every line written after that.
func (c *client) closeInput() ([][]byte, error) {
	c.t.Helper()
	c.closed = true
	c.in.Close()
	var err error
	select {
	case err = <-c.done:
	case <-time.After(timeout):
		c.t.Fatal("Serve did not return after stdin EOF")
	}
	var rest [][]byte
	for line := range c.lines {
		rest = append(rest, line)
	}
	return rest, err
}

func (c *client) sendRaw(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func (c *client) send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendRaw(string(b))
}

// recv returns the next message the server wrote, checking that it is one valid line.
func (c *client) recv() *stdioserver.Message {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatal("server output closed")
		}
		if !bytes.HasSuffix(line, []byte("\n")) || bytes.Count(line, []byte("\n")) != 1 {
			c.t.Fatalf("frame is not one newline-terminated line: %q", line)
		}
		m, err := stdioserver.Parse(line)
		if err != nil {
			c.t.Fatalf("server wrote non-JSON %q: %v", line, err)
		}
		if m.JSONRPC != "2.0" {
			c.t.Fatalf("server wrote jsonrpc %q: %s", m.JSONRPC, line)
		}
		return m
	case <-time.After(timeout):
		c.t.Fatal("timed out waiting for the server")
	}
	return nil
}

// request sends a request with a fresh integer id and returns the id.
func (c *client) request(method string, params any) json.RawMessage {
	c.t.Helper()
	c.nextID++
	id := json.RawMessage(fmt.Sprint(c.nextID))
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	c.send(msg)
	return id
}

// wait reads until the response to id, returning it and the notifications seen before it.
func (c *client) wait(id json.RawMessage) (*stdioserver.Message, []*stdioserver.Message) {
	c.t.Helper()
	var notes []*stdioserver.Message
	for {
		m := c.recv()
		switch {
		case m.IsNotification():
			notes = append(notes, m)
		case m.IsResponse() && string(m.ID) == string(id):
			return m, notes
		default:
			c.t.Fatalf("unexpected message while waiting for %s: %+v", id, m)
		}
	}
}

// call sends a request and returns its result, failing on an error response.
func (c *client) call(method string, params any) (json.RawMessage, []*stdioserver.Message) {
	c.t.Helper()
	resp, notes := c.wait(c.request(method, params))
	if resp.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, resp.Error.Code, resp.Error.Message)
	}
	return resp.Result, notes
}

// callError sends a request and returns its error, failing on success.
func (c *client) callError(method string, params any) *stdioserver.Error {
	c.t.Helper()
	resp, _ := c.wait(c.request(method, params))
	if resp.Error == nil {
		c.t.Fatalf("%s: want an error, got result %s", method, resp.Result)
	}
	return resp.Error
}

func (c *client) initialize(version string) map[string]any {
	c.t.Helper()
	res, _ := c.call("initialize", map[string]any{
		"protocolVersion": version,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "test", "version": "0"},
	})
	c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return decode[map[string]any](c.t, res)
}

func decode[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

type callResult struct {
	Content           []map[string]any `json:"content"`
	StructuredContent map[string]any   `json:"structuredContent"`
	IsError           bool             `json:"isError"`
}

func (c *client) tool(name string, args any) (callResult, []*stdioserver.Message) {
	c.t.Helper()
	res, notes := c.call("tools/call", map[string]any{"name": name, "arguments": args})
	return decode[callResult](c.t, res), notes
}

func text(t *testing.T, r callResult) string {
	t.Helper()
	if len(r.Content) == 0 || r.Content[0]["type"] != "text" {
		t.Fatalf("first block is not text: %+v", r.Content)
	}
	return r.Content[0]["text"].(string)
}

func TestInitializeEchoesSupportedVersions(t *testing.T) {
	for _, v := range SupportedProtocolVersions() {
		c := start(t)
		res := c.initialize(v)
		if res["protocolVersion"] != v {
			t.Errorf("requested %s, got %v", v, res["protocolVersion"])
		}
	}
}

func TestInitializeResult(t *testing.T) {
	c := start(t)
	res := c.initialize("1999-01-01")
	if res["protocolVersion"] != LatestProtocolVersion {
		t.Errorf("unsupported version: answered %v, want %s", res["protocolVersion"], LatestProtocolVersion)
	}
	info := res["serverInfo"].(map[string]any)
	if info["name"] != "mcp-inspect-demo" || info["title"] != "mcp-inspect demo server" || info["version"] != "1.0.0" {
		t.Errorf("serverInfo = %v", info)
	}
	caps := res["capabilities"].(map[string]any)
	for _, k := range []string{"tools", "resources", "prompts", "logging"} {
		if _, ok := caps[k]; !ok {
			t.Errorf("capabilities lack %s: %v", k, caps)
		}
	}
	if caps["tools"].(map[string]any)["listChanged"] != true {
		t.Errorf("tools capability = %v, want listChanged", caps["tools"])
	}
	if s, _ := res["instructions"].(string); s == "" || len(s) > 500 {
		t.Errorf("instructions = %q", s)
	}
	// notifications/initialized gets no response, and the server records it.
	status, _ := c.call("resources/read", map[string]any{"uri": "demo://status"})
	st := decode[map[string]any](t, []byte(decode[struct {
		Contents []struct{ Text string } `json:"contents"`
	}](t, status).Contents[0].Text))
	if st["initialized"] != true || st["protocolVersion"] != LatestProtocolVersion {
		t.Errorf("status after handshake = %v", st)
	}
}

func TestPingAndIDTypes(t *testing.T) {
	c := start(t)
	c.initialize(LatestProtocolVersion)
	c.sendRaw(`{"jsonrpc":"2.0","id":"abc","method":"ping"}`)
	m := c.recv()
	if string(m.ID) != `"abc"` || string(m.Result) != "{}" {
		t.Fatalf("ping: id %s result %s", m.ID, m.Result)
	}
	c.sendRaw(`{"jsonrpc":"2.0","id":0,"method":"ping"}`)
	if m := c.recv(); string(m.ID) != "0" {
		t.Fatalf("ping id 0 answered with id %s", m.ID)
	}
}

func TestUnknownMethod(t *testing.T) {
	c := start(t)
	c.initialize(LatestProtocolVersion)
	c.sendRaw(`{"jsonrpc":"2.0","method":"notifications/whatever"}`) // ignored, no answer
	c.sendRaw(`{"jsonrpc":"2.0","id":"x-1","method":"no/such/method","params":{}}`)
	m := c.recv()
	if string(m.ID) != `"x-1"` || m.Error == nil || m.Error.Code != -32601 {
		t.Fatalf("got %+v, want -32601 for id \"x-1\"", m)
	}
	if !strings.Contains(c.stderr.String(), "method not found: no/such/method") {
		t.Errorf("stderr does not mention the unknown method:\n%s", c.stderr.String())
	}
}

func TestMalformedInput(t *testing.T) {
	c := start(t)
	c.sendRaw(`this is not json`)
	if m := c.recv(); m.Error == nil || m.Error.Code != -32700 || string(m.ID) != "null" {
		t.Fatalf("garbage: %+v", m)
	}
	c.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\xc7\xd1\"}}")
	if m := c.recv(); m.Error == nil || m.Error.Code != -32700 {
		t.Fatalf("invalid UTF-8: %+v", m)
	}
	c.sendRaw(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)
	if m := c.recv(); m.Error == nil || m.Error.Code != -32600 {
		t.Fatalf("batch: %+v", m)
	}
	c.sendRaw(`{"jsonrpc":"1.0","id":2,"method":"ping"}`)
	if m := c.recv(); m.Error == nil || m.Error.Code != -32600 || string(m.ID) != "2" {
		t.Fatalf("jsonrpc 1.0: %+v", m)
	}
	c.sendRaw(`{"jsonrpc":"2.0","id":null,"method":"ping"}`)
	if m := c.recv(); m.Error == nil || m.Error.Code != -32600 {
		t.Fatalf("null id: %+v", m)
	}
	c.sendRaw("") // empty lines are skipped
	c.sendRaw("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\r")
	if m := c.recv(); string(m.ID) != "3" || m.Error != nil {
		t.Fatalf("CRLF ping: %+v", m)
	}
	if e := c.callError("tools/list", map[string]any{"cursor": "bogus"}); e.Code != -32602 {
		t.Fatalf("bogus cursor: %+v", e)
	}
}

func TestToolsList(t *testing.T) {
	c := start(t)
	c.initialize(LatestProtocolVersion)
	res, _ := c.call("tools/list", nil)
	list := decode[struct {
		Tools []struct {
			Name         string          `json:"name"`
			Title        string          `json:"title"`
			Description  string          `json:"description"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
			Annotations  map[string]any  `json:"annotations"`
		} `json:"tools"`
		NextCursor *string `json:"nextCursor"`
	}](t, res)
	var names []string
	types := map[string]bool{}
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
		if tl.Description == "" || tl.Title == "" || tl.Annotations == nil {
			t.Errorf("%s: missing description, title or annotations", tl.Name)
		}
		s, err := parseSchema(tl.InputSchema)
		if err != nil || s.Type != "object" {
			t.Errorf("%s: inputSchema %s: %v", tl.Name, tl.InputSchema, err)
			continue
		}
		var walk func(*schema)
		walk = func(s *schema) {
			types[s.Type] = true
			if len(s.Enum) > 0 {
				types["enum"] = true
			}
			for _, p := range s.Properties {
				walk(p)
			}
			if s.Items != nil {
				walk(s.Items)
			}
		}
		for _, p := range s.Properties {
			walk(p)
		}
		if (tl.Name == "add" || tl.Name == "weather") != (tl.OutputSchema != nil) {
			t.Errorf("%s: outputSchema = %s", tl.Name, tl.OutputSchema)
		}
	}
	want := []string{"echo", "add", "repeat", "weather", "create_issue", "fail", "image", "slow", "log"}
	if !slices.Equal(names, want) {
		t.Errorf("tools = %v, want %v", names, want)
	}
	for _, k := range []string{"string", "number", "integer", "boolean", "enum", "array", "object"} {
		if !types[k] {
			t.Errorf("no tool has an argument of kind %s", k)
		}
	}
	if list.NextCursor != nil {
		t.Errorf("nextCursor = %q on a single page", *list.NextCursor)
	}
}

func TestToolsListOldRevision(t *testing.T) {
	c := start(t)
	c.initialize("2024-11-05")
	res, _ := c.call("tools/list", nil)
	for _, tl := range decode[struct{ Tools []map[string]any }](t, res).Tools {
		for _, k := range []string{"title", "outputSchema", "annotations"} {
			if _, ok := tl[k]; ok {
				t.Errorf("2024-11-05 tools/list: %s has %s", tl["name"], k)
			}
		}
	}
}

func TestEcho(t *testing.T) {
	c := start(t)
	c.initialize(LatestProtocolVersion)
	if r, _ := c.tool("echo", map[string]any{"text": "héllo <b>"}); text(t, r) != "héllo <b>" || r.IsError {
		t.Errorf("echo = %+v", r)
	}
	if r, _ := c.tool("echo", map[string]any{"text": "shout", "uppercase": true}); text(t, r) != "SHOUT" {
		t.Errorf("uppercase echo = %+v", r)
	}
	for _, bad := range []map[string]any{{}, {"text": 3}, {"text": "a", "extra": 1}, {"text": "a", "uppercase": "yes"}} {
		r, _ := c.tool("echo", bad)
		if !r.IsError || !strings.HasPrefix(text(t, r), "Invalid arguments for echo") {
			t.Errorf("echo %v: want a tool error, got %+v", bad, r)
		}
	}
}

func TestUnknownTool(t *testing.T) {
	c := start(t)
	c.initialize(LatestProtocolVersion)
	if e := c.callError("tools/call", map[string]any{"name": "nope"}); e.Code != -32602 || !strings.Contains(e.Message, "nope") {
		t.Fatalf("unknown tool: %+v", e)
	}
}

func TestAddStructured(t *testing.T) {
	c := start(t)
	c.initialize(LatestProtocolVersion)
	r, _ := c.tool("add", map[string]any{"a": 2.5, "b": 3})
	if r.StructuredContent["sum"] != 5.5 {
		t.Errorf("structuredContent = %v", r.StructuredContent)
	}
	if text(t, r) != `{"sum":5.5}` {
		t.Errorf("text = %q, want the serialized structured content", text(t, r))
	}
	if r, _ := c.tool("add", map[string]any{"a": "2", "b": 3}); !r.IsError {
		t.Errorf("string addend accepted: %+v", r)
	}
	// Older revisions have no structuredContent.
	old := start(t)
	old.initialize("2025-03-26")
	if r, _ := old.tool("add", map[string]any{"a": 1, "b": 1}); r.StructuredContent != nil || text(t, r) != `{"sum":2}` {
		t.Errorf("2025-03-26 add = %+v", r)
	}
}

func TestRepeat(t *testing.T) {
	c := start(t)
	c.initialize(LatestProtocolVersion)
	if r, _ := c.tool("repeat", map[string]any{"text": "ab"}); text(t, r) != "ab\nab" {
		t.Errorf("default times: %q", text(t, r))
	}
	if r, _ := c.tool("repeat", map[string]any{"text": "x", "times": 3}); text(t, r) != "x\nx\nx" {
		t.Errorf("times 3: %q", text(t, r))
	}
	for _, times := range []any{0, 11, 2.5, "2"} {
		if r, _ := c.tool("repeat", map[string]any{"text": "x", "times": times}); !r.IsError {
			t.Errorf("times %v accepted: %+v", times, r)
		}
	}
	if r, _ := c.tool("repeat", map[string]any{"text": "x", "times": 2.0}); r.IsError {
		t.Errorf("times 2.0 is an integer in JSON Schema: %+v", r)
	}
}

func TestWeather(t *testing.T) {
	c := start(t)
	c.initialize(LatestProtocolVersion)
	a, _ := c.tool("weather", map[string]any{"city": "Lisbon"})
	b, _ := c.tool("weather", map[string]any{"city": "Lisbon", "units": "metric"})
	if a.IsError || text(t, a) != text(t, b) {
		t.Errorf("weather is not stable or default units differ: %q vs %q", text(t, a), text(t, b))
	}
	if a.StructuredContent["units"] != "metric" || a.StructuredContent["city"] != "Lisbon" {
		t.Errorf("structured = %v", a.StructuredContent)
	}
	f, _ := c.tool("weather", map[string]any{"city": "Lisbon", "units": "imperial"})
	cel, fah := a.StructuredContent["temperature"].(float64), f.StructuredContent["temperature"].(float64)
	if d := cel*9/5 + 32 - fah; d > 0.1 || d < -0.1 {
		t.Errorf("%v °C is not %v °F", cel, fah)
	}
	if r, _ := c.tool("weather", map[string]any{"city": "Lisbon", "units": "kelvin"}); !r.IsError {
		t.Errorf("units kelvin accepted")
	}
}

func TestCreateIssueLinksAReadableResource(t *testing.T) {
	c := start(t)
	c.initialize(LatestProtocolVersion)
	r, _ := c.tool("create_issue", map[string]any{
		"title":    "Crash on start",
		"labels":   []string{"bug", "p1"},
		"assignee": map[string]any{"name": "Ada", "email": "ada@example.com"},
	})
	if r.IsError || len(r.Content) != 2 {
		t.Fatalf("create_issue = %+v", r)
	}
	link := r.Content[1]
	if link["type"] != "resource_link" || link["uri"] != "demo://issues/1" || link["mimeType"] != "application/json" {
		t.Fatalf("link = %v", link)
	}
	res, _ := c.call("resources/read", map[string]any{"uri": "demo://issues/1"})
	got := decode[struct {
		Contents []struct{ URI, MimeType, Text string } `json:"contents"`
	}](t, res)
	is := decode[issue](t, []byte(got.Contents[0].Text))
	if is.Title != "Crash on start" || is.Priority != "medium" || !slices.Equal(is.Labels, []string{"bug", "p1"}) ||
		is.Assignee == nil || is.Assignee.Email != "ada@example.com" {
		t.Errorf("issue = %+v", is)
	}
	for _, bad := range []map[string]any{
		{"title": "x", "assignee": map[string]any{"name": "Ada", "email": "not an email"}},
		{"title": "x", "assignee": map[string]any{"email": "a@b.c"}},
		{"title": "x", "labels": []any{"ok", 3}},
		{"title": "x", "priority": "whenever"},
		{"title": ""},
	} {
		if r, _ := c.tool("create_issue", bad); !r.IsError {
			t.Errorf("create_issue %v accepted", bad)
		}
	}
	if e := c.callError("resources/read", map[string]any{"uri": "demo://issues/2"}); e.Code != -32002 {
		t.Errorf("missing issue: %+v", e)
	}
	// 2025-03-26 has no resource_link: the issue is embedded instead.
	old := start(t)
	old.initialize("2025-03-26")
	r, _ = old.tool("create_issue", map[string]any{"title": "Old"})
	if r.Content[1]["type"] != "resource" {
		t.Errorf("2025-03-26 create_issue = %v", r.Content)
	}
}

func TestFail(t *testing.T) {
	c := start(t)
	c.initialize(LatestProtocolVersion)
	r, _ := c.tool("fail", map[string]any{"reason": "testing"})
	if !r.IsError || !strings.Contains(text(t, r), "testing") {
		t.Errorf("fail = %+v", r)
	}
}

func TestImage(t *testing.T) {
	c := start(t)
	c.initialize(LatestProtocolVersion)
	r, _ := c.tool("image", map[string]any{})
	blk := r.Content[0]
	if blk["type"] != "image" || blk["mimeType"] != "image/png" {
		t.Fatalf("block = %v", blk)
	}
	b, err := base64.StdEncoding.DecodeString(blk["data"].(string))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if img.Bounds().Dx() != 64 || img.Bounds().Dy() != 64 {
		t.Errorf("size %v", img.Bounds())
	}
}

func TestSlowSendsProgressForItsToken(t *testing.T) {
	t.Parallel()
	c := start(t)
	c.initialize(LatestProtocolVersion)
	for _, token := range []any{"tok-1", 42} {
		res, notes := c.call("tools/call", map[string]any{
			"name": "slow", "arguments": map[string]any{"seconds": 0.2, "steps": 4},
			"_meta": map[string]any{"progressToken": token},
		})
		if r := decode[callResult](t, res); r.IsError || !strings.HasPrefix(text(t, r), "Done: 4 steps") {
			t.Fatalf("slow = %s", res)
		}
		if len(notes) != 4 {
			t.Fatalf("%d notifications, want 4", len(notes))
		}
		wantToken, _ := json.Marshal(token)
		for i, n := range notes {
			p := decode[struct {
				ProgressToken json.RawMessage `json:"progressToken"`
				Progress      float64         `json:"progress"`
				Total         float64         `json:"total"`
				Message       string          `json:"message"`
			}](t, n.Params)
			if n.Method != "notifications/progress" || string(p.ProgressToken) != string(wantToken) ||
				p.Progress != float64(i+1) || p.Total != 4 || p.Message != fmt.Sprintf("step %d of 4", i+1) {
				t.Errorf("notification %d = %s %s", i, n.Method, n.Params)
			}
		}
	}
	// Without a token there is no progress.
	_, notes := c.call("tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"seconds": 0.05, "steps": 2}})
	if len(notes) != 0 {
		t.Errorf("progress without a token: %v", notes)
	}
}

func TestSlowCancelled(t *testing.T) {
	t.Parallel()
	c := start(t)
	c.initialize(LatestProtocolVersion)
	c.sendRaw(`{"jsonrpc":"2.0","id":"slow-1","method":"tools/call","params":{"name":"slow","arguments":{"seconds":30,"steps":100},"_meta":{"progressToken":"p"}}}`)
	if m := c.recv(); m.Method != "notifications/progress" {
		t.Fatalf("want the first progress, got %+v", m)
	}
	begin := time.Now()
	c.sendRaw(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow-1","reason":"user pressed cancel"}}`)
	// The server keeps serving; any progress already in flight may still arrive first.
	id := c.request("ping", nil)
	if m, _ := c.wait(id); m.Error != nil {
		t.Fatalf("ping after cancel: %+v", m)
	}
	rest, err := c.closeInput()
	if err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if time.Since(begin) > 5*time.Second {
		t.Errorf("cancel took %v", time.Since(begin))
	}
	for _, line := range rest {
		if bytes.Contains(line, []byte(`"id":"slow-1"`)) {
			t.Errorf("response sent for a cancelled request: %s", line)
		}
		if bytes.Contains(line, []byte("notifications/progress")) {
			t.Errorf("progress after cancel: %s", line)
		}
	}
	if !strings.Contains(c.stderr.String(), `cancelled request "slow-1" (tools/call): user pressed cancel`) {
		t.Errorf("stderr:\n%s", c.stderr.String())
	}
}

func TestCancelUnknownOrInitializeIsIgnored(t *testing.T) {
	c := start(t)
	c.sendRaw(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`)
	c.initialize(LatestProtocolVersion)
	if !strings.Contains(c.stderr.String(), "ignoring notifications/cancelled for id 99") {
		t.Errorf("stderr:\n%s", c.stderr.String())
	}
}

func TestRequestsRunConcurrently(t *testing.T) {
	t.Parallel()
	c := start(t)
	c.initialize(LatestProtocolVersion)
	begin := time.Now()
	slowID := c.request("tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"seconds": 3, "steps": 1}})
	var ids []json.RawMessage
	for range 5 {
		ids = append(ids, c.request("ping", nil))
	}
	ids = append(ids, c.request("tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "fast"}}))
	seen := map[string]bool{}
	for len(seen) < len(ids) {
		m := c.recv()
		if string(m.ID) == string(slowID) {
			t.Fatalf("slow finished before the fast requests (after %v)", time.Since(begin))
		}
		seen[string(m.ID)] = true
	}
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("fast requests took %v behind a slow one", d)
	}
	if m, _ := c.wait(slowID); m.Error != nil {
		t.Errorf("slow: %+v", m.Error)
	}
}

func TestDuplicateInFlightID(t *testing.T) {
	t.Parallel()
	c := start(t)
	c.initialize(LatestProtocolVersion)
	c.sendRaw(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","arguments":{"seconds":1,"steps":1}}}`)
	c.sendRaw(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	m := c.recv()
	if string(m.ID) != "5" || m.Error == nil || m.Error.Code != -32600 {
		t.Fatalf("duplicate id: %+v", m)
	}
	if m := c.recv(); string(m.ID) != "5" || m.Error != nil {
		t.Fatalf("the first request 5 should still complete: %+v", m)
	}
}

func TestLogRespectsSetLevel(t *testing.T) {
	c := start(t)
	c.initialize(LatestProtocolVersion)
	// Before any setLevel every level is sent.
	r, notes := c.tool("log", map[string]any{"level": "debug", "message": "hello"})
	if len(notes) != 1 || r.IsError {
		t.Fatalf("debug log before setLevel: %d notifications, %+v", len(notes), r)
	}
	want := `{"level":"debug","logger":"demo","data":"hello"}`
	if notes[0].Method != "notifications/message" || string(notes[0].Params) != want {
		t.Errorf("notification = %s %s, want %s", notes[0].Method, notes[0].Params, want)
	}
	if _, notes := c.call("logging/setLevel", map[string]any{"level": "warning"}); len(notes) != 0 {
		t.Fatal("setLevel sent notifications")
	}
	r, notes = c.tool("log", map[string]any{"level": "info"})
	if len(notes) != 0 || !strings.HasPrefix(text(t, r), "Not sent: info is below the current level warning") {
		t.Errorf("info after warning: %d notifications, %q", len(notes), text(t, r))
	}
	for _, lvl := range []string{"warning", "emergency"} {
		_, notes = c.tool("log", map[string]any{"level": lvl})
		if len(notes) != 1 || !strings.Contains(string(notes[0].Params), `"level":"`+lvl+`"`) ||
			!strings.Contains(string(notes[0].Params), `"data":"Hello from the demo server"`) {
			t.Errorf("%s: %v", lvl, notes)
		}
	}
	if e := c.callError("logging/setLevel", map[string]any{"level": "verbose"}); e.Code != -32602 {
		t.Errorf("bad level: %+v", e)
	}
	if r, _ := c.tool("log", map[string]any{"level": "verbose"}); !r.IsError {
		t.Errorf("log with a bad level accepted")
	}
}

func TestResources(t *testing.T) {
	c := start(t)
	c.initialize(LatestProtocolVersion)
	res, _ := c.call("resources/list", nil)
	list := decode[struct {
		Resources []resource `json:"resources"`
	}](t, res)
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
	}
	if !slices.Equal(uris, []string{"demo://readme", "demo://logo.png", "demo://status"}) {
		t.Errorf("resources = %v", uris)
	}
	res, _ = c.call("resources/read", map[string]any{"uri": "demo://readme"})
	rd := decode[struct{ Contents []contents }](t, res)
	if len(rd.Contents) != 1 || rd.Contents[0].MimeType != "text/markdown" || rd.Contents[0].Text == nil ||
		!strings.HasPrefix(*rd.Contents[0].Text, "# mcp-inspect demo server") {
		t.Errorf("readme = %+v", rd)
	}
	res, _ = c.call("resources/read", map[string]any{"uri": "demo://logo.png"})
	rd = decode[struct{ Contents []contents }](t, res)
	b, err := base64.StdEncoding.DecodeString(rd.Contents[0].Blob)
	if err != nil || rd.Contents[0].Text != nil {
		t.Fatalf("logo: %v %+v", err, rd.Contents[0])
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Errorf("logo is not a PNG: %v", err)
	}
	e := c.callError("resources/read", map[string]any{"uri": "demo://nope"})
	if e.Code != -32002 || string(e.Data) != `{"uri":"demo://nope"}` {
		t.Errorf("unknown resource: %+v", e)
	}
	res, _ = c.call("resources/templates/list", nil)
	if !strings.Contains(string(res), `"uriTemplate":"demo://issues/{number}"`) {
		t.Errorf("templates = %s", res)
	}
}

func TestPrompts(t *testing.T) {
	c := start(t)
	c.initialize(LatestProtocolVersion)
	res, _ := c.call("prompts/list", nil)
	list := decode[struct{ Prompts []prompt }](t, res)
	if len(list.Prompts) != 2 || list.Prompts[0].Name != "review_code" || len(list.Prompts[0].Arguments) != 2 ||
		!list.Prompts[0].Arguments[0].Required || list.Prompts[0].Arguments[1].Required {
		t.Fatalf("prompts = %+v", list)
	}
	res, _ = c.call("prompts/get", map[string]any{"name": "review_code", "arguments": map[string]string{"code": "x := 1", "language": "Go"}})
	got := decode[struct {
		Messages []struct {
			Role    string
			Content map[string]any
		} `json:"messages"`
	}](t, res)
	if len(got.Messages) != 1 || got.Messages[0].Role != "user" ||
		!strings.Contains(got.Messages[0].Content["text"].(string), "```go\nx := 1\n```") {
		t.Errorf("review_code = %s", res)
	}
	if e := c.callError("prompts/get", map[string]any{"name": "review_code", "arguments": map[string]string{"language": "Go"}}); e.Code != -32602 {
		t.Errorf("missing code: %+v", e)
	}
	if e := c.callError("prompts/get", map[string]any{"name": "nope"}); e.Code != -32602 {
		t.Errorf("unknown prompt: %+v", e)
	}
	res, _ = c.call("prompts/get", map[string]any{"name": "tour"})
	if !strings.Contains(string(res), `"type":"resource"`) || !strings.Contains(string(res), `"uri":"demo://readme"`) {
		t.Errorf("tour = %s", res)
	}
}

func TestEOFStopsServeAndSlowCalls(t *testing.T) {
	t.Parallel()
	c := start(t)
	c.initialize(LatestProtocolVersion)
	c.sendRaw(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"slow","arguments":{"seconds":60,"steps":2}}}`)
	c.sendRaw(`{"jsonrpc":"2.0","id":10,"method":"ping"}`)
	begin := time.Now()
	rest, err := c.closeInput()
	if err != nil {
		t.Fatalf("Serve returned %v on EOF, want nil", err)
	}
	if d := time.Since(begin); d > 3*time.Second {
		t.Errorf("Serve took %v to stop", d)
	}
	joined := string(bytes.Join(rest, nil))
	if !strings.Contains(joined, `"id":10,"result":{}`) {
		t.Errorf("ping sent just before EOF was not answered: %s", joined)
	}
	if !strings.Contains(joined, `"id":9,"error"`) {
		t.Errorf("the slow call was not ended with an error: %s", joined)
	}
}

func TestContextCancelStopsServe(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, inR, io.Discard, io.Discard) }()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Serve = %v, want context.Canceled", err)
		}
	case <-time.After(timeout):
		t.Fatal("Serve ignored ctx")
	}
}

// brokenWriter fails every write, like a stdout whose reader went away.
type brokenWriter struct{}

func (brokenWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestBrokenStdoutStopsServe(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), inR, brokenWriter{}, io.Discard) }()
	go io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
	select {
	case err := <-done:
		if !errors.Is(err, io.ErrClosedPipe) {
			t.Errorf("Serve = %v, want the write error", err)
		}
	case <-time.After(timeout):
		t.Fatal("Serve kept running with a broken stdout")
	}
}

func TestLongLine(t *testing.T) {
	c := start(t)
	c.initialize(LatestProtocolVersion)
	big := strings.Repeat("é", 100_000) // 200 KB of UTF-8, past any 64 KiB scanner limit
	if r, _ := c.tool("echo", map[string]any{"text": big}); text(t, r) != big {
		t.Errorf("long echo came back with %d bytes", len(text(t, r)))
	}
}
