package cmd

import (
	"encoding/json"
	"testing"
)

// TestToolResultShapeMatchesDecoding holds bench's in-place check of a tools/call result to
// what decoding it gives: the same isError, and an error exactly when decoding fails.
func TestToolResultShapeMatchesDecoding(t *testing.T) {
	for _, r := range []string{
		`null`, `{}`, `{"content":[]}`, `{"content":[{"type":"text","text":"x"}],"isError":true}`,
		`{"content":null,"isError":null}`, `{"isError":false}`, `{"isError":true,"isError":false}`,
		`{"isError":true,"isError":null}`, `{"content":{}}`, `{"content":"x"}`, `{"isError":"yes"}`,
		`{"isError":1}`, `{"IsError":true}`, `{"CONTENT":3}`, `{"content":[1],"structuredContent":{"isError":"no"}}`,
		`[]`, `"x"`, `3`, `{"a":{"content":1}}`, `{"isErro\u0072":true}`,
	} {
		var res struct {
			Content []json.RawMessage `json:"content"`
			IsError bool              `json:"isError"`
		}
		werr := json.Unmarshal([]byte(r), &res)
		got, err := toolResultShape(json.RawMessage(r))
		if (err != nil) != (werr != nil) || (werr == nil && got != res.IsError) {
			t.Errorf("%s: got isError %v, error %v; decoding gives %v, %v", r, got, err, res.IsError, werr)
		}
	}
}
