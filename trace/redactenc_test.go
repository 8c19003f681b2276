package trace

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// encodeJSONString writes s as the body of a JSON string, each character in the form picked
// by the next byte of choice (cycled): raw when JSON allows it, \uXXXX in lower or upper
// case hex (a surrogate pair above U+FFFF), or its short escape ("\/" for "/").
func encodeJSONString(s string, choice []byte) string {
	var b strings.Builder
	for i, r := range []rune(s) {
		c := byte(0)
		if len(choice) > 0 {
			c = choice[i%len(choice)] % 4
		}
		u := func(format string) {
			if r > 0xffff {
				r -= 0x10000
				fmt.Fprintf(&b, format+format, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
				return
			}
			fmt.Fprintf(&b, format, r)
		}
		mustEscape := r < 0x20 || r == '"' || r == '\\'
		switch {
		case c == 1:
			u(`\u%04x`)
		case c == 2:
			u(`\u%04X`)
		case c == 3 && shortEscape(r) != 0:
			b.WriteByte('\\')
			b.WriteByte(shortEscape(r))
		case mustEscape:
			u(`\u%04x`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// leaks reports how secret survives in out: raw, in a decoded JSON string, or as base64.
func leaks(out []byte, secret string) string {
	if bytes.Contains(out, []byte(secret)) {
		return "raw"
	}
	var doc map[string]string
	if err := json.Unmarshal(out, &doc); err != nil {
		return "the document is no longer JSON: " + err.Error()
	}
	for k, v := range doc {
		if strings.Contains(v, secret) {
			return "in the decoded string " + k
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding} {
		if e := enc.EncodeToString([]byte(secret)); bytes.Contains(out, []byte(e)) {
			return "as base64 " + e
		}
	}
	return ""
}

// The case: Python's json.dumps writes "pässwörd" as p\u00e4ssw\u00f6rd; a
// secret given with -e is scrubbed in that form, in a mix of forms, with "\/", and as base64.
func TestRedactEveryJSONEncoding(t *testing.T) {
	const secret = "pässwörd/Ω𝄞x"
	r, err := NewRedactor(RedactConfig{Env: []string{"DB_PASS=" + secret}})
	if err != nil {
		t.Fatal(err)
	}
	forms := []string{
		encodeJSONString(secret, []byte{0}),    // raw (JSON allows it)
		encodeJSONString(secret, []byte{1}),    // all \u, lower case
		encodeJSONString(secret, []byte{2}),    // all \u, upper case
		encodeJSONString(secret, []byte{0, 1}), // mixed
		encodeJSONString(secret, []byte{3, 2, 0}),
		`p\u00e4ssw\u00f6rd\/\u03a9\ud834\udd1ex`,
	}
	b64 := base64.StdEncoding.EncodeToString([]byte(secret))
	for i, f := range forms {
		doc := fmt.Sprintf(`{"text":"before %s after","b64":"%s","blob":"%s"}`, f, b64,
			base64.URLEncoding.EncodeToString([]byte("xy"+secret+"z")))
		out, hits := r.Bytes([]byte(doc))
		if what := leaks(out, secret); what != "" {
			t.Errorf("form %d %q: the secret survives %s\n%s", i, f, what, out)
		}
		if len(hits) == 0 || !bytes.Contains(out, []byte("before *** after")) {
			t.Errorf("form %d: not masked in place: %s (hits %v)", i, out, hits)
		}
	}
	// Text that is not the secret stays.
	plain := []byte(`{"text":"p\u00e4ssw\u00f6rt, \/ and Zm9vYmFy"}`)
	if out, hits := r.Bytes(plain); hits != nil || !bytes.Equal(out, plain) {
		t.Errorf("changed %s into %s (%v)", plain, out, hits)
	}
}

// Headers given for a remote server are scrubbed in the escaped forms too.
func TestRedactHeaderEscaped(t *testing.T) {
	r, err := NewRedactor(RedactConfig{Headers: []string{"Authorization: Bearer tok/en-123456"}})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := r.Bytes([]byte(`{"echo":"tok\/en-123456","u":"\u0074ok/en-123456"}`))
	if bytes.Contains(out, []byte("en-123456")) {
		t.Fatalf("the token survives: %s", out)
	}
}

// FuzzRedactor: no secret of at least MinScrubLen bytes survives any JSON-string encoding
// (any mix of raw, \uXXXX in either case, short escapes) or its base64.
func FuzzRedactor(f *testing.F) {
	f.Add("pässwörd", []byte{1, 0}, "pre", "post")
	f.Add("s3cr3t/\"\\\n𝄞", []byte{3, 2, 1, 0}, "", "")
	f.Add("abcdef", []byte{0}, "abc", "def")
	f.Add("000000", []byte("0"), "\x10", "0")  // a raw match inside \u0010 broke the JSON
	f.Add("00000*", []byte("0"), "00000", "0") // masked, but pre + Mask spell the secret again
	f.Fuzz(func(t *testing.T, secret string, choice []byte, pre, post string) {
		if len(secret) < MinScrubLen || !utf8.ValidString(secret) || strings.Contains(secret, Mask) ||
			!utf8.ValidString(pre) || !utf8.ValidString(post) {
			return // not a secret the redactor takes, or text that is not a Go string
		}
		r, err := NewRedactor(RedactConfig{Env: []string{"S=" + secret}})
		if err != nil {
			t.Fatal(err)
		}
		// pre and post are encoded whole, so they cannot complete a masked secret.
		doc := fmt.Sprintf(`{"a":"%s%s%s","b":"%s","c":"%s"}`,
			encodeJSONString(pre, nil), encodeJSONString(secret, choice), encodeJSONString(post, nil),
			base64.StdEncoding.EncodeToString([]byte(pre+secret+post)),
			base64.RawURLEncoding.EncodeToString([]byte(secret)))
		out, _ := r.Bytes([]byte(doc))
		var back map[string]string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("redaction broke the JSON: %v\n%s", err, out)
		}
		// A leak is the secret whole between masks: a secret ending in "*" (Mask's first
		// byte) after a pre that ends like its beginning reappears across a mask that
		// replaced it ("00000" + "***" holds "00000*"), which no byte of the secret makes.
		for _, piece := range strings.Split(back["a"], Mask) {
			if strings.Contains(piece, secret) && !strings.Contains(pre+post, secret) {
				t.Fatalf("the secret survives in %q (from %s)", back["a"], doc)
			}
		}
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
			if e := enc.EncodeToString([]byte(secret)); len(e) >= 8 && bytes.Contains(out, []byte(e)) {
				t.Fatalf("base64 %s survives in %s", e, out)
			}
		}
	})
}

// A secret holding a backslash is found as JSON writes it ("\\" or \u005c) and as plain
// text writes it (a stderr line).
func TestRedactBackslash(t *testing.T) {
	r, err := NewRedactor(RedactConfig{Env: []string{`S=C:\dir\key-123`}})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{`"C:\\dir\\key-123"`, `"C:\u005cdir\u005Ckey-123"`, `stderr: C:\dir\key-123 opened`, `"C:\\dir\u005ckey-123"`} {
		if out, _ := r.Bytes([]byte(in)); bytes.Contains(out, []byte("key-123")) {
			t.Errorf("%s: the secret survives: %s", in, out)
		}
	}
}

// In JSON a raw quote is a string's edge and a backslash starts an escape: a secret of
// quotes and a backslash is masked where it is written, not from the string's opening
// quote through half an escape (found by FuzzRedactor).
func TestRedactQuotesStayInTheString(t *testing.T) {
	secret := "\"\"\"\"\"\"\\"
	r, err := NewRedactor(RedactConfig{Env: []string{"S=" + secret}})
	if err != nil {
		t.Fatal(err)
	}
	doc := []byte(`{"a":"\"\u0022\"\u0022\"\u0022\\,","b":1}`)
	out, _ := r.Bytes(doc)
	if string(out) != `{"a":"***,","b":1}` {
		t.Fatalf("got %s", out)
	}
	// The same secret in a stderr line, where quotes are characters.
	line := []byte(`key=` + secret + ` end`)
	if out, _ := r.Bytes(line); string(out) != `key=*** end` {
		t.Fatalf("stderr: got %s", out)
	}
}

// A secret of many backslashes against a long run of backslashes is matched in linear
// time: the matcher keeps a set of ends, not a tree of choices (FuzzRedactor stalled).
func BenchmarkRedactBackslashRun(b *testing.B) {
	r, err := NewRedactor(RedactConfig{Env: []string{"S=" + strings.Repeat(`\`, 40) + "x"}})
	if err != nil {
		b.Fatal(err)
	}
	line := []byte(strings.Repeat(`\`, 4096))
	for b.Loop() {
		r.Bytes(line)
	}
}
