package termout

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
)

// hostile holds one of each character class a terminal may act on.
const hostile = "name\x1b]0;PWNED\x07 \x1b]52;c;aGk=\x07\x1b[2J \u009b31m \u009c \u009d0;t\u009c " +
	"\u202eevil\u202c \u200bzw \u200djoin \ufeffbom tag\U000E0041 ok\ttab\n"

// assertClean fails when b holds a byte or rune a terminal may act on ("\n" and "\t" aside).
func assertClean(t *testing.T, b []byte) {
	t.Helper()
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			t.Fatalf("invalid UTF-8 at %d in %q", i, b)
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f || sanitize.Dangerous(r):
			t.Fatalf("raw %U at %d in %q", r, i, b)
		}
		i += n
	}
}

func TestHumanEscapesOnATerminal(t *testing.T) {
	var b bytes.Buffer
	w := Wrap(&b, true)
	if n, err := w.Write([]byte(hostile)); err != nil || n != len(hostile) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	assertClean(t, b.Bytes())
	for _, want := range []string{`\x1b]0;PWNED\x07`, "<U+009B>", "<U+202E>", "<U+200B>", "<U+200D>", "<U+FEFF>", "<U+E0041>", "ok\ttab\n"} {
		if !bytes.Contains(b.Bytes(), []byte(want)) {
			t.Errorf("missing %q in %q", want, b.String())
		}
	}
}

func TestPassThroughOffATerminal(t *testing.T) {
	var b bytes.Buffer
	w := Wrap(&b, false)
	w.Write([]byte(hostile))
	w.JSON().Write([]byte(hostile))
	if got := b.String(); got != hostile+hostile {
		t.Fatalf("bytes changed off a terminal: %q", got)
	}
}

// A character split across two writes is escaped whole; a dangling start byte is flushed
// as an escape.
func TestSplitRune(t *testing.T) {
	var b bytes.Buffer
	w := Wrap(&b, true)
	c1 := []byte("\u009b")
	w.Write([]byte{'a', c1[0]})
	w.Write([]byte{c1[1], 'b', 0xe2})
	w.Flush()
	if got, want := b.String(), "a<U+009B>b<E2>"; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

// The JSON variant keeps the document valid and its values unchanged, with nothing raw.
func TestJSONVariant(t *testing.T) {
	doc, err := json.Marshal(map[string]string{"name": hostile})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := Wrap(&b, true).JSON()
	w.Write(append(doc, '\n'))
	assertClean(t, b.Bytes())
	var back map[string]string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b.Bytes())
	}
	if back["name"] != hostile {
		t.Fatalf("value changed: %q", back["name"])
	}
	// Invalid UTF-8 inside a string becomes U+FFFD.
	b.Reset()
	w.Write([]byte("\"a\xffb\"\n"))
	if got, want := b.String(), "\"a\\ufffdb\"\n"; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
}

func FuzzWriter(f *testing.F) {
	f.Add(hostile, 3)
	f.Add("\xe2\x80", 1)
	f.Add("del\x7fhere", 4) // DEL (0x7f), which the JSON writer must escape as well
	f.Fuzz(func(t *testing.T, s string, cut int) {
		var b bytes.Buffer
		w := Wrap(&b, true)
		if cut < 0 {
			cut = -cut
		}
		if len(s) > 0 {
			cut %= len(s) + 1
		} else {
			cut = 0
		}
		w.Write([]byte(s[:cut]))
		w.Write([]byte(s[cut:]))
		w.Flush()
		assertClean(t, b.Bytes())
		if utf8.ValidString(s) {
			doc, _ := json.Marshal(s)
			b.Reset()
			j := Wrap(&b, true).JSON()
			j.Write(doc[:min(cut, len(doc))])
			j.Write(doc[min(cut, len(doc)):])
			j.Flush()
			assertClean(t, b.Bytes())
			var back string
			if err := json.Unmarshal(b.Bytes(), &back); err != nil || back != s {
				t.Fatalf("JSON round trip: %q, %v; from %q", back, err, b.Bytes())
			}
		}
	})
}

// /dev/null is a character device but no terminal: output to it is not escaped (escaping
// copies every byte once more). A pseudo-terminal is escaped: cmd's
// TestEveryCommandIsSafeOnATerminal checks that end to end.
func TestDevNullIsNoTerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if st, err := null.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no character device here (%v)", err)
	}
	if IsTerminal(null) || New(null).Terminal() {
		t.Error("/dev/null taken for a terminal")
	}
}
