package mcpclient

import (
	"encoding/json"
	"testing"
)

// progressToken reads params._meta.progressToken in place; it must agree with decoding.
func TestProgressTokenAgreesWithDecoding(t *testing.T) {
	decoded := func(params string) string {
		var p struct {
			Meta struct {
				Token json.RawMessage `json:"progressToken"`
			} `json:"_meta"`
		}
		if json.Unmarshal([]byte(params), &p) != nil || len(p.Meta.Token) == 0 {
			return ""
		}
		return idKey(p.Meta.Token)
	}
	for _, params := range []string{
		``, `{}`, `[]`, `null`, `{"_meta":null}`, `{"_meta":{}}`, `{"_meta":[1]}`,
		`{"name":"x","_meta":{"progressToken":7}}`,
		`{"_meta":{"progressToken":"a b"},"arguments":{"_meta":{"progressToken":9}}}`,
		`{"arguments":{"_meta":{"progressToken":9}}}`,
		`{"_meta":{"progressToken":1},"_meta":{"progressToken":2}}`,
		`{ "_meta" : { "x" : [ {"progressToken":3} ] , "progressToken" : 4.50 } }`,
		`{"\u005fmeta":{"progress\u0054oken":5}}`,
		`{"_meta":{"progressToken":null}}`,
	} {
		if got, want := progressToken(json.RawMessage(params)), decoded(params); got != want {
			t.Errorf("progressToken(%s) = %q, decoding gives %q", params, got, want)
		}
	}
}
