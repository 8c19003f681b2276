package mcpclient

import (
	"encoding/json"
	"testing"
)

// TestRequestFrameMatchesMarshal holds the fast request encoding to the general one
// (json.Marshal of the envelope over buildParams): the same bytes whenever it applies, and
// the general path whenever they could differ.
func TestRequestFrameMatchesMarshal(t *testing.T) {
	params := []any{
		nil,
		json.RawMessage(nil),
		json.RawMessage(`null`),
		json.RawMessage(`{}`),
		json.RawMessage(`{"name":"echo","arguments":{"text":"x"}}`),
		json.RawMessage(`{"name":"echo","arguments":{"text":"a<b>&c"}}`),
		json.RawMessage(`{"name":"echo", "arguments":{}}`),
		json.RawMessage(" {\"a\":1}\n"),
		json.RawMessage(`{"a":"\u2028é"}`),
		json.RawMessage("{\"a\":\"\u2028\"}"),
		json.RawMessage(`{"_meta":{"x":1},"a":2}`),
		json.RawMessage(`{"\u005fmeta":{"x":1}}`),
		json.RawMessage(`{"a":[1,2,{"b":null}],"c":"\"q\""}`),
		json.RawMessage(`[1,2]`),
		json.RawMessage(`"s"`),
		json.RawMessage(`{"a":}`),
		json.RawMessage(`{"a":1`),
		map[string]any{"a": 1},
	}
	methods := []string{"tools/call", "initialize", "a\"b", "x<y", "é", ""}
	c := &Client{era: EraLegacy}
	fast := 0
	for _, m := range methods {
		for _, p := range params {
			for _, token := range []bool{true, false} {
				want, wantID, wantParams, err := c.encodeRequestLocked(7, m, p, token)
				rf, ok := appendRequestFrame(7, m, p, token, false)
				if !ok {
					continue
				}
				fast++
				if err != nil {
					t.Errorf("method %q params %s token %v: the fast path built %s where json.Marshal fails: %v", m, p, token, rf.frame, err)
					continue
				}
				if string(rf.frame) != string(want)+"\n" || string(rf.id) != string(wantID) || string(rf.params) != string(wantParams) {
					t.Errorf("method %q params %s token %v:\n fast %s (id %s params %s)\n want %s (id %s params %s)", m, p, token, rf.frame, rf.id, rf.params, want, wantID, wantParams)
				}
			}
		}
	}
	if fast < 20 {
		t.Errorf("the fast path applied %d times only", fast)
	}
}

// With RequestOptions.ParamsMarshaled the fast path skips its checks of params; for what
// json.Marshal returns it still writes the general path's bytes, and it now also takes
// params the checks send to the general path (a space inside a string).
func TestRequestFrameMarshaledMatchesMarshal(t *testing.T) {
	values := []any{
		map[string]any{},
		map[string]any{"name": "echo", "arguments": map[string]any{"text": "x"}},
		map[string]any{"name": "echo", "arguments": map[string]any{"text": "a b\tc\n"}},
		map[string]any{"name": "echo", "arguments": map[string]any{"text": "a<b>&c \u2028\u2029 é \"q\""}},
		map[string]any{"a": []any{1, 2.5, nil, true, map[string]any{"b": "c d"}}},
		map[string]any{"_meta": map[string]any{"x": 1}, "a": 2},
		struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments,omitempty"`
		}{"echo", json.RawMessage(`{ "text" : "x y", "n": [1, 2] }`)},
	}
	c := &Client{era: EraLegacy}
	spaced := false
	for _, v := range values {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		for _, token := range []bool{true, false} {
			want, wantID, wantParams, err := c.encodeRequestLocked(7, "tools/call", json.RawMessage(raw), token)
			if err != nil {
				t.Fatal(err)
			}
			rf, ok := appendRequestFrame(7, "tools/call", json.RawMessage(raw), token, true)
			if !ok {
				continue
			}
			if _, checked := appendRequestFrame(7, "tools/call", json.RawMessage(raw), token, false); !checked {
				spaced = true
			}
			if string(rf.frame) != string(want)+"\n" || string(rf.id) != string(wantID) || string(rf.params) != string(wantParams) {
				t.Errorf("params %s token %v:\n fast %s (id %s params %s)\n want %s (id %s params %s)", raw, token, rf.frame, rf.id, rf.params, want, wantID, wantParams)
			}
		}
	}
	if !spaced {
		t.Error("ParamsMarshaled took the fast path only where the checks do too")
	}
}

// TestValidIDMatchesDecoding holds validID's integer shortcut to decoding the id.
func TestValidIDMatchesDecoding(t *testing.T) {
	for _, id := range []string{"0", "-0", "7", "-12", "01", "123456789012345678", "1234567890123456789",
		"9223372036854775807", "9223372036854775808", "1.0", "1e3", "-", `"a"`, `"\u00"`, "null", "true", " 5 "} {
		var n json.Number
		want := json.Unmarshal([]byte(id), &n) == nil
		if want && id[0] != '"' {
			_, err := n.Int64()
			want = err == nil
		}
		if id[0] == '"' {
			var s string
			want = json.Unmarshal([]byte(id), &s) == nil
		}
		if got := validID(json.RawMessage(id)); got != want {
			t.Errorf("validID(%s) = %v, decoding says %v", id, got, want)
		}
	}
}
