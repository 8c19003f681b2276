package mcpclient

// Answering what the server asks of the client (legacy server→client requests).

import (
	"encoding/json"
	"errors"
	"sync"
)

// ServerRequest is something the server asks of the client: in the legacy era a
// server→client JSON-RPC request (sampling/createMessage, roots/list, elicitation/create, ...;
// MCP 2025-11-25 client/*), in the modern era one entry of an input_required result's
// inputRequests (MCP 2026-07-28 basic/patterns/mrtr). Exactly one of Respond or Fail must be
// called; until then the server (or the retry) waits.
type ServerRequest struct {
	// Method and Params say what is asked.
	Method string
	Params json.RawMessage
	// Msg is the legacy request envelope (nil for a modern input request).
	Msg *Message
	// Seq is the event that carried the request: the request itself (legacy) or the
	// input_required response (modern).
	Seq uint64
	// InputKey names the modern input request inside inputRequests; empty in the legacy era.
	InputKey string
	respond  func(json.RawMessage, *RPCError) error
	once     sync.Once
}

// Respond answers with a result (for example an ElicitResult or a CreateMessageResult).
func (r *ServerRequest) Respond(result json.RawMessage) error {
	err := errors.New("already answered")
	r.once.Do(func() { err = r.respond(result, nil) })
	return err
}

// Fail answers with a JSON-RPC error (legacy), or abandons the modern retry with it.
func (r *ServerRequest) Fail(e *RPCError) error {
	err := errors.New("already answered")
	r.once.Do(func() { err = r.respond(nil, e) })
	return err
}

func (c *Client) answerServerRequest(m *Message, seq uint64, capOK bool) {
	defer c.answering.Add(-1)
	reply := func(result json.RawMessage, e *RPCError) error { return c.reply(m.ID, result, e) }
	if m.Method == "ping" {
		_ = reply(json.RawMessage(`{}`), nil)
		return
	}
	if capOK && c.cfg.OnServerRequest != nil {
		c.cfg.OnServerRequest(&ServerRequest{Method: m.Method, Params: m.Params, Msg: m, Seq: seq, respond: reply})
		return
	}
	_ = reply(nil, &RPCError{Code: -32601, Message: "Method not found: mcp-inspect does not handle " + m.Method})
}

func (c *Client) reply(id json.RawMessage, result json.RawMessage, e *RPCError) error {
	msg := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result,omitempty"`
		Error   *RPCError       `json:"error,omitempty"`
	}{"2.0", id, result, e}
	if id == nil {
		msg.ID = json.RawMessage("null")
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.awaitingUser > 0 {
		c.awaitingUser--
	}
	return c.writeLocked(b)
}
