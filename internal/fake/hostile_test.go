package fake

import (
	"encoding/json"
	"strings"
	"testing"
)

// hostile: every string the server sends carries the hostile text, decoded from JSON as the
// raw characters; FAKE_HOSTILE_VARIANT changes the call's structured value.
func TestHostileEveryString(t *testing.T) {
	t.Parallel()
	const h = "\x1b]0;PWNED\x07\x1b]52;c;aGk=\x07\x1b[2J\u009b31m\u009c\u009d0;t\u009c\u202eevil\u202c\u200bzw\u200djoin\ufeffbom\U000E0041tag"
	for _, variant := range []string{"", "1"} {
		p := scenario(t, "hostile", "FAKE_HOSTILE_VARIANT="+variant)
		p.waitStderr("stderr " + h + "\n")
		var strs []string
		collect := func(line string) {
			var v any
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatalf("not JSON: %v: %q", err, line)
			}
			var walk func(any)
			walk = func(v any) {
				switch x := v.(type) {
				case string:
					strs = append(strs, x)
				case map[string]any:
					for k, e := range x {
						strs = append(strs, k)
						walk(e)
					}
				case []any:
					for _, e := range x {
						walk(e)
					}
				}
			}
			walk(v)
		}
		p.send(initReq)
		collect(p.line())
		p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		for i, m := range []string{"tools/list", "resources/list", "resources/templates/list", "prompts/list"} {
			p.send(`{"jsonrpc":"2.0","id":` + string(rune('2'+i)) + `,"method":"` + m + `"}`)
			collect(p.line())
		}
		p.send(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":` + string(must(json.Marshal("tool"+h))) + `}}`)
		for range 3 { // notifications/x…, the log message, the result
			collect(p.line())
		}
		want := "value" + h
		if variant != "" {
			want = "other" + h
		}
		hostile := 0
		found := false
		for _, s := range strs {
			if strings.HasSuffix(s, h) {
				hostile++
			}
			found = found || s == want
		}
		if hostile < 20 || !found {
			t.Errorf("variant %q: %d hostile strings, %q found: %v; strings %q", variant, hostile, want, found, strs)
		}
		p.waitStderr("call " + h + "\n")
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
