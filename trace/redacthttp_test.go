package trace

import (
	"strings"
	"testing"
)

func TestHTTPHeadRedaction(t *testing.T) {
	head := "POST /mcp HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer abc.def.ghi\r\nCookie: s=1\r\nX-Github-Token: t0k\r\nMcp-Session-Id: sess-1\r\nX-Plain: v\r\n\r\n{\"Authorization: keep\":1}"
	out, ok := HTTPHead([]byte(head))
	if !ok {
		t.Fatal("nothing redacted")
	}
	s := string(out)
	for _, want := range []string{"Authorization: Bearer ***\r\n", "Cookie: ***\r\n", "X-Github-Token: ***\r\n", "Mcp-Session-Id: sess-1\r\n", "X-Plain: v\r\n", `{"Authorization: keep":1}`} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in\n%s", want, s)
		}
	}
	if _, ok := HTTPHead([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")); ok {
		t.Error("a head without credentials changed")
	}
}

func TestHeaderSecretsScrubbed(t *testing.T) {
	r, err := NewRedactor(RedactConfig{Headers: []string{"Authorization: Bearer tok-123456789", "X-Api-Key: key-987654321", "X-Plain: visible-value"}})
	if err != nil {
		t.Fatal(err)
	}
	out, hits := r.Bytes([]byte(`{"echo":"tok-123456789 key-987654321 visible-value"}`))
	if strings.Contains(string(out), "tok-123456789") || strings.Contains(string(out), "key-987654321") || !strings.Contains(string(out), "visible-value") || len(hits) == 0 {
		t.Fatalf("%s %v", out, hits)
	}
}

// A request line's secret-named query values are masked whatever their length; the rest
// of the line and a response head are left alone (issue 26).
func TestHTTPHeadRequestQuery(t *testing.T) {
	in := "POST /mcp?page=2&api_key=abc&sig=x1 HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer tok-123456\r\n\r\n{\"q\":\"?token=body\"}"
	out, ok := HTTPHead([]byte(in))
	want := "POST /mcp?page=2&api_key=" + Mask + "&sig=" + Mask + " HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer " + Mask + "\r\n\r\n{\"q\":\"?token=body\"}"
	if !ok || string(out) != want {
		t.Errorf("got %q\nwant %q", out, want)
	}
	for _, s := range []string{"HTTP/1.1 200 OK\r\nLocation: /x?token=abc\r\n\r\n", "GET /mcp?page=2 HTTP/1.1\r\n\r\n"} {
		if out, ok := HTTPHead([]byte(s)); ok || string(out) != s {
			t.Errorf("%q changed: %q", s, out)
		}
	}
}
