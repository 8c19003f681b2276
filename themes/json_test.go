package themes

import (
	"strings"
	"testing"
)

// The JSON token styles follow the rest: no escapes at all in Plain, attributes only in
// NoColor, and a distinct color per token in the default palette.
func TestJSONStyles(t *testing.T) {
	plain := Build(Plain())
	for _, st := range []string{plain.JSONKey.Render("k"), plain.JSONString.Render("s"), plain.JSONNumber.Render("1"), plain.JSONBool.Render("true"), plain.JSONNull.Render("null"), plain.JSONPunct.Render("{")} {
		if strings.ContainsRune(st, 0x1b) {
			t.Fatalf("plain JSON style emitted an escape: %q", st)
		}
	}
	nc := Build(NoColor())
	if !nc.JSONKey.GetBold() || !nc.JSONNull.GetFaint() {
		t.Fatal("without colors keys are not bold or null not faint")
	}
	if s := nc.JSONString.Render("s"); strings.ContainsRune(s, 0x1b) {
		t.Fatalf("NoColor string has a color: %q", s)
	}
	d := Build(ANSI16())
	seen := map[string]string{}
	for name, st := range map[string]string{"key": d.JSONKey.Render("x"), "string": d.JSONString.Render("x"), "number": d.JSONNumber.Render("x"), "bool": d.JSONBool.Render("x"), "null": d.JSONNull.Render("x")} {
		if !strings.ContainsRune(st, 0x1b) {
			t.Fatalf("default %s style has no color", name)
		}
		if other, dup := seen[st]; dup {
			t.Fatalf("default %s and %s look the same", name, other)
		}
		seen[st] = name
	}
}
