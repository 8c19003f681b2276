package trace

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// choices hands out the bytes of a fuzz input one by one, then zeros.
type choices []byte

func (c *choices) next() int {
	if len(*c) == 0 {
		return 0
	}
	b := (*c)[0]
	*c = (*c)[1:]
	return int(b)
}

// take returns the next n bytes (fewer when the input runs out).
func (c *choices) take(n int) []byte {
	n = min(n, len(*c))
	b := (*c)[:n]
	*c = (*c)[n:]
	return b
}

// encoding is the first link of an encoding chain: how the secret's bytes are written
// before any JSON escaping.
type encoding int

const (
	encRaw encoding = iota
	encPercent
	encBase64
	encHexLower
	encHexUpper
	encodings
)

// encodeBytes writes pre, secret and post in enc and returns the three parts: what stands
// for the secret is sec (for base64, the characters made only of the secret's bits, with
// the line breaks among them; ok is false when they are too few to be masked).
func encodeBytes(enc encoding, pre, secret, post string, c *choices) (a, sec, b string, ok bool) {
	switch enc {
	case encPercent:
		var s strings.Builder
		for _, r := range secret {
			switch k := c.next() % 4; {
			case r == ' ' && k == 3:
				s.WriteByte('+')
			case r < utf8.RuneSelf && k == 0 || r >= utf8.RuneSelf && k == 3:
				s.WriteRune(r)
			default:
				for _, x := range []byte(string(r)) {
					format := "%%%02X"
					if c.next()%2 == 0 {
						format = "%%%02x"
					}
					fmt.Fprintf(&s, format, x)
				}
			}
		}
		return url.QueryEscape(pre), s.String(), url.QueryEscape(post), true
	case encBase64:
		e := base64.StdEncoding
		if c.next()%2 == 1 {
			e = base64.URLEncoding
		}
		blob := e.EncodeToString([]byte(pre + secret + post))
		first := (8*len(pre) + 5) / 6              // the first character made only of the secret's bits
		last := (8*(len(pre)+len(secret)) - 6) / 6 // the last one
		width := []int{64, 76, wrapMin + c.next()%64}[c.next()%3]
		col := c.next() % width // the blob starts mid-line
		eol := []string{"\n", "\r\n"}[c.next()%2]
		var s strings.Builder
		start, end := 0, 0
		for i := range len(blob) {
			if i > 0 && (i+col)%width == 0 {
				s.WriteString(eol)
			}
			if i == first {
				start = s.Len()
			}
			s.WriteByte(blob[i])
			if i == last {
				end = s.Len()
			}
		}
		w := s.String()
		return w[:start], w[start:end], w[end:], last-first+1 >= MinScrubLen
	case encHexLower, encHexUpper:
		h := func(s string) string {
			if enc == encHexUpper {
				return strings.ToUpper(hex.EncodeToString([]byte(s)))
			}
			return hex.EncodeToString([]byte(s))
		}
		return h(pre), h(secret), h(post), true
	}
	return pre, secret, post, true
}

// FuzzRedactorEncodings: a secret never survives whole in any encoding it can take on its
// way into what mcp-inspect writes. The input gives the secret, text around it and a chain
// of encodings: raw, %-encoded (each byte raw, %xx or %XX, a space '+'), base64 (either
// alphabet, wrapped at 64, 76 or any width from wrapMin with LF or CRLF, starting
// mid-line) or hex (either case); then up to three JSON-string levels (each character of the
// secret raw, \u in either case or a short escape), a level deeper being a JSON text held in
// a string, the outermost a JSON-RPC frame's text; with none, a plain stderr line. The
// output must not hold the secret as written at any level (decoded level by level), nor the
// secret itself, and a JSON input stays JSON.
func FuzzRedactorEncodings(f *testing.F) {
	f.Add("pässwörd", "pre", "post", []byte{0, 2})                     // json.dumps in json.dumps
	f.Add(`s3"cr\t/𝄞`, "", "", []byte{0, 3, 1, 2, 3, 0, 1, 2})         // three levels, every escape
	f.Add("hunter2 fake", "a=1&pw=", "&b=2", []byte{1, 0, 3, 0, 1, 2}) // a form body
	f.Add("päss wörd", `{"url":"`, `"}`, []byte{1, 1, 2, 3, 0, 1})     // a URL in JSON
	f.Add("0123456789abcdef-key", "-----key: ", " end", []byte{2, 0, 0, 1, 7, 1})
	f.Add("0123456789abcdef-key", "xy", "z", []byte{2, 2, 1, 2, 30, 1, 1, 2, 3})
	f.Add("hunter2-fake", "digest ", "", []byte{3, 1, 1})
	f.Add("hunter2-fake", "", "", []byte{4, 2, 0})
	f.Add("nabcdef", `x\`, "", []byte{0, 0}) // a backslash before the secret in plain text
	f.Fuzz(func(t *testing.T, secret, pre, post string, chain []byte) {
		if len(secret) < MinScrubLen || strings.Contains(secret, Mask) ||
			!utf8.ValidString(secret) || !utf8.ValidString(pre) || !utf8.ValidString(post) {
			return // not a secret the redactor takes, or text that is not a Go string
		}
		r, err := NewRedactor(RedactConfig{Env: []string{"S=" + secret}})
		if err != nil {
			t.Fatal(err)
		}
		c := choices(chain)
		enc := encoding(c.next() % int(encodings))
		depth := c.next() % (maxDepth + 1)
		a, sec, b, maskable := encodeBytes(enc, pre, secret, post, &c)
		// levels[k] is the text around the secret, and the secret, as written k levels deep.
		levels := [][3]string{{a, sec, b}}
		for d := 1; d <= depth; d++ {
			in, lq, rq := levels[d-1], "", ""
			if d > 1 {
				lq, rq = `["`, `"]` // a JSON text in the string
			}
			levels = append(levels, [3]string{
				encodeJSONString(lq+in[0], nil), encodeJSONString(in[1], c.take(8)), encodeJSONString(in[2]+rq, nil)})
		}
		top := levels[depth]
		head, tail := "stderr: ", " end\n"
		if depth > 0 {
			head, tail = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`, `"}]}}`+"\n"
		}
		in := head + top[0] + top[1] + top[2] + tail
		if depth > 0 && !json.Valid([]byte(in)) {
			t.Fatalf("the harness wrote no JSON: %s", in)
		}
		out, hits := r.Bytes([]byte(in))
		if depth > 0 && !json.Valid(out) {
			t.Fatalf("redaction broke the JSON:\n in %s\nout %s", in, out)
		}
		if maskable && len(hits) == 0 {
			t.Fatalf("nothing masked in %s", in)
		}
		// The secret is whole when it lies between masks: pre or post may end like the
		// secret begins, and the mask's '*' spell its end ("00000" + "***" holds "00000*").
		whole := func(text, what string, flat bool) bool {
			for _, piece := range strings.Split(text, Mask) {
				if flat {
					piece = strings.NewReplacer("\r", "", "\n", "").Replace(piece)
					what = strings.NewReplacer("\r", "", "\n", "").Replace(what)
				}
				if strings.Contains(piece, what) {
					return true
				}
			}
			return false
		}
		around := head + top[0] + "\x00" + top[2] + tail // the input without the secret
		if whole(string(out), secret, false) && !strings.Contains(around, secret) {
			t.Fatalf("the secret survives raw:\n in %q\nout %q", in, out)
		}
		if !maskable {
			return
		}
		if whole(string(out), top[1], false) {
			t.Fatalf("the secret survives as written (%q):\n in %q\nout %q", top[1], in, out)
		}
		// Level by level, decoded: no level holds the secret as written there.
		if depth == 0 {
			return
		}
		var msg struct {
			Result struct{ Content []struct{ Text string } }
		}
		if err := json.Unmarshal(out, &msg); err != nil || len(msg.Result.Content) != 1 {
			t.Fatalf("the frame is not the frame: %v\n%s", err, out)
		}
		text := msg.Result.Content[0].Text
		for k := depth - 1; k >= 0; k-- {
			if whole(text, levels[k][1], enc == encBase64 && k == 0) {
				t.Fatalf("the secret survives %d levels deep, as %q:\n in %q\nout %q", depth-k, levels[k][1], in, out)
			}
			if k == 0 {
				break
			}
			var inner []string
			if err := json.Unmarshal([]byte(text), &inner); err != nil || len(inner) != 1 {
				if strings.Contains(secret, `"`) {
					return // the secret's quote was the inner JSON's edge: masking it broke that JSON
				}
				t.Fatalf("the JSON %d levels deep is no longer JSON (%v):\n in %q\nout %q", depth-k, err, in, out)
			}
			text = inner[0]
		}
	})
}
