package trace_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/trace"
)

func paths(t *testing.T, exprs ...string) []*trace.JSONPath {
	t.Helper()
	var out []*trace.JSONPath
	for _, e := range exprs {
		p, err := trace.ParseJSONPath(e)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func diffPaths(ds []trace.Difference) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Path)
	}
	return out
}

func TestCompare(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		a, b     string
		ignore   []string
		want     []string
		wantSame bool
	}{
		{name: "order and number spelling", a: `{"x":1,"y":[1,2.0,{"z":true}]}`, b: `{"y":[1.0,2,{"z":true}],"x":1e0}`, wantSame: true},
		{name: "changed leaf", a: `{"result":{"content":[{"type":"text","text":"a"}]}}`, b: `{"result":{"content":[{"type":"text","text":"b"}]}}`, want: []string{"$.result.content[0].text"}},
		{name: "missing and added members", a: `{"result":{"a":1,"b":2}}`, b: `{"result":{"b":2,"c":3}}`, want: []string{"$.result.a", "$.result.c"}},
		{name: "array length", a: `{"r":[1,2,3]}`, b: `{"r":[1,2]}`, want: []string{"$.r[2]"}},
		{name: "type change", a: `{"r":{"x":1}}`, b: `{"r":[1]}`, want: []string{"$.r"}},
		{name: "json in text compared as json", a: `{"t":"{\"a\":1,\"b\":[1,2]}"}`, b: `{"t":"{ \"b\": [1, 2], \"a\": 1 }"}`, wantSame: true},
		{name: "json in text differs inside", a: `{"t":"{\"a\":1,\"when\":\"mon\"}"}`, b: `{"t":"{\"a\":2,\"when\":\"tue\"}"}`, ignore: []string{"$.t.when"}, want: []string{"$.t.a"}},
		{name: "ignore by path and wildcard", a: `{"result":{"serverInfo":{"version":"1"},"items":[{"id":1,"ts":5},{"id":2,"ts":6}]}}`, b: `{"result":{"serverInfo":{"version":"2"},"items":[{"id":1,"ts":7},{"id":2,"ts":8}]}}`,
			ignore: []string{"$.result.serverInfo.version", "$.result.items[*].ts"}, wantSame: true},
		{name: "recursive descent", a: `{"a":{"b":{"_meta":{"progressToken":1}},"c":[{"_meta":{"progressToken":2}}]}}`, b: `{"a":{"b":{"_meta":{"progressToken":9}},"c":[{"_meta":{"progressToken":8}}]}}`,
			ignore: []string{"$.._meta.progressToken"}, wantSame: true},
		{name: "odd keys", a: `{"a.b":{"x y":1}}`, b: `{"a.b":{"x y":2}}`, want: []string{"$['a.b']['x y']"}},
		{name: "ignore with bracket syntax and bare path", a: `{"a.b":1,"r":{"v":1}}`, b: `{"a.b":2,"r":{"v":2}}`, ignore: []string{"$['a.b']", "r.v"}, wantSame: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := trace.Compare(json.RawMessage(tc.a), json.RawMessage(tc.b), paths(t, tc.ignore...))
			if tc.wantSame {
				if len(got) != 0 {
					t.Errorf("differences %v", got)
				}
				return
			}
			if !reflect.DeepEqual(diffPaths(got), tc.want) {
				t.Errorf("paths %v, want %v (%+v)", diffPaths(got), tc.want, got)
			}
		})
	}
	d := trace.Compare(json.RawMessage(`{"a":"x"}`), json.RawMessage(`{}`), nil)
	if len(d) != 1 || string(d[0].Recorded) != `"x"` || d[0].Got != nil {
		t.Errorf("absent member: %+v", d)
	}
}

func TestParseJSONPath(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"$.", "$[", "$[x]", "$..", "$.a[-1]", "$a"} {
		if _, err := trace.ParseJSONPath(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	p, err := trace.ParseJSONPath("tools/call:$.result.content[0].text")
	if err != nil || p.Method != "tools/call" {
		t.Fatalf("method prefix: %v %+v", err, p)
	}
	if !p.Matches(trace.Path{{Key: "result"}, {Key: "content"}, {Index: 0, IsIndex: true}, {Key: "text"}, {Key: "deeper"}}) {
		t.Error("a path does not match below itself")
	}
	if p.Matches(trace.Path{{Key: "result"}, {Key: "content"}, {Index: 1, IsIndex: true}, {Key: "text"}}) {
		t.Error("[0] matched [1]")
	}
}
