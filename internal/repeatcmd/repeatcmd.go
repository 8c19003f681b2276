// Package repeatcmd turns a recorded JSON-RPC request into a shell line that sends it again:
// `mcp-inspect call|read|prompt …` for tools/call, resources/read and prompts/get, and for a
// server reached over HTTP a curl line with the request as its body (MCP 2025-11-25
// basic/transports, Streamable HTTP: POST, Accept both JSON and SSE). Credentials are never
// written into a line: headers and environment variables the user set appear as
// references to environment variables ("$AUTHORIZATION"), which the user exports first.
// Lines are written in the Target's shell syntax: POSIX sh, or on Windows a cmd.exe line
// (shellwords.JoinWindows; references as %AUTHORIZATION%, curl as curl.exe).
package repeatcmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/shellwords"
)

// ErrNotRepeatable is returned for a frame that no mcp-inspect command sends: not a
// request, or a method other than tools/call, resources/read and prompts/get.
var ErrNotRepeatable = errors.New("only tools/call, resources/read and prompts/get requests have an mcp-inspect command")

// Target is the server a line talks to.
type Target struct {
	// Argv is the server's command line as shown (secrets already masked), or a single
	// http(s) URL for a remote server.
	Argv []string
	// EnvKeys are the names of the variables the user set for the server (-e KEY=VALUE):
	// the line passes each as -e "KEY=$KEY".
	EnvKeys []string
	// HeaderKeys are the names of the HTTP headers the user set (-H): the line sends each
	// as "Name: $NAME" (the name upper-cased, '-' as '_').
	HeaderKeys []string
	// SessionID is the Mcp-Session-Id the server gave ("" for none); ProtocolVersion the
	// negotiated version for the MCP-Protocol-Version header ("" leaves it out).
	SessionID, ProtocolVersion string
	// Quoting is the shell syntax of the lines (the zero value is POSIX sh).
	Quoting shellwords.Quoting
}

// IsHTTP says whether the target is a remote server (a single http:// or https:// URL).
func (t Target) IsHTTP() bool {
	return len(t.Argv) == 1 && (strings.HasPrefix(t.Argv[0], "http://") || strings.HasPrefix(t.Argv[0], "https://"))
}

// EnvRef is the environment variable a header's value is read from: the name upper-cased
// with every character other than a letter or digit as '_' ("X-Api-Key" → X_API_KEY).
func EnvRef(header string) string {
	b := []byte(strings.ToUpper(header))
	for i, c := range b {
		if (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			b[i] = '_'
		}
	}
	return string(b)
}

// request is the part of a JSON-RPC request a line needs.
type request struct {
	Method string `json:"method"`
	Params struct {
		Name      string          `json:"name"`
		URI       string          `json:"uri"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"params"`
}

// Inspect gives the `mcp-inspect` line that sends req (one JSON-RPC request frame) to t
// again: `mcp-inspect call NAME --args '{…}' -- COMMAND…`, `mcp-inspect read URI URL`, ….
// The arguments go as written (--args is sent exactly). Errors: req is not JSON, or
// ErrNotRepeatable.
func Inspect(req []byte, t Target) (string, error) {
	var r request
	if err := json.Unmarshal(req, &r); err != nil {
		return "", fmt.Errorf("the frame is not a JSON-RPC request: %w", err)
	}
	var argv []string
	switch r.Method {
	case "tools/call":
		argv = []string{"mcp-inspect", "call", r.Params.Name}
	case "prompts/get":
		argv = []string{"mcp-inspect", "prompt", r.Params.Name}
	case "resources/read":
		argv = []string{"mcp-inspect", "read", r.Params.URI}
	default:
		return "", ErrNotRepeatable
	}
	if a := compact(r.Params.Arguments); a != "" && a != "null" && r.Method != "resources/read" {
		argv = append(argv, "--args", a)
	}
	q := t.Quoting
	line := q.Join(argv)
	if t.IsHTTP() {
		return line + headerRefs(t.HeaderKeys, q) + " " + q.Join(t.Argv), nil
	}
	for _, k := range t.EnvKeys {
		if EnvRef(k) == strings.ToUpper(k) {
			// A name the shell can expand inside double quotes; others are left out
			// rather than written wrongly.
			line += fmt.Sprintf(` -e "%s=%s"`, k, q.Var(k))
		}
	}
	return line + " -- " + q.Join(t.Argv), nil
}

// Curl gives the curl line that POSTs req to t's URL with the headers of a Streamable
// HTTP request. ok is false when t is not an HTTP target.
func Curl(req []byte, t Target) (string, bool) {
	if !t.IsHTTP() {
		return "", false
	}
	q := t.Quoting
	curl := "curl"
	if q == shellwords.Windows {
		curl = "curl.exe" // in Windows PowerShell 5.1, curl is Invoke-WebRequest
	}
	line := curl + " -sS -N " + q.Join([]string{t.Argv[0],
		"-H", "Content-Type: application/json",
		"-H", "Accept: application/json, text/event-stream"})
	if t.ProtocolVersion != "" {
		line += " " + q.Join([]string{"-H", "MCP-Protocol-Version: " + t.ProtocolVersion})
	}
	if t.SessionID != "" {
		line += " " + q.Join([]string{"-H", "Mcp-Session-Id: " + t.SessionID})
	}
	return line + headerRefs(t.HeaderKeys, q) + " " + q.Join([]string{"--data-raw", compact(req)}), true
}

// headerRefs is ` -H "Name: $NAME"` (%NAME% for cmd.exe) for each header name that is an
// HTTP token (others cannot be written inside double quotes safely and are left out; cmd
// expands % even there).
func headerRefs(names []string, q shellwords.Quoting) string {
	unsafe := " \t\"$`\\!:"
	if q == shellwords.Windows {
		unsafe += "%"
	}
	var b strings.Builder
	for _, h := range names {
		if h == "" || strings.ContainsAny(h, unsafe) {
			continue
		}
		fmt.Fprintf(&b, ` -H "%s: %s"`, h, q.Var(EnvRef(h)))
	}
	return b.String()
}

// compact is raw JSON on one line ("" for none); raw that is not JSON is kept as it is.
func compact(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	if s == "" {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		return s
	}
	return b.String()
}
