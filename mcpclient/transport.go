package mcpclient

// The transport seam: how the client's frames reach the server and the server's frames come
// back. A stdio session has no transport value (the Client's own stdin writer and stdout
// reader, with the caller-reads fast path, stay as they were); an HTTP session has one.

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// Transport names how the server is reached.
type Transport string

const (
	// TransportStdio spawns Config.Command and talks over its stdin and stdout.
	TransportStdio Transport = "stdio"
	// TransportHTTP is Streamable HTTP (MCP 2025-03-26 and later basic/transports): POST each
	// message to Config.URL; answers come as one JSON body or an SSE stream.
	TransportHTTP Transport = "http"
	// TransportSSE is the deprecated HTTP+SSE transport (MCP 2024-11-05 basic/transports):
	// GET Config.URL for an event stream whose first `endpoint` event names the POST URL.
	TransportSSE Transport = "sse"
)

// ParseTransport reads a --transport value: "" and "auto" mean Streamable HTTP with the
// spec's fallback to HTTP+SSE (returned as TransportHTTP with fallback true).
func ParseTransport(s string) (t Transport, fallback bool, err error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return TransportHTTP, true, nil
	case "http", "streamable-http", "streamablehttp":
		return TransportHTTP, false, nil
	case "sse":
		return TransportSSE, false, nil
	}
	return "", false, fmt.Errorf("unknown transport %q (want http, sse or auto)", s)
}

// transport carries an HTTP session's frames. send is called with c.mu held, right after
// the frame's event was emitted, and must not block: the frame goes out from another
// goroutine. close ends the session (DELETE, streams stopped) and returns when every
// goroutine of the transport is done.
type transport interface {
	send(out outFrame)
	close()
}

// outFrame is one client message to deliver, with what the HTTP headers need to know.
type outFrame struct {
	// seq is the Seq of the frame's event (Event.Exchange of the HTTP request carrying it);
	// ex, while an answer to it is read, the Seq of that answer's HTTP request.
	seq, ex uint64
	body    []byte
	msg     *Message // nil when the bytes are not a JSON-RPC message (SendRaw)
	kind    Kind
	era     Era
	// version is the modern era's protocol version (the _meta one), "" in the legacy era.
	version string
}

// HTTPStatusError is an HTTP answer a request could not use: a status the transport does not
// expect, with no JSON-RPC message in the body. 401 and 403 come back as this error (see
// Unauthorized) so an authorization layer can act on them and retry.
type HTTPStatusError struct {
	// Method and URL of the HTTP request; Status is the status line's code and text.
	Method, URL string
	StatusCode  int
	Status      string
	Header      http.Header
	// Body is the start of the response body (at most 4 KiB).
	Body []byte
	// Request names the JSON-RPC request that failed, "" when none.
	Request string
	// Sent is the header of the request as it went on the wire (nil when unknown): it tells
	// a refusal of the credentials given from one without any.
	Sent http.Header
}

func (e *HTTPStatusError) Error() string {
	s := fmt.Sprintf("%s %s: HTTP %s", e.Method, e.URL, e.Status)
	if e.Request != "" {
		s = e.Request + ": " + s
	}
	if b := strings.TrimSpace(string(e.Body)); b != "" {
		if len(b) > 200 {
			b = b[:200] + "…"
		}
		s += ": " + b
	}
	return s + statusHint(e.StatusCode, e.Header, e.credentials())
}

// credentials reports whether the request that got this answer carried credentials (an
// Authorization header on the wire); unknown (false) when the response did not keep it.
func (e *HTTPStatusError) credentials() bool {
	return e.Sent != nil && (e.Sent.Get("Authorization") != "" || e.Sent.Get("Cookie") != "")
}

// statusHint explains an HTTP status a debugging user meets against MCP servers: what it
// most often means there, and what to try (RFC 9110 §15, RFC 6750 §3.1 for the bearer
// error codes).
func statusHint(code int, h http.Header, credentials bool) string {
	challenge := strings.ToLower(h.Get("WWW-Authenticate"))
	switch {
	case code == http.StatusUnauthorized && strings.Contains(challenge, "invalid_token") && credentials:
		return " (the server refused the token sent (invalid_token): it expired or was revoked; get a new one)"
	case code == http.StatusUnauthorized:
		return " (the server wants credentials: pass -H 'Authorization: Bearer …' or --bearer-env VAR)"
	case code == http.StatusForbidden && strings.Contains(challenge, "insufficient_scope"):
		return " (the credentials given are not enough for this request: insufficient_scope)"
	case code == http.StatusForbidden && credentials:
		return " (the server refused the request with the credentials given: a policy, not a missing login)"
	case code == http.StatusForbidden:
		return " (refused without asking for credentials: most often an Origin or Host check or an access policy of the server or a proxy, not missing credentials)"
	case code == http.StatusMisdirectedRequest:
		return " (421: the server refused the Host header, most often DNS-rebinding protection: connect to 127.0.0.1 instead of localhost (or the reverse), or add this host to the server's allowed hosts)"
	case code == http.StatusBadRequest:
		return " (the server could not use the request; its body above says why)"
	case code >= 500:
		return " (a server error: the server or a proxy in front of it failed on its side; the body above and the server's logs say why)"
	}
	return ""
}

// Unauthorized reports a 401 or 403, the statuses an authorization layer handles.
func (e *HTTPStatusError) Unauthorized() bool {
	return e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden
}

// SessionExpiredError is a request that carried an Mcp-Session-Id answered as if the server
// no longer knew the session: the spec's 404, or one of the other ways servers say it (400,
// 401, or a JSON-RPC error without an id that speaks of the session, even with 200). The
// client must initialize a new session (MCP 2025-11-25 basic/transports §Session Management).
type SessionExpiredError struct {
	SessionID string
	Request   string
	// Status is the HTTP status the server answered with (0 means 404, the spec's).
	Status int
	// Said is the start of what the server said instead of 404 ("" for 404).
	Said string
}

func (e *SessionExpiredError) Error() string {
	s := "session expired: the server answered 404 to session " + e.SessionID + "; start a new session (initialize again)"
	if e.Status != 0 && e.Status != http.StatusNotFound {
		s = fmt.Sprintf("the server seems to have dropped session %s: it answered %d %s (%q); MCP says 404 (basic/transports §Session Management); start a new session (initialize again)",
			e.SessionID, e.Status, http.StatusText(e.Status), e.Said)
	}
	if e.Request != "" {
		s = e.Request + ": " + s
	}
	return s
}

// ConnectError is an HTTP request that got no answer at all (connection refused, DNS, TLS).
type ConnectError struct {
	Method, URL string
	Err         error
}

// AuthFailure is implemented by the errors of an authorization layer (Config.WrapTransport):
// the server was reached, but no credentials could be obtained (a refused consent, a failed
// token exchange). A ConnectError wrapping one does not blame the network.
type AuthFailure interface {
	error
	AuthFailure()
}

func (e *ConnectError) Error() string {
	var af AuthFailure
	if errors.As(e.Err, &af) {
		return fmt.Sprintf("%s %s: %v", e.Method, e.URL, af)
	}
	err := e.Err
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		err = ue.Err // its "Post \"URL\": " would repeat what is said already
	}
	if platform.IsConnRefused(err) && !strings.Contains(err.Error(), "connection refused") {
		// Windows says "No connection could be made because the target machine actively
		// refused it": name it as everywhere else, keep the system's words after.
		return fmt.Sprintf("%s %s: connection refused (%v; is the server running, and is the URL right?)", e.Method, e.URL, err)
	}
	return fmt.Sprintf("%s %s: %v (is the server running, and is the URL right?)", e.Method, e.URL, err)
}

func (e *ConnectError) Unwrap() error { return e.Err }

// sentHeader is the header of the request resp answers, as the innermost transport sent
// it (an authorization layer's token included); nil when resp does not keep its request.
func sentHeader(resp *http.Response) http.Header {
	if resp == nil || resp.Request == nil {
		return nil
	}
	return resp.Request.Header
}
