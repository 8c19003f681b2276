package mcpclient

import (
	"bytes"
	"encoding/json"
	"testing"
)

// checkEnvelope compares scanEnvelope with encoding/json on a valid JSON object: the same
// six members, byte for byte.
func checkEnvelope(t *testing.T, b []byte) {
	t.Helper()
	trimmed := bytes.TrimSpace(b)
	if !json.Valid(trimmed) || len(trimmed) == 0 || trimmed[0] != '{' {
		return
	}
	var want map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &want); err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	env, ok := scanEnvelope(trimmed)
	if !ok {
		t.Fatalf("scanEnvelope failed on valid %q", trimmed)
	}
	for name, got := range map[string]json.RawMessage{
		"jsonrpc": env.jsonrpc, "id": env.id, "method": env.method,
		"params": env.params, "result": env.result, "error": env.err,
	} {
		w, has := want[name]
		if has != (got != nil) || !bytes.Equal(w, got) {
			t.Fatalf("%s: scanEnvelope %q, encoding/json %q (present %v) in %q", name, got, w, has, trimmed)
		}
	}
}

func TestScanEnvelopeAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`{}`,
		` { "jsonrpc" : "2.0" , "id" : 1 , "result" : { "a" : [ 1 , "}" , "\"]" ] } } `,
		`{"\u0069d":7,"method":"x","params":{"s":"a\\"}}`,
		`{"id":1,"id":"again","result":null}`,
		`{"result":"\\\\\"","error":{"code":-1,"message":"m"},"jsonrpc":2}`,
		`{"params":[[[{"x":"]]]"}]]],"method":"deep","id":-0.5e3}`,
		`{"ID":1,"Method":"case matters"}`,
		"{\"text\":\"\xff\xfe\",\"id\":true}",
	} {
		checkEnvelope(t, []byte(s))
	}
}

func FuzzScanEnvelope(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x\"y"}]}}`))
	f.Add([]byte(`{"\u0069d":1,"id":2}`))
	f.Add([]byte(`{"method":"a","params":[{},[],"\\",1e9,true,null]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkEnvelope(t, b)
	})
}
