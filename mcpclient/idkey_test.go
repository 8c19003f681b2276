package mcpclient

import (
	"bytes"
	"encoding/json"
	"testing"
)

// idKey's shortcut for scalar ids gives what compacting gives (or trimming, for invalid
// JSON), for every kind of id text a server may send.
func TestIDKeyShortcutMatchesCompact(t *testing.T) {
	slow := func(raw []byte) string {
		var b bytes.Buffer
		if json.Compact(&b, raw) != nil {
			return string(bytes.TrimSpace(raw))
		}
		return b.String()
	}
	for _, in := range []string{
		`1`, `-7`, `0.5e3`, `"a"`, `"a b"`, `"a\"b"`, `"é\u2028"`, `1 `, ` 1`, "1\n", `"x" `,
		`{"a": 1}`, `[1, 2]`, `null`, `true`, `1 2`, `"a" "b"`, `"unterminated`, `-`, `01`, `""`,
		`"a",  1`, "\"tab\tinside\"", `123456789012345678901234567890`,
		"1\v", "\"a\"\u00a0", "1\u3000", "-1\f", "\"a\"\u2028", "\"a\"\x85",
	} {
		if got, want := idKey(json.RawMessage(in)), slow([]byte(in)); got != want {
			t.Errorf("idKey(%q) = %q, compacting gives %q", in, got, want)
		}
	}
}
