package trace

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// escapeByteWise is the byte-at-a-time escaper appendJSONString's fast path must agree with.
func escapeByteWise(s []byte) []byte {
	const hex = "0123456789abcdef"
	b := []byte{'"'}
	for _, r := range string(s) {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// TestAppendJSONString: every byte value at every position of a word, and random mixes of
// ASCII, escapes and multi-byte runes, encode as the byte-wise escaper does and decode back
// to the input.
func TestAppendJSONString(t *testing.T) {
	var inputs [][]byte
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 9; pos++ {
			in := []byte("abcdefghijklmnop")
			in[pos] = byte(c)
			if utf8.Valid(in) {
				inputs = append(inputs, in)
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "hello world ", `"`, `\`, "\n", "\r\n", "\t", "\x00", "\x1f", "\x7f", "é", "日本", "\u2028", "\u2029", "😀", "~", " "}
	for range 2000 {
		var in []byte
		for range r.IntN(60) {
			in = append(in, pieces[r.IntN(len(pieces))]...)
		}
		inputs = append(inputs, in)
	}
	for _, in := range inputs {
		got := appendJSONString([]byte("prefix"), in)
		if string(got[:6]) != "prefix" {
			t.Fatalf("%q: prefix lost", in)
		}
		got = got[6:]
		if want := escapeByteWise(in); string(got) != string(want) {
			t.Fatalf("%q: encoded %s, want %s", in, got, want)
		}
		var back string
		if err := json.Unmarshal(got, &back); err != nil || back != string(in) {
			t.Fatalf("%q: encoded %s decodes to %q (%v)", in, got, back, err)
		}
	}
}
