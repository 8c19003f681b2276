package trace

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// Issue 26: a %-encoded secret, in a form body (each byte raw or %XX in either case, '+' for
// a space) and in a URL inside JSON.
func TestRedactPercentEncoded(t *testing.T) {
	const secret = "päss wörd/+%!"
	r, err := NewRedactor(RedactConfig{Env: []string{"DB_PASS=" + secret}})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{
		"POST /token HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\nuser=me&password=p%C3%A4ss+w%c3%b6rd%2F%2B%25%21&x=1",
		"user=me&password=p%C3%A4ss%20w%C3%B6rd/%2b%25!&x=1",
		`{"url":"https://x.test/cb?k=%70%c3%a4ss+w%C3%B6rd%2f%2B%25%21&x=1"}`,
		`{"url":"https://x.test/cb?k=p\u0025C3\u0025A4ss+w%C3%B6rd%2f%2B%25%21&x=1"}`,
	} {
		out, hits := r.Bytes([]byte(in))
		if len(hits) == 0 || !bytes.Contains(out, []byte("=***&x=1")) {
			t.Errorf("%s: got %s (%v)", in, out, hits)
		}
	}
}

// wrap breaks s into lines of width characters, the first one first characters long (a
// blob that starts mid-line), joined by eol.
func wrap(s string, first, width int, eol string) string {
	var lines []string
	for n := first; len(s) > 0; n = width {
		n = min(n, len(s))
		lines = append(lines, s[:n])
		s = s[n:]
	}
	return strings.Join(lines, eol)
}

// Issue 26: base64 broken over lines, PEM (64 columns) and MIME (76), with raw CR/LF and
// with the \n and \r\n escapes inside a JSON string.
func TestRedactBase64Wrapped(t *testing.T) {
	secret := strings.Repeat("0123456789abcdef-", 8) // a key long enough to span lines
	r, err := NewRedactor(RedactConfig{Env: []string{"KEY=" + secret}})
	if err != nil {
		t.Fatal(err)
	}
	blob := base64.StdEncoding.EncodeToString([]byte("-----key: " + secret + " end"))
	pem := "-----BEGIN KEY-----\r\n" + wrap(blob, 64, 64, "\r\n") + "\r\n-----END KEY-----\r\n"
	mime, _ := json.Marshal(map[string]string{"body": "Content-Transfer-Encoding: base64\r\n\r\n" + wrap(blob, 30, 76, "\n")})
	pemJSON, _ := json.Marshal(map[string]string{"pem": pem})
	var core []byte // the core of the secret's alignment in the blob (10 bytes in)
	for _, c := range base64Cores([]byte(secret)) {
		if strings.Contains(blob, string(c)) {
			core = c
		}
	}
	if core == nil {
		t.Fatalf("no core of the secret in %s", blob)
	}
	for _, in := range []string{pem, string(mime), string(pemJSON)} {
		out, hits := r.Bytes([]byte(in))
		if len(hits) == 0 {
			t.Errorf("not masked: %s", in)
			continue
		}
		// Unwrapped, no run of the secret's base64 longer than its edges is left.
		flat := out
		if json.Valid([]byte(in)) {
			if !json.Valid(out) {
				t.Fatalf("no longer JSON: %s", out)
			}
			var m map[string]string
			json.Unmarshal(out, &m)
			for _, v := range m {
				flat = []byte(v)
			}
		}
		flat = bytes.ReplaceAll(bytes.ReplaceAll(flat, []byte("\r"), nil), []byte("\n"), nil)
		for i := 0; i+8 <= len(core); i++ {
			if bytes.Contains(flat, core[i:i+8]) {
				t.Errorf("%q of the secret's base64 survives in %s", core[i:i+8], out)
				break
			}
		}
	}
}

// Issue 26: the secret's bytes as hex, lower and upper case, raw and in JSON.
func TestRedactHex(t *testing.T) {
	const secret = "hunter2-fake-Ωx"
	r, err := NewRedactor(RedactConfig{Env: []string{"DB_PASS=" + secret}})
	if err != nil {
		t.Fatal(err)
	}
	lower := hex.EncodeToString([]byte(secret))
	for _, in := range []string{
		"digest 00" + lower + "ff",
		"DIGEST 00" + strings.ToUpper(lower) + "FF",
		`{"blob":"0x` + lower + `"}`,
	} {
		out, hits := r.Bytes([]byte(in))
		if len(hits) == 0 || bytes.Contains(bytes.ToLower(out), []byte(lower[2:len(lower)-2])) || !bytes.Contains(out, []byte(Mask)) {
			t.Errorf("%s: got %s (%v)", in, out, hits)
		}
	}
}

// The prefilter lets every new form through when the frame holds no backslash (no JSON
// escape): the forms are masked exactly as the full pass masks them, and a frame holding
// none is still returned as it is.
func TestRedactPrefilterEncodings(t *testing.T) {
	const secret = "hunter2 fake-pw"
	cfg := RedactConfig{Env: []string{"DEMO_PASSWORD=" + secret}}
	r, err := NewRedactor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Patterns = []string{`\x00never\x00`}
	full, err := NewRedactor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	blob := base64.StdEncoding.EncodeToString([]byte("xy" + secret + secret + "z"))
	for _, in := range []string{
		"pw=hunter2+fake-pw&x", "pw=hunter2%20fake-pw&x", "pw=%68unter2 fake-pw&x", "pw=hunter2+fake%2dpw&x",
		hex.EncodeToString([]byte(secret)), strings.ToUpper(hex.EncodeToString([]byte(secret))),
		wrap(blob, 5, 16, "\n"), wrap(blob, 9, 16, "\r\n"), wrap(blob, 3, 76, "\n"),
	} {
		out, hits := r.Bytes([]byte(in))
		want, wantHits := full.Bytes([]byte(in))
		if !bytes.Equal(out, want) || !slices.Equal(hits, wantHits) || len(hits) == 0 {
			t.Errorf("%q: scrubbed to %q %v, the full pass gives %q %v", in, out, hits, want, wantHits)
		}
	}
	clean := []byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"text\":\"hunter2 fake, 100% ok, 68756e746572 and aHVudGVy\"}}\n")
	if out, hits := r.Bytes(clean); hits != nil || &out[0] != &clean[0] {
		t.Errorf("clean frame changed: %q, hits %v", out, hits)
	}
}
