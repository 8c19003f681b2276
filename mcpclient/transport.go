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
	body []byte
	msg  *Message // nil when the bytes are not a JSON-RPC message (SendRaw)
	kind Kind
	era  Era
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
	switch e.StatusCode {
	case http.StatusUnauthorized:
		s += " (the server wants credentials: pass -H 'Authorization: Bearer …' or --bearer-env VAR)"
	case http.StatusForbidden:
		s += " (the credentials given are not enough for this request)"
	}
	return s
}

// Unauthorized reports a 401 or 403, the statuses an authorization layer handles.
func (e *HTTPStatusError) Unauthorized() bool {
	return e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden
}

// SessionExpiredError is a 404 to a request that carried an Mcp-Session-Id: the server ended
// the session, and the client must initialize a new one (MCP 2025-11-25 basic/transports
// §Session Management).
type SessionExpiredError struct {
	SessionID string
	Request   string
}

func (e *SessionExpiredError) Error() string {
	s := "session expired: the server answered 404 to session " + e.SessionID + "; start a new session (initialize again)"
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
