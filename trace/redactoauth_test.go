package trace

import (
	"strings"
	"testing"
)

func TestOAuthCredentialsRedaction(t *testing.T) {
	cases := []struct{ in, secret, keep string }{
		{"POST /token HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\ncode=abc123&code_verifier=verif456&grant_type=authorization_code", "abc123", "grant_type=authorization_code"},
		{"POST /token HTTP/1.1\r\n\r\ngrant_type=refresh_token&refresh_token=rt-secret-1", "rt-secret-1", "grant_type=refresh_token"},
		{"GET /callback?code=thecode&state=st1 HTTP/1.1\r\nHost: x\r\n\r\n", "thecode", "state=st1"},
		{"HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:1/callback?code=loc-code&state=s\r\n\r\n", "loc-code", "state=s"},
		{"HTTP/1.1 200 OK\r\n\r\n{\"access_token\":\"at-xyz\",\"token_type\":\"Bearer\",\"refresh_token\": \"rt-xyz\"}", "at-xyz", `"token_type":"Bearer"`},
	}
	for _, c := range cases {
		out, ok := OAuthCredentials([]byte(c.in))
		if !ok || strings.Contains(string(out), c.secret) || !strings.Contains(string(out), c.keep) {
			t.Errorf("OAuthCredentials(%q) = %q, %v", c.in, out, ok)
		}
		if strings.Contains(c.in, "code_verifier") && strings.Contains(string(out), "verif456") {
			t.Errorf("code_verifier kept: %q", out)
		}
		if strings.Contains(c.in, "rt-xyz") && strings.Contains(string(out), "rt-xyz") {
			t.Errorf("refresh token kept: %q", out)
		}
	}
	// An MCP request with no OAuth parameter is untouched.
	mcp := "POST /mcp HTTP/1.1\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":{\"q\":\"a=b\"}}}"
	if out, ok := OAuthCredentials([]byte(mcp)); ok || string(out) != mcp {
		t.Errorf("MCP request changed: %q", out)
	}
}
