package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// pyDumps is Python's json.dumps(s) with its default ensure_ascii=True: every non-ASCII
// character as \uXXXX (lower-case hex, a surrogate pair above U+FFFF), '"' and '\' escaped
// with a backslash, control characters as short escapes where JSON has them.
func pyDumps(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r > 0xffff:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		case r < 0x20 || r > 0x7e:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// toolResult is a tools/call response frame whose text content is text.
func toolResult(text string) []byte {
	frame, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "result": map[string]any{
		"content": []any{map[string]any{"type": "text", "text": text}}}})
	return append(frame, '\n')
}

// unwrapText returns the text of toolResult's frame, and then, depth-1 times, the one string
// member of the JSON text that text holds ({"password": "..."}). It fails the test when a
// level is no longer JSON.
func unwrapText(t *testing.T, frame []byte, depth int) string {
	t.Helper()
	var msg struct {
		Result struct {
			Content []struct{ Text string }
		}
	}
	if err := json.Unmarshal(frame, &msg); err != nil || len(msg.Result.Content) != 1 {
		t.Fatalf("the frame is no longer JSON (%v): %s", err, frame)
	}
	text := msg.Result.Content[0].Text
	for range depth - 1 {
		var inner map[string]string
		if err := json.Unmarshal([]byte(text), &inner); err != nil || len(inner) != 1 {
			t.Fatalf("the JSON inside is no longer JSON (%v): %s", err, text)
		}
		for _, v := range inner {
			text = v
		}
	}
	return text
}

// Issue 26: a tool result whose text is JSON written by Python's json.dumps carries the
// secret one escape level deeper (\\u00f6, \\\"), or two when that JSON is itself wrapped.
// Each level stays JSON after masking and no level holds the secret.
func TestRedactJSONInJSON(t *testing.T) {
	const secret = `pässwörd"𝄞\x`
	r, err := NewRedactor(RedactConfig{Env: []string{"DB_PASS=" + secret}})
	if err != nil {
		t.Fatal(err)
	}
	for depth := 2; depth <= 3; depth++ {
		text := "{\"password\": " + pyDumps(secret) + "}" // json.dumps({"password": secret})
		for range depth - 2 {
			text = "{\"config\": " + pyDumps(text) + "}"
		}
		frame := toolResult(text)
		if depth == 2 && !bytes.Contains(frame, []byte(`p\\u00e4ssw\\u00f6rd\\\"\\ud834\\udd1e\\\\x`)) {
			t.Fatalf("not the issue's form: %s", frame)
		}
		out, hits := r.Bytes(frame)
		if !slices.Equal(hits, []string{"DB_PASS"}) {
			t.Errorf("depth %d: hits %v\n%s", depth, hits, out)
		}
		if got := unwrapText(t, out, depth); got != Mask {
			t.Errorf("depth %d: the secret's string reads %q, want %q\n%s", depth, got, Mask, out)
		}
	}
	// The JSON around it is not the secret: it stays.
	clean := toolResult("{\"password\": " + pyDumps(`pässwörd"𝄞\y`) + "}")
	if out, hits := r.Bytes(clean); hits != nil || !bytes.Equal(out, clean) {
		t.Errorf("changed %s into %s (%v)", clean, out, hits)
	}
}

// A match one level up may start inside an escape a level down (\\u00e4 read as a backslash
// and "u00e4..."): the mask then covers the whole escape, so the JSON inside stays JSON.
func TestRedactNoCutEscapeDeeper(t *testing.T) {
	r, err := NewRedactor(RedactConfig{Env: []string{"S=u00e4-key-1"}})
	if err != nil {
		t.Fatal(err)
	}
	frame := toolResult(`{"a": "x\u00e4-key-1 y"}`) // the text holds "\u00e4-key-1" verbatim
	out, _ := r.Bytes(frame)
	if got := unwrapText(t, out, 2); got != "x*** y" {
		t.Errorf("got %q from %s", got, out)
	}
}

// The secret's bytes are masked even where they start inside an escape (found by
// FuzzRedactorEncodings: "0\u0000" + "00" held the secret "000000"): the mask covers the
// escape whole, so the JSON stays JSON.
func TestRedactInsideEscape(t *testing.T) {
	for _, tc := range []struct{ secret, in, want string }{
		{"u00e4-key", `{"t":"a \u00e4-key b"}`, `{"t":"a *** b"}`},
		{"000000", `{"t":"0\u000000 z"}`, `{"t":"0*** z"}`},
		{"nabcdef", `{"t":"x\nabcdef"}`, `{"t":"x***"}`},
	} {
		r, err := NewRedactor(RedactConfig{Env: []string{"S=" + tc.secret}})
		if err != nil {
			t.Fatal(err)
		}
		if out, _ := r.Bytes([]byte(tc.in)); string(out) != tc.want {
			t.Errorf("%s: got %s, want %s", tc.in, out, tc.want)
		}
	}
}
