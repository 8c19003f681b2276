package tap

import (
	"encoding/json"
	"testing"
)

// TestParamsName: the tool name read without reflection is what json.Unmarshal reads, on
// the usual params and the odd ones.
func TestParamsName(t *testing.T) {
	for _, params := range []string{
		`{"name":"echo","arguments":{}}`,
		`{"arguments":{"name":"inner"},"name":"outer"}`,
		`{"Name":"upper"}`, `{"NAME":"x","name":"last"}`, `{"name":"first","NaMe":"last"}`,
		`{"name":"a\"b\u00e9"}`, `{"na\u006de":"escaped key"}`, "{\"name\":\"bad\xffutf8\"}",
		`{"name":null}`, `{"name":"kept","name":null}`, `{"name":"kept","name":5}`, `{"name":5}`,
		`{"name":"x"`, `{"name":"x",}`, `["name","x"]`, `"name"`, `null`, `{}`, ` { "name" : "spaced" } `,
	} {
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal([]byte(params), &p)
		if got := paramsName([]byte(params)); got != p.Name {
			t.Errorf("paramsName(%s) = %q, json.Unmarshal reads %q", params, got, p.Name)
		}
	}
}
