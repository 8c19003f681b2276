package wirefilter

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// frameEv reads a frame as a tap's full parse does (encoding/json here): kind, id as
// written, method, and the tool of a tools/call; a response takes method and tool given.
func frameEv(t *testing.T, dir, raw, method, tool string) ev {
	t.Helper()
	e := ev{dir: dir, raw: raw, method: method, tool: tool}
	b := bytes.TrimLeft([]byte(raw), " \t\r\n")
	if len(b) > 0 && b[0] == '[' {
		e.kind, e.method, e.tool = "batch", "", ""
		return e
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		e.kind, e.method, e.tool = "invalid", "", ""
		return e
	}
	if id, ok := m["id"]; ok && string(id) != "null" {
		e.id = string(id)
	}
	var own string
	_, hasMethod := m["method"]
	if hasMethod {
		hasMethod = json.Unmarshal(m["method"], &own) == nil
	}
	switch {
	case hasMethod:
		e.kind, e.method, e.tool = "notification", own, ""
		if e.id != "" {
			e.kind = "request"
		}
		if own == "tools/call" {
			var p struct{ Name string }
			_ = json.Unmarshal(m["params"], &p)
			e.tool = p.Name
		}
	case m["error"] != nil:
		e.kind = "error"
	case m["result"] != nil && e.id != "":
		e.kind = "response"
	default:
		e.kind, e.method, e.tool = "invalid", "", ""
	}
	return e
}

var frames = []string{
	`{"jsonrpc":"2.0","id":12,"method":"tools/list","params":{"cursor":"ccc"}}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"delete_file","arguments":{}}}`,
	`{"jsonrpc":"2.0","id":"a b","method":"tools/call","params":{"name":"echo"}}`,
	`{"jsonrpc":"2.0","id":4,"method":"tools\/call","params":{"name":"delete_all"}}`,
	`{"jsonrpc":"2.0","id":5,"\u006dethod":"tools/call","params":{"name":"del\u0065te_x"}}`,
	`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1}}`,
	`{"jsonrpc":"2.0","id":12,"result":{"tools":[]}}`,
	`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"error: no"}],"isError":true}}`,
	`{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"no"}}`,
	`{"jsonrpc":"2.0","id":7,"\u0065rror":{"code":1,"message":"x"}}`,
	`  {"jsonrpc":"2.0", "id" : 8 , "method" : "ping"}`,
	`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
	`not json at all`,
	`{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"file:///tools/call"}}`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`,
	`{"jsonrpc":"2.0","id":10,"method":"roots/list"}`,
	`{"jsonrpc":"2.0","id":11,"method":""}`,
	`{"jsonrpc":"2.0","id":20,"method":"sampling/createMessage","params":{"method":"tools/call","x":{"method":"a","method":"b"}}}`,
	`{"jsonrpc":"2.0","id":21,"params":{"method":"tools/call"},"method":"ping"}`,
	`{"jsonrpc":"2.0","id":22,"result":{"method":"tools/call","name":"delete_x"}}`,
	`{"id":23,"x":"method","method" :  "tools/call","params":{"NAME":"delete_me"}}`,
	`{"id":24,"method":7,"result":1}`,
	`{"id" : 25 , "error" : null}`,
}

var frameExprs = []string{
	"method:tools/call", "dir:in kind:error", "tool:delete_*", "method:tools/*", "method:*",
	"kind:request", "kind:notification", "kind:response|error", "kind:batch", "kind:invalid",
	"!method:tools/list", "!dir:out", "id:12", `id:"a b"`, "tool:echo kind:response",
	"method:tools/call kind:response", "text:delete", "error", "(dir:out method:ping) | (dir:in kind:error)",
	"not kind:request", "method:?ing", "tool:*", "is:problem", "time:1s..", "method:roots/list | id:3",
	"kind:lifecycle", "method:tools/list dir:in",
}

// TestSieveSound: a frame the sieve rules out is matched by no filter, in either
// direction, with no request known for a response; and when it is a request, a response to
// it is matched the same with its method and tool as with none (so it need not be
// remembered).
func TestSieveSound(t *testing.T) {
	ruled := 0
	for _, expr := range frameExprs {
		f, err := Parse(expr)
		if err != nil {
			t.Fatal(expr, err)
		}
		for _, dir := range []string{"out", "in"} {
			s := NewSieve(dir, []Filter{f})
			for _, raw := range frames {
				if !s.RulesOut([]byte(raw)) {
					continue
				}
				ruled++
				e := frameEv(t, dir, raw, "", "")
				if f.Match(e) {
					t.Errorf("%q matches %s %s, which the sieve rules out", expr, dir, raw)
				}
				if e.kind != "request" {
					continue
				}
				for _, resp := range frames {
					known := frameEv(t, opposite(dir), resp, e.method, e.tool)
					if known.kind != "response" && known.kind != "error" {
						continue
					}
					none := known
					none.method, none.tool = "", ""
					if f.Match(known) != f.Match(none) {
						t.Errorf("%q: the sieve rules out request %s, but a response to it %s is matched %v with its method, %v without",
							expr, raw, resp, f.Match(known), f.Match(none))
					}
				}
			}
		}
	}
	if ruled == 0 {
		t.Fatal("the sieve ruled nothing out: the test checked nothing")
	}
}

func opposite(dir string) string {
	if dir == "out" {
		return "in"
	}
	return "out"
}

// TestSieveRulesOut: what the sieve is for, the frames of a round trip no rule can match
// are told apart from their bytes; a filter the bytes cannot decide rules nothing out.
func TestSieveRulesOut(t *testing.T) {
	list := `{"jsonrpc":"2.0","id":12,"method":"tools/list","params":{"cursor":"ccc"}}`
	listRes := `{"jsonrpc":"2.0","id":12,"result":{"tools":[]}}`
	three := []string{"method:tools/call", "dir:in kind:error", "tool:delete_*"}
	for i, tc := range []struct {
		exprs   []string
		dir     string
		raw     string
		ruleOut bool
	}{
		{three, "out", list, true},
		{three, "in", listRes, true},
		{three, "in", list, true},
		{three, "in", `{"id":1,"error":{}}`, false},
		{three, "out", `{"id":1,"method":"tools/call","params":{"name":"echo"}}`, false},
		{three, "out", `{"id":1,"method":"tools\/list"}`, false},
		{[]string{"tool:delete_*", "method:tools/list"}, "out", `{"id":1,"method":"tools/call","params":{"name":"echo"}}`, true},
		{[]string{"tool:delete_*"}, "out", `{"id":1,"method":"tools/call","params":{"name":"delete_x"}}`, false},
		{[]string{"tool:delete_*"}, "out", `{"id":1,"method":"tools/list","params":{"name":"delete_x"}}`, true},
		{[]string{"method:tools/*"}, "out", `{"id":1,"method":"prompts/list"}`, true},
		{[]string{"method:tools/*"}, "out", `{"id":1,"method":"tools/list"}`, false},
		{[]string{"!method:tools/list"}, "out", list, false},
		{[]string{"method:*"}, "in", listRes, false},
		{[]string{"id:13"}, "out", list, true},
		{[]string{"id:12"}, "out", list, false},
		{[]string{"dir:in text:x"}, "out", list, true},
		{[]string{"dir:in text:x"}, "in", listRes, false},
		{[]string{"kind:invalid"}, "out", list, false},
		{[]string{"kind:request"}, "in", listRes, true},
		{[]string{""}, "out", list, false},
	} {
		var fs []Filter
		for _, e := range tc.exprs {
			f, err := Parse(e)
			if err != nil {
				t.Fatal(err)
			}
			fs = append(fs, f)
		}
		s := NewSieve(tc.dir, fs)
		if got := s.RulesOut([]byte(tc.raw)); got != tc.ruleOut {
			t.Errorf("%d: %q on %s %s: RulesOut %v, want %v", i, tc.exprs, tc.dir, tc.raw, got, tc.ruleOut)
		}
	}
}

// TestContainsLit: the search from the rarest byte finds what bytes.Contains finds, at the
// edges of the bytes too, for the fixed literals as for ones made from patterns.
func TestContainsLit(t *testing.T) {
	lits := []literal{{`"method"`, 4}, {`"result"`, 4}, {`"error"`, 1}, {`"tools/call"`, 6}, newLiteral("delete_"), newLiteral(`"a"`), newLiteral("x"), newLiteral(`"id"`)}
	for _, l := range lits {
		if l.k < 0 || l.k >= len(l.s) {
			t.Fatalf("literal %q: anchor %d out of range", l.s, l.k)
		}
	}
	hays := append([]string{"", `"`, `"id"`, `x"id"`, `"id"x`, `""id""`, `"method""method"`, `{"tools/call"}`, `delete_delete`, `deletedelete_`}, frames...)
	for _, h := range hays {
		for _, l := range lits {
			for cut := 0; cut <= len(h); cut++ {
				raw := []byte(h[cut:])
				if got, want := containsLit(raw, l), bytes.Contains(raw, []byte(l.s)); got != want {
					t.Errorf("containsLit(%q, %q) = %v, want %v", raw, l.s, got, want)
				}
			}
		}
	}
}

// TestSieveMinimal: a need that holds all of another's literals is dropped (its search
// could only repeat what the other's told), and the sieve rules out the same frames.
func TestSieveMinimal(t *testing.T) {
	var fs []Filter
	for _, e := range []string{"method:tools/call", "tool:delete_*", "kind:error", "method:tools/list tool:x"} {
		f, err := Parse(e)
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, f)
	}
	s := NewSieve("out", fs)
	var got []string
	for _, n := range s.needs {
		var lits []string
		for _, l := range n {
			lits = append(lits, l.s)
		}
		got = append(got, strings.Join(lits, "+"))
	}
	// tool:delete_* needs "tools/call" and delete_: "tools/call" alone is already needed.
	if want := []string{`"tools/call"`, `"error"`, `"tools/list"`}; !slices.Equal(got, want) {
		t.Errorf("needs %q, want %q", got, want)
	}
	full := Sieve{needs: append(append([][]literal{}, s.needs...), []literal{newLiteral(`"tools/call"`), newLiteral("delete_")})}
	for _, raw := range frames {
		if a, b := s.RulesOut([]byte(raw)), full.RulesOut([]byte(raw)); a != b {
			t.Errorf("%s: minimal sieve rules out %v, the full one %v", raw, a, b)
		}
	}
}
