// Package repeatcmd turns a recorded JSON-RPC request into a shell line that sends it again:
// `mcp-inspect call|read|prompt …` for tools/call, resources/read and prompts/get, and for a
// server reached over HTTP a curl line with the request as its body (MCP 2025-11-25
// basic/transports, Streamable HTTP: POST, Accept both JSON and SSE). Credentials are never
// written into a line: credential headers and the environment variables the user set
// appear as references to environment variables ("$AUTHORIZATION", "Bearer $TOKEN" for
// --bearer-env TOKEN), which the user exports first; other headers are written as set.
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
	// Headers are the HTTP headers the user set (-H, --bearer-env), as the line sends them.
	Headers []Header
	// SessionID is the Mcp-Session-Id the server gave ("" for none); ProtocolVersion the
	// negotiated version for the MCP-Protocol-Version header ("" leaves it out).
	SessionID, ProtocolVersion string
	// Quoting is the shell syntax of the lines (the zero value is POSIX sh).
	Quoting shellwords.Quoting
}

// Header is an HTTP header the user set, as a line writes it: "Name: Value" when Ref is
// "", else "Name: Prefix$Ref", the credential read from the environment variable Ref.
type Header struct {
	Name, Value string
	// Prefix goes before the reference ("Bearer " for --bearer-env).
	Prefix, Ref string
}

// SecretHeader is a credential header written as a reference to the variable EnvRef(name).
func SecretHeader(name string) Header { return Header{Name: name, Ref: EnvRef(name)} }

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
		return line + headerArgs(t.Headers, q) + " " + q.Join(t.Argv), nil
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
	return line + headerArgs(t.Headers, q) + " " + q.Join([]string{"--data-raw", compact(req)}), true
}

// headerArgs is ` -H "Name: Prefix$REF"` (%REF% for cmd.exe) for each credential header
// and -H 'Name: value' for the others. A credential whose name or prefix cannot be written
// inside double quotes safely is left out (cmd expands % even there).
func headerArgs(hs []Header, q shellwords.Quoting) string {
	unsafe := " \t\"$`\\!:"
	if q == shellwords.Windows {
		unsafe += "%"
	}
	var b strings.Builder
	for _, h := range hs {
		switch {
		case h.Name == "" || strings.ContainsAny(h.Name, " \t:"):
		case h.Ref == "":
			b.WriteString(" " + q.Join([]string{"-H", h.Name + ": " + h.Value}))
		case strings.ContainsAny(h.Name, unsafe) || strings.ContainsAny(h.Prefix, strings.TrimPrefix(unsafe, " ")) || EnvRef(h.Ref) != h.Ref:
		default:
			fmt.Fprintf(&b, ` -H "%s: %s%s"`, h.Name, h.Prefix, q.Var(h.Ref))
		}
	}
	return b.String()
}

// compact is raw JSON on one line ("" for none); raw that is not JSON is kept as it is.
// Go's encoder writes &, < and > in strings as \u0026, \u003c and \u003e (HTML escaping):
// those escapes are written back as the characters, the same JSON, as a person types it.
func compact(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	if s == "" {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		return s
	}
	return unescapeHTML(b.String())
}

// unescapeHTML replaces the escapes \u0026, \u003c and \u003e in JSON strings with &, < and
// > (any case of the hex digits); other escapes, an escaped backslash among them, stay.
func unescapeHTML(s string) string {
	if !strings.Contains(s, `\u00`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		if i+6 <= len(s) && s[i+1] == 'u' {
			if c, ok := map[string]byte{"0026": '&', "003c": '<', "003e": '>'}[strings.ToLower(s[i+2:i+6])]; ok {
				b.WriteByte(c)
				i += 5
				continue
			}
		}
		b.WriteString(s[i : i+2]) // an escape pair, kept whole
		i++
	}
	return b.String()
}
