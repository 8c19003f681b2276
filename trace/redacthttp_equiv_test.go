package trace

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// refHeaderLine and refHTTPHead are the regexp form HTTPHead replaced: the byte scanner
// must give the same output on any input.
var refHeaderLine = regexp.MustCompile(`(?m)^([!#$%&'*+.^_|~0-9A-Za-z-]+)([ \t]*:[ \t]*)([^\r\n]*)`)

func refHTTPHead(b []byte) ([]byte, bool) {
	end := bytes.Index(b, []byte("\r\n\r\n"))
	if end < 0 {
		end = len(b)
	}
	head := b[:end]
	changed := false
	out := refHeaderLine.ReplaceAllFunc(head, func(line []byte) []byte {
		m := refHeaderLine.FindSubmatch(line)
		if m == nil || !refCredentialHeader(string(m[1])) || len(m[3]) == 0 {
			return line
		}
		changed = true
		v := m[3]
		if sp := bytes.IndexByte(v, ' '); sp > 0 && (strings.EqualFold(string(m[1]), "authorization") || strings.EqualFold(string(m[1]), "proxy-authorization")) {
			v = append(append([]byte(nil), v[:sp+1]...), Mask...)
		} else {
			v = []byte(Mask)
		}
		return append(append(append([]byte(nil), m[1]...), m[2]...), v...)
	})
	if !changed {
		return b, false
	}
	return append(out, b[end:]...), true
}

func refCredentialHeader(name string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token", "x-access-token":
		return true
	}
	return secretKey.MatchString(strings.ReplaceAll(strings.ToUpper(n), "-", "_"))
}

// TestHTTPHeadMatchesRegexp feeds HTTPHead and its former regexp form heads, SSE frames and
// random lines built from header-ish pieces, and wants the same bytes and the same verdict.
func TestHTTPHeadMatchesRegexp(t *testing.T) {
	fixed := []string{
		"POST /mcp HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer abc.def.ghi\r\nCookie: s=1\r\nX-Github-Token: t0k\r\nMcp-Session-Id: sess-1\r\nX-Plain: v\r\n\r\n{\"Authorization: keep\":1}",
		"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n",
		"event: message\nid: 1\ndata: {\"x\":1}\n\n",
		"authorization:Bearer\r\nAuthorization: \t Basic  x y\r\nProxy-Authorization: Token\r\n",
		"Authorization:   \r\nCookie:\r\nX-Api-Key : k\r\n\tX-Api-Key: k\r\nX-Api-Key: a\rb\n",
		"X-Secret-Thing: v\nPW: 1\nmy_pat: 2\nX-Path: 3\nKeyboard: 4\nX-\u212aey: 5\n",
		"",
		"\r\n\r\n",
		"Cookie: a\r\n\r\nCookie: b",
	}
	pieces := []string{"Authorization", "authorization", "Cookie", "X-Api-Key", "X-Auth-Token", "Mcp-Session-Id", "Content-Type", "X-Token", "Pat", "x", "data", "id",
		":", " ", "\t", "\r", "\n", "\r\n", "\r\n\r\n", "Bearer", " tok", "é", "ſecret", "-", "_", "a b", "/", "\x00", "\xff"}
	rng := rand.New(rand.NewPCG(7, 13))
	inputs := append([]string(nil), fixed...)
	for range 20000 {
		var sb strings.Builder
		for range rng.IntN(24) {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		inputs = append(inputs, sb.String())
	}
	for _, in := range inputs {
		got, gotOK := HTTPHead([]byte(in))
		want, wantOK := refHTTPHead([]byte(in))
		if gotOK != wantOK || !bytes.Equal(got, want) {
			t.Fatalf("HTTPHead(%q) = %q, %v; the regexp form gives %q, %v", in, got, gotOK, want, wantOK)
		}
	}
}

// TestCredentialHeaderPrefilter checks the prefilter never turns away a name the regexp
// takes: the standard headers, secret-looking ones and random names.
func TestCredentialHeaderPrefilter(t *testing.T) {
	names := []string{"Authorization", "Content-Type", "Mcp-Session-Id", "X-Github-Token", "X-Api-Key", "Api-Key", "X-Pat", "Pats", "X-Path", "Keyboard",
		"X-Key", "Keys-Here", "X-Pw", " Authorization", "X-Api-Key\t", "x-api_key", "\tcookie\r", "A\u00a0Token", "Passphrase", "X-Private-Thing", "X-Credentials", "Set-Cookie", "X-Auth", "Authentication", "X-\u212aey", "ſecret", "x-ſecret-id"}
	parts := []string{"x", "-", "_", "key", "pat", "auth", "pass", "pw", "s", "token", "secret", "path", "id", "K", "P", "\u212a", "ſ", "A"}
	rng := rand.New(rand.NewPCG(3, 5))
	for range 20000 {
		var sb strings.Builder
		for range 1 + rng.IntN(6) {
			sb.WriteString(parts[rng.IntN(len(parts))])
		}
		names = append(names, sb.String())
	}
	for _, n := range names {
		if got, want := CredentialHeader(n), refCredentialHeader(n); got != want {
			t.Fatalf("CredentialHeader(%q) = %v, the regexp alone says %v", n, got, want)
		}
	}
}
