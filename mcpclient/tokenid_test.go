package mcpclient

import (
	"encoding/json"
	"testing"
)

// TestTokenIsID: where tokenIsID says params._meta.progressToken is the id, scanning
// params finds that token; and it says so for the frames the client writes.
func TestTokenIsID(t *testing.T) {
	cases := []struct {
		params, id string
		want       bool
	}{
		{`{"_meta":{"progressToken":5}}`, `5`, true},
		{`{"name":"echo","arguments":{"text":"x"},"_meta":{"progressToken":12}}`, `12`, true},
		{`{"a":1,"_meta":{"progressToken":"_meta"}}`, `"_meta"`, true},
		{`{"a":1,"_meta":{"progressToken":12}}`, `2`, false},
		{`{"a":1,"_meta":{"progressToken":12}}`, `13`, false},
		{`{"abc\"_meta":{"progressToken":5}}`, `5`, false},        // the key is abc"_meta
		{`{"x":{"_meta":{"progressToken":5}}}`, `5`, false},       // nested
		{`{"x":{"y":1,"_meta":{"progressToken":5}}}`, `5`, false}, // nested, after a member
		{`{"_meta":{"progressToken":7},"_meta":{"progressToken":5}}`, `5`, false},
		{`{"_met\u0061":{"progressToken":7},"_meta":{"progressToken":5}}`, `5`, false},
		{`{"_meta":{"a":1,"progressToken":5}}`, `5`, false},
		{`{"_meta": {"progressToken":5}}`, `5`, false},
		{`{"_meta":{"progressToken":5}}`, ``, false},
		{`{}`, `5`, false},
		{`}}`, `5`, false},
	}
	for _, tc := range cases {
		got := tokenIsID(json.RawMessage(tc.params), json.RawMessage(tc.id))
		if got != tc.want {
			t.Errorf("tokenIsID(%s, %s) = %v, want %v", tc.params, tc.id, got, tc.want)
		}
		if got && json.Valid([]byte(tc.params)) {
			if tok, ok := progressTokenRaw(json.RawMessage(tc.params)); !ok || string(tok) != tc.id {
				t.Errorf("tokenIsID(%s, %s): the scan finds %s", tc.params, tc.id, tok)
			}
		}
	}
	for _, params := range []any{nil, json.RawMessage(`{}`), json.RawMessage(`{"name":"echo","arguments":{"text":"x"}}`)} {
		rf, ok := appendRequestFrame(42, "tools/call", params, true, false)
		if !ok || !tokenIsID(rf.params, rf.id) {
			t.Errorf("params %s: the client's own frame %q is not recognized", params, rf.frame)
		}
	}
}
