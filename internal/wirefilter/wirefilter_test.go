package wirefilter

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// ev is a test event.
type ev struct {
	name      string
	dir, kind string
	method    string
	id        string
	at        time.Duration
	problem   bool
	tool      string
	toolErr   bool
	raw       string
	paged     bool // bytes not at hand
	ex        uint64
}

func (e ev) Dir() string            { return e.dir }
func (e ev) Kind() string           { return e.kind }
func (e ev) Method() string         { return e.method }
func (e ev) ID() string             { return e.id }
func (e ev) Elapsed() time.Duration { return e.at }
func (e ev) HasProblem() bool       { return e.problem }
func (e ev) Tool() string           { return e.tool }
func (e ev) ToolError() bool        { return e.toolErr }
func (e ev) Raw() ([]byte, bool)    { return []byte(e.raw), !e.paged }
func (e ev) Exchange() uint64       { return e.ex }

// events is a small session: the names are what the table lists.
var events = []ev{
	{name: "init", dir: "out", kind: "request", method: "initialize", id: "0", at: 0, raw: `{"jsonrpc":"2.0","id":0,"method":"initialize"}`},
	{name: "initres", dir: "in", kind: "response", method: "initialize", id: "0", at: 100 * time.Millisecond, raw: `{"jsonrpc":"2.0","id":0,"result":{}}`},
	{name: "list", dir: "out", kind: "request", method: "tools/list", id: "1", at: time.Second, raw: `{"id":1,"method":"tools/list"}`},
	{name: "call", dir: "out", kind: "request", method: "tools/call", id: "2", at: 2 * time.Second, tool: "echo", raw: `{"id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"Caf\u00e9 Hello"}}}`},
	{name: "callres", dir: "in", kind: "response", method: "tools/call", id: "2", at: 2500 * time.Millisecond, tool: "echo", toolErr: true, raw: `{"id":2,"result":{"isError":true,"content":[]}}`},
	{name: "strid", dir: "out", kind: "request", method: "resources/read", id: `"abc"`, at: 3 * time.Second, raw: `{"id":"abc","method":"resources/read"}`},
	{name: "note", dir: "in", kind: "notification", method: "notifications/message", at: 4 * time.Second, problem: true, raw: `{"method":"notifications/message","params":{"data":"say \"hi\""}}`},
	{name: "err", dir: "in", kind: "error", method: "tools/call", id: "3", at: 5 * time.Second, raw: `{"id":3,"error":{"code":-32602}}`},
	{name: "stderr", dir: "stderr", kind: "stderr", at: 6 * time.Second, raw: "warning: hello from stderr\n"},
	{name: "life", dir: "lifecycle", kind: "lifecycle", at: 7 * time.Second},
	{name: "paged", dir: "in", kind: "response", method: "tools/call", id: "4", at: 8 * time.Second, paged: true, raw: `{"id":4,"result":{"content":"hello"}}`},
}

func TestFilterTable(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want string // names of the matching events, space-separated
	}{
		{"", "init initres list call callres strid note err stderr life paged"},
		{"dir:out", "init list call strid"},
		{"dir:>", "init list call strid"},
		{"dir:<", "initres callres note err paged"},
		{"dir:in|stderr", "initres callres note err stderr paged"},
		{"!dir:lifecycle !dir:stderr", "init initres list call callres strid note err paged"},
		{"kind:request", "init list call strid"},
		{"kind:notification|error", "note err"},
		{"kind:stderr", "stderr"},
		{"method:tools/*", "list call callres err paged"},
		{"method:tools/call dir:out", "call"},
		{"method:*/read", "strid"},
		{"method:tools/?ist", "list"},
		{"id:2", "call callres"},
		{"id:abc", "strid"},
		{`id:"abc"`, "strid"},
		{"tool:echo", "call callres"},
		{"tool:ec*", "call callres"},
		{"tool:nope", ""},
		{"text:hello", "call stderr"},
		{"hello", "call stderr"},
		{"HELLO", "call stderr"},
		{"café", "call"},
		{"CAFÉ", "call"},
		{`"say \"hi\""`, "note"},
		{`text:"say \"hi"`, "note"},
		{"is:problem", "note"},
		{"is:tool-error", "callres"},
		{"time:>5s", "stderr life paged"},
		{"time:>=5s", "err stderr life paged"},
		{"time:<=1s", "init initres list"},
		{"time:<1s", "init initres"},
		{"time:1s..3s", "list call callres strid"},
		{"time:7s..", "life paged"},
		{"time:..100ms", "init initres"},
		{"kind:request | kind:error", "init list call strid err"},
		{"kind:request or kind:error", "init list call strid err"},
		{"dir:out and method:tools/*", "list call"},
		{"not dir:out !dir:in", "stderr life"},
		{"!(dir:out | dir:in)", "stderr life"},
		{"(kind:request method:tools/*) | is:problem", "list call note"},
		{"method:tools/call !is:tool-error", "call err paged"},
	} {
		f, err := Parse(tc.expr)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.expr, err)
			continue
		}
		var got []string
		for _, e := range events {
			if f.Match(e) {
				got = append(got, e.name)
			}
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%q matches %q, want %q", tc.expr, g, tc.want)
		}
	}
}

func TestFilterErrors(t *testing.T) {
	for _, tc := range []struct {
		expr string
		col  int
		msg  string
	}{
		{"dir:up", 5, `dir: "up" is not in`},
		{"kind:request|reqest", 14, `"reqest" is not request`},
		{"size:3", 1, `unknown key "size"`},
		{"method:", 1, "needs a value"},
		{"method:(tools", 8, "needs a value right after the colon; a parenthesis groups whole terms"},
		{"dir:in|", 8, "empty value"},
		{"time:5", 6, "needs >, < or a range"},
		{"time:>5x", 7, "not a duration"},
		{"time:1s..zz", 10, "not a duration"},
		{"(dir:in", 1, "unclosed parenthesis"},
		{"dir:in )", 8, "unexpected"},
		{"dir:in |", 8, "needs a term after it"},
		{"| dir:in", 1, "a term is missing"},
		{`text:"abc`, 6, "unclosed quote"},
		{"!", 2, "missing at the end"},
		{"is:broken", 4, `"broken" is not problem`},
	} {
		_, err := Parse(tc.expr)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want a SyntaxError", tc.expr, err)
			continue
		}
		if se.Col != tc.col || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("Parse(%q): column %d %q, want column %d containing %q", tc.expr, se.Col, se.Msg, tc.col, tc.msg)
		}
	}
}

func TestNeedsBytes(t *testing.T) {
	for expr, want := range map[string]bool{
		"":                          false,
		"dir:in kind:request":       false,
		"hello":                     true,
		"dir:in | tool:x":           true,
		"!is:tool-error":            true,
		"is:problem time:>1s id:3":  false,
		"method:tools/* (text:a|b)": true,
	} {
		f, err := Parse(expr)
		if err != nil {
			t.Fatalf("Parse(%q): %v", expr, err)
		}
		if f.NeedsBytes() != want {
			t.Errorf("%q: NeedsBytes = %v, want %v", expr, f.NeedsBytes(), want)
		}
	}
}

func TestGlob(t *testing.T) {
	for _, tc := range []struct {
		p, s string
		want bool
	}{
		{"*", "", true},
		{"tools/*", "tools/call", true},
		{"tools/*", "tool/call", false},
		{"*call", "tools/call", true},
		{"t*s/c*l", "tools/call", true},
		{"?", "é", true},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"abc", "abcd", false},
	} {
		if got := Glob(tc.p, tc.s); got != tc.want {
			t.Errorf("Glob(%q, %q) = %v, want %v", tc.p, tc.s, got, tc.want)
		}
	}
}

func TestFind(t *testing.T) {
	for _, tc := range []struct {
		raw, needle string
		start, end  int
	}{
		{"abc", "", 0, 0},
		{"xxHeLLo", "hello", 2, 7},
		{"a Café", "CAFÉ", 2, 7},
		{"nothing", "zz", -1, -1},
		{`\u00e9`, "é", -1, -1}, // Find reads the bytes as written; Contains decodes
	} {
		s, e := Find([]byte(tc.raw), tc.needle)
		if s != tc.start || e != tc.end {
			t.Errorf("Find(%q, %q) = %d, %d, want %d, %d", tc.raw, tc.needle, s, e, tc.start, tc.end)
		}
	}
}

// ex:N picks the events of one HTTP exchange: its request and its response's events.
func TestFilterExchange(t *testing.T) {
	evs := []ev{
		{name: "req", dir: "out", kind: "http", ex: 12},
		{name: "msg", dir: "out", kind: "request"},
		{name: "other", dir: "out", kind: "http", ex: 13},
		{name: "head", dir: "in", kind: "http", ex: 12},
		{name: "frame", dir: "in", kind: "http", ex: 12},
		{name: "ohead", dir: "in", kind: "http", ex: 13},
	}
	for expr, want := range map[string]string{"ex:12": "req head frame", "ex:#13": "other ohead", "ex:12 dir:in": "head frame"} {
		f, err := Parse(expr)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		var got []string
		for _, e := range evs {
			if f.Match(e) {
				got = append(got, e.name)
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: %v, want %s", expr, got, want)
		}
	}
	var se *SyntaxError
	if _, err := Parse("ex:abc"); !errors.As(err, &se) || !strings.Contains(se.Msg, "is not an event number") {
		t.Errorf("ex:abc: %v", err)
	}
}
