// Package stdioserver holds the few JSON-RPC 2.0 pieces that the embedded demo server
// (internal/demo) and the fake test servers (internal/fake/fakeserver) share: a lenient
// message type, a line reader without a length limit, and a writer that puts each frame on
// the wire in one Write call under a lock.
//
// Framing is the MCP stdio transport's: newline-delimited JSON, one message per line, no
// embedded newlines (MCP 2025-11-25 basic/transports §stdio, the same in every revision).
// It is deliberately the standard library only, so the fake servers can misbehave at the
// byte level.
package stdioserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"
)

// JSON-RPC 2.0 and MCP error codes (MCP 2025-11-25 schema.ts; JSON-RPC 2.0 §5.1).
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	// CodeResourceNotFound is MCP's "resource not found" up to 2025-11-25 (server/resources).
	CodeResourceNotFound = -32002
)

// Message is one JSON-RPC 2.0 message of any kind, decoded leniently. Fields the servers
// pass through untouched stay as raw bytes: ID keeps the exact JSON type and value the peer
// used (a request id may be a string or an integer, and must be echoed as such), and Params
// and Result keep the peer's exact bytes. ID is nil when the key is absent and the four
// bytes "null" when the peer sent null.
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// IsRequest reports whether m is a request: it has a method and an id.
func (m *Message) IsRequest() bool { return m.Method != "" && m.ID != nil }

// IsNotification reports whether m is a notification: a method and no id.
func (m *Message) IsNotification() bool { return m.Method != "" && m.ID == nil }

// IsResponse reports whether m is a response: no method, and a result or an error.
func (m *Message) IsResponse() bool {
	return m.Method == "" && (m.Result != nil || m.Error != nil)
}

// Error is a JSON-RPC 2.0 error object. It implements the error interface so handlers can
// return it directly.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error returns the error's message.
func (e *Error) Error() string { return e.Message }

// Parse decodes one line as a JSON-RPC message. It returns an error when the line is not a
// JSON object; it does not check that the object is a well-formed JSON-RPC message.
func Parse(line []byte) (*Message, error) {
	var m Message
	if err := json.Unmarshal(line, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// IDKey returns a comparable key for a request id: its compact JSON text, so 7 and "7"
// stay different ids, as JSON-RPC requires, while insignificant whitespace does not matter.
func IDKey(id json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, id); err != nil {
		return string(id)
	}
	return b.String()
}

// ReadLine returns the next line from r without its "\n" or "\r\n" terminator. Lines may be
// of any length (no bufio.Scanner limit). A last line without a terminator is returned with
// a nil error; io.EOF is returned only when no bytes are left.
func ReadLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadBytes('\n')
	if len(line) == 0 {
		if err == nil {
			err = io.EOF
		}
		return nil, err
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, err
}

// Writer writes frames to a stream, one frame per Write call, serialized by a mutex, so
// concurrent handlers never interleave bytes of two messages.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter returns a Writer on w. w is typically os.Stdout or the out stream of a Serve
// function.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// WriteFrame writes b exactly as given (the caller includes the trailing "\n") in one Write
// call.
func (w *Writer) WriteFrame(b []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err := w.w.Write(b)
	return err
}

// Locked runs fn with exclusive use of the underlying stream, for writes that must be
// spread over several Write calls (split or byte-by-byte frames) without another frame
// slipping in between.
func (w *Writer) Locked(fn func(io.Writer) error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return fn(w.w)
}

// Encode marshals v as one compact JSON line ending in "\n". HTML escaping is off, so
// "<", ">" and "&" travel as themselves, as other MCP implementations write them.
func Encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Send marshals v with Encode and writes it as one frame.
func (w *Writer) Send(v any) error {
	b, err := Encode(v)
	if err != nil {
		return err
	}
	return w.WriteFrame(b)
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  any             `json:"params,omitempty"`
}

func orNull(id json.RawMessage) json.RawMessage {
	if len(id) == 0 {
		return json.RawMessage("null")
	}
	return id
}

// Respond writes a success response for the request with the given id. A nil result is
// sent as {} (an MCP empty result, e.g. for ping).
func (w *Writer) Respond(id json.RawMessage, result any) error {
	if result == nil {
		result = struct{}{}
	}
	return w.Send(response{JSONRPC: "2.0", ID: orNull(id), Result: result})
}

// RespondError writes an error response. A nil id is sent as null, as JSON-RPC requires
// when the request's id could not be read. data may be nil.
func (w *Writer) RespondError(id json.RawMessage, code int, message string, data any) error {
	e := &Error{Code: code, Message: message}
	if data != nil {
		b, err := json.Marshal(data)
		if err != nil {
			return err
		}
		e.Data = b
	}
	return w.Send(response{JSONRPC: "2.0", ID: orNull(id), Error: e})
}

// Notify writes a notification. params may be nil to omit the key.
func (w *Writer) Notify(method string, params any) error {
	return w.Send(notification{JSONRPC: "2.0", Method: method, Params: params})
}

// Request writes a request (a server-to-client request such as sampling/createMessage, in
// the legacy era). params may be nil to omit the key.
func (w *Writer) Request(id json.RawMessage, method string, params any) error {
	return w.Send(request{JSONRPC: "2.0", ID: orNull(id), Method: method, Params: params})
}
