package mcpclient

import (
	"bytes"
	"encoding/json"
)

// Held frames: mcp-inspect's breakpoints on what the server sends (not MCP's). A client
// with Config.Intercept shows each server→client message to it before handling it; the
// hook may hold it (block) until the user decides, and say what becomes of it.

// Interceptor is Config.Intercept.
type Interceptor interface {
	// Active reports whether Intercept is to see frames now (breakpoints are set); it is
	// asked for every frame, so it must be cheap.
	Active() bool
	// Intercept sees one message and says what becomes of it; it may block.
	Intercept(*Intercepted) Verdict
}

// InterceptKind is what becomes of an intercepted frame.
type InterceptKind uint8

const (
	// InterceptPass handles the frame as it came.
	InterceptPass InterceptKind = iota
	// InterceptReplace handles Verdict.Raw in its place (an edit).
	InterceptReplace
	// InterceptDrop handles nothing: a dropped response leaves its request waiting (to its
	// timeout), a dropped server request is never answered.
	InterceptDrop
	// InterceptAnswer writes Verdict.Raw to the server (an answer to a held server
	// request, the user's) and handles nothing.
	InterceptAnswer
)

// Verdict is an Intercept hook's word on a frame.
type Verdict struct {
	Kind InterceptKind
	// Raw is the replacement (InterceptReplace) or the answer (InterceptAnswer): one JSON
	// value, compacted to one line before it is handled or sent.
	Raw []byte
	// Note is a lifecycle note recorded after the original frame (empty: none); Cond its
	// condition.
	Note string
	Cond NoteCond
}

// Intercepted is a server→client message as an Intercept hook sees it: classified, not yet
// handled, paired or recorded.
type Intercepted struct {
	Raw  []byte
	Kind Kind
	Msg  *Message
	// Method is the request's or notification's method, or for a response the method of
	// the request it answers when that request is pending ("" otherwise).
	Method string
	// Tool is, for a response to a pending tools/call, the tool it called ("" otherwise):
	// a hold names the response by it ("response id 3 (tools/call echo)").
	Tool string
	// Note records a lifecycle note at once (a hook says it holds the frame).
	Note func(cond NoteCond, text string)
}

// intercept shows f to the Intercept hook; it reports whether f (possibly replaced) is to
// be handled. What the hook did not pass is recorded as it came, unpaired and unrouted,
// then the note, then, for an answer, what was sent.
func (c *Client) intercept(f *Frame) bool {
	var in Intercepted
	var probs []Problem
	if c.tr != nil {
		in.Kind, in.Msg, probs = ClassifyBody(f.Raw)
	} else {
		in.Kind, in.Msg, probs = Classify(f.Raw)
	}
	if !in.Kind.IsMessage() || in.Kind == KindBatch {
		return true
	}
	in.Raw, in.Note = f.Raw, c.noteCond
	if in.Msg != nil {
		in.Method = in.Msg.Method
		if in.Kind == KindResponse || in.Kind == KindErrorResponse {
			c.mu.Lock()
			in.Method = c.pairer.pending[IDKey(in.Msg.ID)].method
			var params any
			if p, ok := c.pendingByID(in.Msg.ID); ok && in.Method == "tools/call" {
				params = p.params
			}
			c.mu.Unlock()
			if params != nil {
				in.Tool = requestLabel("tools/call", params)
			}
		}
	}
	v := c.cfg.Intercept.Intercept(&in)
	if v.Kind == InterceptPass {
		if v.Note != "" {
			c.noteCond(v.Cond, v.Note) // then the frame, as it is handled
		}
		return true
	}
	c.heard.Store(true)
	c.emit(Event{Dir: ServerToClient, Raw: f.Raw, Size: f.Size, Offset: f.Offset, Line: f.Line, Exchange: f.Exchange,
		Kind: in.Kind, Msg: in.Msg, Problems: probs})
	if v.Note != "" {
		c.noteCond(v.Cond, v.Note)
	}
	var b bytes.Buffer
	if v.Kind != InterceptDrop && json.Compact(&b, v.Raw) != nil {
		c.noteCond(v.Cond, "the replacement is not JSON: nothing handled")
		return false
	}
	switch v.Kind {
	case InterceptReplace:
		// The replacement keeps the original's line ending (a frame of the stdio stream
		// carries it; a body or SSE data has none).
		raw := append(b.Bytes(), f.Raw[len(bytes.TrimRight(f.Raw, "\r\n")):]...)
		f.Raw, f.Size, f.Offset, f.Line = raw, int64(len(raw)), 0, 0
		return true
	case InterceptAnswer:
		c.mu.Lock()
		err := c.writeLocked(b.Bytes())
		c.mu.Unlock()
		if err != nil {
			c.noteCond(v.Cond, "sending the answer failed: "+err.Error())
		}
	}
	return false
}
