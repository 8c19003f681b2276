// Package mcpclient is mcp-inspect's wire layer and MCP client: it spawns a stdio MCP
// server, frames its stdout itself, classifies every frame, pairs JSON-RPC responses with
// requests, runs the handshake and exposes everything that happened as one ordered stream
// of events. It never imports bubbletea or the ui package.
//
// Framing follows MCP's stdio transport (every revision, e.g. MCP 2025-11-25
// basic/transports §stdio): newline-delimited JSON-RPC 2.0, UTF-8, no embedded newlines.
// A frame that breaks those rules is shown and counted, never fatal.
package mcpclient

import (
	"encoding/json"
	"time"
)

// Direction says where an event came from.
type Direction uint8

const (
	// ClientToServer is a frame we wrote to the server's stdin.
	ClientToServer Direction = iota + 1
	// ServerToClient is a frame read from the server's stdout.
	ServerToClient
	// Stderr is one line the server wrote to its stderr.
	Stderr
	// Lifecycle is something that happened to the process or session (spawn, exit, ...).
	Lifecycle
	// HTTPOut is an HTTP request as sent: request line, headers and body, exact bytes
	// (KindHTTPRequest). The JSON-RPC message in the body is a ClientToServer event too.
	HTTPOut
	// HTTPIn is what an HTTP response brought: its status line and headers
	// (KindHTTPResponse), a body that is not an event stream (KindHTTPBody), or one SSE frame
	// of an event stream (KindSSEFrame). A JSON-RPC message in a body or a frame is a
	// ServerToClient event too.
	HTTPIn
)

// String gives the short label used in the wire pane and in traces: "c2s", "s2c", "stderr", "event".
func (d Direction) String() string {
	switch d {
	case ClientToServer:
		return "c2s"
	case ServerToClient:
		return "s2c"
	case Stderr:
		return "stderr"
	case Lifecycle:
		return "event"
	case HTTPOut:
		return "http>"
	case HTTPIn:
		return "http<"
	}
	return "?"
}

// Kind classifies a frame (JSON-RPC 2.0 §4-5; MCP basic/index "Messages").
type Kind uint8

const (
	// KindRequest has a method and an id.
	KindRequest Kind = iota + 1
	// KindNotification has a method and no id.
	KindNotification
	// KindResponse has an id and a result.
	KindResponse
	// KindErrorResponse has an id (possibly null) and an error object.
	KindErrorResponse
	// KindBatch is a JSON array (JSON-RPC batch; allowed only in MCP 2025-03-26).
	KindBatch
	// KindNotJSONRPC is valid JSON that is not a JSON-RPC 2.0 message (case B01b).
	KindNotJSONRPC
	// KindNotJSON is a line that does not parse as JSON (case B01).
	KindNotJSON
	// KindEmpty is an empty line (only a line ending).
	KindEmpty
	// KindOversize is a line longer than the configured maximum; only its head is kept.
	KindOversize
	// KindHeader is an LSP-style "Content-Length:"/"Content-Type:" header line, which MCP never allows.
	KindHeader
	// KindPartial is bytes left without a final newline when the stream ended.
	KindPartial
	// KindStderr is a stderr line.
	KindStderr
	// KindLifecycle is a lifecycle event.
	KindLifecycle
	// KindHTTPRequest is an HTTP request as sent (HTTPOut).
	KindHTTPRequest
	// KindHTTPResponse is an HTTP response's status line and headers (HTTPIn).
	KindHTTPResponse
	// KindSSEFrame is one Server-Sent Events frame of a response body (HTTPIn).
	KindSSEFrame
	// KindHTTPBody is a response body that is not an event stream, as received (after
	// chunked decoding): a JSON answer (its message is a ServerToClient event too) or an
	// error page.
	KindHTTPBody
	// KindHTTPEncoded is a content-encoded response body (or SSE stream) as received, before
	// decoding (HTTPIn): Raw holds the bytes on the wire up to the message limit, Size all
	// of them, Encoding the coding and the decoded size. The decoded body follows as
	// KindHTTPBody (a stream's frames come before it, as they were decoded).
	KindHTTPEncoded
)

// String names the kind in words, as the wire pane shows it.
func (k Kind) String() string {
	switch k {
	case KindRequest:
		return "request"
	case KindNotification:
		return "notification"
	case KindResponse:
		return "response"
	case KindErrorResponse:
		return "error"
	case KindBatch:
		return "batch"
	case KindNotJSONRPC:
		return "not JSON-RPC"
	case KindNotJSON:
		return "not JSON"
	case KindEmpty:
		return "empty line"
	case KindOversize:
		return "oversize"
	case KindHeader:
		return "LSP header"
	case KindPartial:
		return "partial line"
	case KindStderr:
		return "stderr"
	case KindLifecycle:
		return "lifecycle"
	case KindHTTPRequest:
		return "http req"
	case KindHTTPResponse:
		return "http resp"
	case KindSSEFrame:
		return "sse frame"
	case KindHTTPBody:
		return "http body"
	case KindHTTPEncoded:
		return "http encoded"
	}
	return "unknown"
}

// IsMessage reports whether the kind is a well-formed JSON-RPC message.
func (k Kind) IsMessage() bool {
	return k == KindRequest || k == KindNotification || k == KindResponse || k == KindErrorResponse
}

// Severity ranks a Problem.
type Severity uint8

const (
	// Info is worth knowing but allowed (a CRLF line ending, for example).
	Info Severity = iota + 1
	// Warning is a protocol violation the session survives; it is counted.
	Warning
)

// Problem is one finding about a frame: a protocol violation or a notable detail.
// Code is a stable short identifier (one of the Code* constants) for filters and tests;
// Text says it in words, with byte offsets where they help.
type Problem struct {
	Severity Severity
	Code     ProblemCode
	Text     string
}

// Message is the lenient JSON-RPC 2.0 envelope of a frame. Fields the client does not need to
// understand stay raw; ID is the raw JSON of the id (string, number, or null), nil when absent.
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

// Event is one entry of the session timeline: a frame on the wire, a stderr line or a
// lifecycle change. Events are immutable once emitted and arrive in Seq order.
type Event struct {
	// Seq numbers events from 1 in the order they happened.
	Seq uint64
	// Time is when the frame was complete (read) or written; it carries a monotonic reading.
	Time time.Time
	Dir  Direction
	Kind Kind
	// Raw is the exact bytes, including the line ending. For KindOversize only the head is kept
	// (Size has the full length).
	Raw []byte
	// Size is the frame's length in bytes on the wire.
	Size int64
	// Offset is the byte offset of the frame's first byte in its stream (stdout or stdin); Line is
	// its 1-based line number there.
	Offset int64
	Line   int64
	// Chunks are the offsets inside Raw where a new read() began (0 excluded); a frame that
	// arrived in one read has none. Capped at MaxChunkMarks entries; ChunkCount has the true count.
	Chunks     []int
	ChunkCount int
	// Msg is the parsed envelope for JSON-RPC messages, nil otherwise.
	Msg *Message
	// Problems found in this frame; empty for a clean message.
	Problems []Problem
	// Pair links a response to its request's Seq (and, for requests, is 0: the UI links back).
	Pair uint64
	// Method is the method of the request a response answers, for display.
	Method string
	// Life is set for Lifecycle events.
	Life *LifeInfo
	// Batch is set for KindBatch frames once a Pairer has seen them: each element
	// classified and paired.
	Batch *Batch
	// LostLines counts the trace lines just before this event that a trace reader could
	// not read (events missing from a recording); 0 on a live event.
	LostLines int
	// Encoding is set for KindHTTPEncoded: how the bytes decode.
	Encoding *Encoding
	// Exchange links a JSON-RPC message to the HTTP exchange it travelled in: for a
	// message read from an HTTP body or SSE event (ServerToClient), the Seq of the
	// exchange's request (KindHTTPRequest); for an HTTP request, the Seq of the JSON-RPC
	// message event its body carries. 0 when there is none (stdio, a GET, a hop of the
	// authorization).
	Exchange uint64
	// Written is set on a frame a tap wrote itself rather than forwarded as it came:
	// NoteEdited (sent in place of a frame: an attach's edit, an --inject rule's
	// replacement) or NoteInjected (a message no side sent: an answer in the receiver's
	// place). The lifecycle note before it says why. "" for everything else.
	Written NoteCond
}

// Encoding says how a content-encoded HTTP body decodes (RFC 9110 §8.4).
type Encoding struct {
	// Coding is the Content-Encoding value ("gzip", "br, gzip").
	Coding string
	// Decoded is the decoded length in bytes (what was decoded before an error, if any).
	Decoded int64
	// Err is why the body did not decode ("" when it did).
	Err string
}

// MaxChunkMarks caps Event.Chunks so a byte-per-write server cannot make an event grow without bound.
const MaxChunkMarks = 256

// LifeKind names a lifecycle change.
type LifeKind uint8

const (
	// LifeStarted: the process was spawned (PID set).
	LifeStarted LifeKind = iota + 1
	// LifeSpawnFailed: the process could not be started (Err set).
	LifeSpawnFailed
	// LifeStdoutClosed: the server closed its stdout.
	LifeStdoutClosed
	// LifeExited: the process ended (ExitCode or Signal set).
	LifeExited
	// LifeInitialized: the handshake finished (Text has the negotiated version).
	LifeInitialized
	// LifeHandshakeFailed: initialize failed (Err set).
	LifeHandshakeFailed
	// LifeShutdown: we began shutting the server down (Text says which step).
	LifeShutdown
	// LifeNote: anything else worth a line in the timeline (Text).
	LifeNote
)

// LifeInfo details a Lifecycle event.
type LifeInfo struct {
	Kind LifeKind
	PID  int
	// ExitCode is the process exit status, or -1 when it died by a signal.
	ExitCode int
	// Signal names the signal that killed the process ("killed", "terminated"), empty otherwise.
	Signal string
	Err    error
	Text   string
	// Cond names the condition a LifeNote reports, for code that acts on it (NoteStreamLost);
	// empty for a note that is only text.
	Cond NoteCond
}

// NoteCond is the condition a lifecycle note reports, so that what acts on a note reads a
// typed value, not the note's wording.
type NoteCond string

// NoteEdited and NoteInjected are the conditions of a note on a frame sent changed (in
// place of what came) and on a message no side sent (an answer in the receiver's place), and
// the values of Event.Written on what was sent.
const (
	NoteEdited   NoteCond = "edited"
	NoteInjected NoteCond = "injected"
)

// NoteStreamLost: an HTTP session's GET stream for server messages ended for good (it could
// not be opened or reopened, or the server stopped offering it); requests may still work.
const NoteStreamLost NoteCond = "stream-lost"
