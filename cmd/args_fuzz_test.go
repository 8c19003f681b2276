package cmd

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzArgConverter: -a KEY=VALUE (and KEY:=JSON) against any inputSchema never panics and,
// when it succeeds, gives a JSON object; a string property gets the value exactly as typed
// (invalid UTF-8 becomes U+FFFD, as JSON requires).
func FuzzArgConverter(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"n":{"type":"integer"},"s":{"type":"string"}}}`), "n", "42", "x y")
	f.Add([]byte(`{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"boolean"}}}}}`), "o.a", "true", "")
	f.Add([]byte(`{"type":"object","properties":{"u":{"type":["string","number","null"]}}}`), "u:", `{"k":[1]}`, "007")
	f.Add([]byte(`not a schema`), "x", "1e999", "\xff")
	f.Fuzz(func(t *testing.T, schema []byte, key, value, str string) {
		a := argFlags{pairs: []string{key + "=" + value}}
		pairs, err := a.parsePairs()
		if err != nil {
			return
		}
		args, _, err := toolArguments(nil, pairs, schema)
		if err == nil {
			var obj map[string]json.RawMessage
			if json.Unmarshal(args, &obj) != nil {
				t.Fatalf("not a JSON object: %s (schema %s, -a %s=%s)", args, schema, key, value)
			}
		}
		// A string property: the value as typed, whatever it looks like.
		withS := []byte(`{"type":"object","properties":{"s":{"type":"string"}}}`)
		a = argFlags{pairs: []string{"s=" + str}}
		pairs, err = a.parsePairs()
		if err != nil {
			t.Fatal(err)
		}
		args, _, err = toolArguments(nil, pairs, withS)
		if err != nil {
			t.Fatalf("-a s=%q: %v", str, err)
		}
		var got struct{ S *string }
		if err := json.Unmarshal(args, &got); err != nil || got.S == nil || (*got.S != str && utf8.ValidString(str)) {
			t.Fatalf("-a s=%q gave %s", str, args)
		}
	})
}
