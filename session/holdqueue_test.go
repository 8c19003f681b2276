package session

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The queue keeps holds in arrival order; an end takes its hold out wherever it is; a set
// replaces the breakpoints in force.
func TestHoldQueueOrderAndEnds(t *testing.T) {
	var q HoldQueue
	for _, id := range []int64{1, 2, 3} {
		if q.Apply(HoldUpdate{Held: &Hold{ID: id}}) != nil {
			t.Fatalf("a new hold reported an end")
		}
	}
	if got := q.Apply(HoldUpdate{Ended: &HoldEnd{ID: 2, How: "timeout"}}); got == nil || got.ID != 2 {
		t.Fatalf("ended %v, want hold 2", got)
	}
	if q.Apply(HoldUpdate{Ended: &HoldEnd{ID: 9}}) != nil {
		t.Errorf("an unknown hold's end reported a hold")
	}
	if len(q.Holds) != 2 || q.Holds[0].ID != 1 || q.Holds[1].ID != 3 {
		t.Errorf("queue %+v, want 1 then 3", q.Holds)
	}
	if q.Find(3) == nil || q.Find(2) != nil {
		t.Errorf("Find: 3 queued, 2 ended")
	}
	q.Apply(HoldUpdate{Set: &BreakpointSet{Filters: []string{"dir:in"}}})
	if q.Set == nil || len(q.Set.Filters) != 1 || q.Set.Filters[0] != "dir:in" {
		t.Errorf("set %+v", q.Set)
	}
}

func TestCheckHeldMessage(t *testing.T) {
	for _, c := range []struct {
		text string
		kind mcpclient.Kind
		err  string
	}{
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{}}`, mcpclient.KindRequest, ""},
		{"{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"notifications/initialized\"\n}", mcpclient.KindNotification, ""},
		{`{"jsonrpc":"2.0","id":"a","result":{}}`, mcpclient.KindResponse, ""},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"no"}}`, mcpclient.KindErrorResponse, ""},
		{"{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {\n}", 0, "line 5"},
		{`[1]`, 0, "not a JSON object"},
		{``, 0, "empty"},
		{`{"jsonrpc":"1.0","id":1,"method":"x"}`, mcpclient.KindRequest, `"jsonrpc" must be exactly "2.0"`},
		{`{"jsonrpc":"2.0","id":1}`, mcpclient.KindNotJSONRPC, "without method"},
		{`{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}`, mcpclient.KindErrorResponse, "both result and error"},
		{`{"jsonrpc":"2.0","id":{},"method":"x"}`, mcpclient.KindRequest, "id must be a string or an integer"},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}`, mcpclient.KindErrorResponse, "integer code"},
		{`{"jsonrpc":"2.0","id":1,"method":"x","params":3}`, mcpclient.KindRequest, "params must be an object or an array"},
		{`{"jsonrpc":"2.0","method":"x","params":[1]}`, mcpclient.KindNotification, ""},
	} {
		kind, err := CheckHeldMessage([]byte(c.text))
		if c.err == "" {
			if err != nil || kind != c.kind {
				t.Errorf("%s: %v %v, want %v", c.text, kind, err, c.kind)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one saying %q", c.text, err, c.err)
		}
	}
}

func TestAnswerTemplate(t *testing.T) {
	for _, isErr := range []bool{true, false} {
		text, ok := AnswerTemplate([]byte(`{"jsonrpc":"2.0","id":"q-7","method":"tools/call"}`), isErr)
		if !ok {
			t.Fatal("no template for a request")
		}
		var v struct {
			ID     json.RawMessage  `json:"id"`
			Result *json.RawMessage `json:"result"`
			Error  *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			t.Fatal(err)
		}
		if string(v.ID) != `"q-7"` || (v.Error != nil) != isErr || (v.Result != nil) == isErr {
			t.Errorf("template %s (error %v)", text, isErr)
		}
		if _, err := CheckHeldMessage([]byte(text)); err != nil {
			t.Errorf("the template does not check: %v", err)
		}
	}
	if _, ok := AnswerTemplate([]byte(`{"jsonrpc":"2.0","method":"n"}`), true); ok {
		t.Error("a notification got an answer template")
	}
}
