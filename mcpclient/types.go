package mcpclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
)

// LatestProtocolVersion is the legacy-era revision sent in initialize by default
// (MCP 2025-11-25 basic/lifecycle).
const LatestProtocolVersion = "2025-11-25"

// ModernProtocolVersion is the stateless revision (MCP 2026-07-28).
const ModernProtocolVersion = "2026-07-28"

// KnownProtocolVersion reports whether v is a dated MCP revision: 2024-11-05, 2025-03-26,
// 2025-06-18, 2025-11-25 or 2026-07-28.
func KnownProtocolVersion(v string) bool {
	switch v {
	case "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28":
		return true
	}
	return false
}

// Implementation names a client or server (MCP 2025-11-25 schema "Implementation").
type Implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// InitializeResult is the server's answer to initialize (MCP 2025-11-25 basic/lifecycle).
// Capabilities stays raw so nothing the server advertised is lost; Caps has the parts the
// client acts on.
type InitializeResult struct {
	ProtocolVersion string             `json:"protocolVersion"`
	Capabilities    json.RawMessage    `json:"capabilities"`
	ServerInfo      Implementation     `json:"serverInfo"`
	Instructions    string             `json:"instructions,omitempty"`
	Caps            ServerCapabilities `json:"-"`
	// Era is the era the session speaks; Discover is the server/discover result (modern).
	Era      Era             `json:"-"`
	Discover *DiscoverResult `json:"-"`
	// Warnings about the handshake (an unknown protocol version, for example).
	Warnings []string `json:"-"`
	// Notes about the handshake that are no fault: the server negotiated an older known
	// revision than the one requested (MCP basic/lifecycle §Version Negotiation).
	Notes []string `json:"-"`
	// Requested is the protocol version the client asked for in initialize ("" when not
	// known, e.g. a modern session).
	Requested string `json:"-"`
}

// ServerCapabilities says which features a server offers (MCP 2025-11-25 schema
// "ServerCapabilities"); a nil pointer means the capability is absent.
type ServerCapabilities struct {
	Tools       *ListChangedCap `json:"tools,omitempty"`
	Resources   *ResourcesCap   `json:"resources,omitempty"`
	Prompts     *ListChangedCap `json:"prompts,omitempty"`
	Logging     json.RawMessage `json:"logging,omitempty"`
	Completions json.RawMessage `json:"completions,omitempty"`
	Tasks       json.RawMessage `json:"tasks,omitempty"`
}

// ListChangedCap is a capability with an optional listChanged flag.
type ListChangedCap struct {
	ListChanged bool `json:"listChanged,omitempty"`
}

// ResourcesCap is the resources capability.
type ResourcesCap struct {
	Subscribe   bool `json:"subscribe,omitempty"`
	ListChanged bool `json:"listChanged,omitempty"`
}

// Tool is one MCP tool (MCP 2025-11-25 server/tools "Tool"). Schemas stay raw: the form
// engine reads them, and nothing is lost in a round trip.
type Tool struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitempty"`
	Description  string           `json:"description,omitempty"`
	InputSchema  json.RawMessage  `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage  `json:"outputSchema,omitempty"`
	Annotations  *ToolAnnotations `json:"annotations,omitempty"`
	Execution    json.RawMessage  `json:"execution,omitempty"`
	Meta         json.RawMessage  `json:"_meta,omitempty"`
}

// DisplayName follows the spec's precedence: title, then annotations.title, then name.
func (t Tool) DisplayName() string {
	if t.Title != "" {
		return t.Title
	}
	if t.Annotations != nil && t.Annotations.Title != "" {
		return t.Annotations.Title
	}
	return t.Name
}

// ToolAnnotations are untrusted hints about a tool (MCP 2025-03-26 and later). Pointers
// distinguish "absent" (the spec default applies) from an explicit false.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// CallToolResult is the result of tools/call (MCP 2025-11-25 server/tools). Content blocks
// of unknown types are kept (ContentBlock.Raw), never an error.
type CallToolResult struct {
	Content           []ContentBlock  `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	Meta              json.RawMessage `json:"_meta,omitempty"`
}

// ContentBlock is one content item (MCP 2025-11-25 schema "ContentBlock"): text, image,
// audio, resource_link, resource, or anything newer (kept in Raw).
type ContentBlock struct {
	Type        string            `json:"type"`
	Text        string            `json:"text,omitempty"`
	Data        string            `json:"data,omitempty"`
	MimeType    string            `json:"mimeType,omitempty"`
	URI         string            `json:"uri,omitempty"`
	Name        string            `json:"name,omitempty"`
	Title       string            `json:"title,omitempty"`
	Description string            `json:"description,omitempty"`
	Size        *int64            `json:"size,omitempty"`
	Resource    *ResourceContents `json:"resource,omitempty"`
	// Raw is the block exactly as received; nil for a text, image or audio block of more
	// than MaxRawBlock bytes, whose Text or Data already holds its content (the response
	// frame has its bytes), so a huge result is not kept twice.
	Raw json.RawMessage `json:"-"`
}

// MaxRawBlock is the size above which a decoded text, image or audio ContentBlock does not
// keep its Raw copy: 1 MiB.
const MaxRawBlock = 1 << 20

// UnmarshalJSON decodes leniently and keeps the raw block (see Raw).
func (c *ContentBlock) UnmarshalJSON(b []byte) error {
	type plain ContentBlock
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		// A block of an unexpected shape is still shown raw.
		*c = ContentBlock{Raw: append(json.RawMessage(nil), b...)}
		return nil
	}
	*c = ContentBlock(p)
	switch {
	case len(b) > MaxRawBlock && c.Type == "text" && c.Text != "":
	case len(b) > MaxRawBlock && (c.Type == "image" || c.Type == "audio") && c.Data != "":
	default:
		c.Raw = append(json.RawMessage(nil), b...)
	}
	return nil
}

// KnownContentType reports whether t is a content block type of some MCP revision.
func KnownContentType(t string) bool {
	switch t {
	case "text", "image", "audio", "resource", "resource_link", "tool_use", "tool_result":
		return true
	}
	return false
}

// ResourceContents is text or blob contents of a resource (MCP schema
// "TextResourceContents" | "BlobResourceContents").
type ResourceContents struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
}

// RPCError is a JSON-RPC 2.0 error object; it is also the Go error returned for an error
// response.
type RPCError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error gives "code N: message".
func (e *RPCError) Error() string {
	s := fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message)
	if name := ErrorCodeName(e.Code); name != "" {
		s = fmt.Sprintf("JSON-RPC error %d (%s): %s", e.Code, name, e.Message)
	}
	return s
}

// ErrorCodeName names the standard JSON-RPC and MCP error codes (JSON-RPC 2.0 §5.1;
// MCP 2026-07-28 basic/index), "" for others.
func ErrorCodeName(code int64) string {
	switch code {
	case -32700:
		return "parse error"
	case -32600:
		return "invalid request"
	case -32601:
		return "method not found"
	case -32602:
		return "invalid params"
	case -32603:
		return "internal error"
	case -32002:
		return "resource not found"
	case -32021:
		return "missing required client capability"
	case -32022:
		return "unsupported protocol version"
	case -32042:
		return "URL elicitation required"
	}
	return ""
}

// SpawnError says the server process could not be started.
type SpawnError struct {
	Argv []string
	Err  error
}

func (e *SpawnError) Error() string {
	msg := fmt.Sprintf("cannot start server %s: %v", sanitize.QuotePath(strings.Join(e.Argv, " ")), e.Err)
	if errors.Is(e.Err, exec.ErrDot) && len(e.Argv) > 0 {
		// Go runs no program found through the current directory by a bare name (cmd.exe
		// would; PowerShell and a PATH holding "." need it spelled out).
		msg += "; to run the one in the current directory, give its path: ." + string(filepath.Separator) + e.Argv[0]
	}
	return msg
}

func (e *SpawnError) Unwrap() error { return e.Err }

// ExitError says the server is gone: it exited, was killed, or closed its stdout. It names the
// request that was pending when that happened and carries the last stderr lines
// (case B09, B10).
type ExitError struct {
	PID int
	// ExitCode is the exit status, -1 when killed by a signal or still running. On Windows
	// it is the whole 32-bit code (NTSTATUS values such as 0xC0000005 included).
	ExitCode int
	// Signal names the signal that ended it ("KILL", "SEGV"); never set on Windows.
	Signal string
	// StdoutClosed is set when the process is still running but closed its stdout.
	StdoutClosed bool
	// Pending names the request that failed ("request id 3 (tools/call crash)"); empty when none.
	Pending string
	// Stderr holds the last stderr lines, oldest first.
	Stderr []string
	// NotSent is set when the request was refused before it was written, because the server
	// was already gone.
	NotSent bool
}

// How says how the server ended in words: "exited with code 2", "was killed by signal KILL",
// "exited with code 3221225477 (0xC0000005: access violation)".
func (e *ExitError) How() string {
	switch {
	case e.StdoutClosed:
		return fmt.Sprintf("closed its stdout (pid %d still running)", e.PID)
	case e.Signal != "":
		return "was killed by signal " + e.Signal
	default:
		return "exited with " + platform.ExitCodeText(e.ExitCode)
	}
}

func (e *ExitError) Error() string {
	s := "server " + e.How()
	switch {
	case e.Pending != "" && e.NotSent:
		s = "cannot send " + e.Pending + ": " + s
	case e.Pending != "":
		s += " while " + e.Pending + " was pending"
	}
	if n := len(e.Stderr); n > 0 {
		s += "; last stderr: " + e.Stderr[n-1]
	}
	return s
}

// OversizeError says a response was longer than Config.MaxMessage, so it was kept only in
// part (its head, for display) and not parsed.
type OversizeError struct {
	Request string
	Size    int64
	Limit   int
}

func (e *OversizeError) Error() string {
	return fmt.Sprintf("%s: the response is %d bytes, over the %d-byte limit (--max-message raises it); it was recorded in part and not parsed", e.Request, e.Size, e.Limit)
}

// TimeoutError says a request got no response in time. Idle is the per-request timeout
// (reset by progress); Max the overall limit.
type TimeoutError struct {
	Request string
	After   time.Duration
	Max     bool
	// From says where the timeout came from when not from --timeout (Config.TimeoutFrom).
	From string
	// Meanwhile describes the responses that answered no request while this one waited
	// (an unknown id, or the right value in the other JSON type): often the lost answer.
	Meanwhile []string
	// FirstIDZero is set when the request was initialize with id 0 (--first-id 0), which
	// some servers drop.
	FirstIDZero bool
	// Silent is what the client said of a stdio server that wrote nothing at all
	// (silence.go, without SilenceNote), "" when the server spoke or nothing was said.
	Silent string
}

// timeoutWhat says which timeout ran out and how to change it.
func (e *TimeoutError) timeoutWhat() string {
	if e.From != "" {
		return "timeout " + e.After.Round(time.Millisecond).String() + " from " + e.From + "; --timeout changes it"
	}
	return "timeout; --timeout changes it"
}

func (e *TimeoutError) Error() string {
	var s string
	if e.Max {
		s = fmt.Sprintf("%s: no response after %s (overall maximum reached, even with progress)", e.Request, e.After.Round(time.Millisecond))
	} else {
		s = fmt.Sprintf("%s: no response after %s (%s)", e.Request, e.After.Round(time.Millisecond), e.timeoutWhat())
	}
	if len(e.Meanwhile) > 0 {
		s += "; meanwhile " + strings.Join(e.Meanwhile, "; ")
	}
	if e.FirstIDZero {
		s += "; initialize carried id 0 because of --first-id 0, and some servers drop a request with id 0: try without it"
	}
	if e.Silent != "" {
		s += "; the server wrote nothing at all: " + e.Silent
	}
	return s
}
