package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// HoldQueue is what a viewer of a holder knows, UI-free: the holds not ended yet in arrival
// order, and the breakpoints as the holder last said it has them. Apply feeds it the
// holder's updates (Breakpoints.Updates).
type HoldQueue struct {
	// Holds are the held messages not ended yet, oldest first.
	Holds []Hold
	// Set is the breakpoints in force as the holder last said (nil until it says).
	Set *BreakpointSet
}

// Apply takes one update: a new hold joins the end of the queue, an ended one leaves it
// (ended is that hold, nil when the queue did not hold it: another viewer's, or unknown),
// a set replaces Set. A refusal changes nothing here (the caller shows it).
func (q *HoldQueue) Apply(u HoldUpdate) (ended *Hold) {
	switch {
	case u.Held != nil:
		q.Holds = append(q.Holds, *u.Held)
	case u.Ended != nil:
		for i := range q.Holds {
			if q.Holds[i].ID == u.Ended.ID {
				h := q.Holds[i]
				q.Holds = append(q.Holds[:i:i], q.Holds[i+1:]...)
				return &h
			}
		}
	case u.Set != nil:
		s := *u.Set
		s.Filters = append([]string(nil), s.Filters...)
		q.Set = &s
	}
	return nil
}

// Find is the queued hold id (nil when it is not queued).
func (q *HoldQueue) Find(id int64) *Hold {
	for i := range q.Holds {
		if q.Holds[i].ID == id {
			return &q.Holds[i]
		}
	}
	return nil
}

// CheckHeldMessage says whether text (as a user edited a held message, or wrote an answer
// to one) is one JSON-RPC 2.0 message a holder may send: one JSON object with "jsonrpc":
// "2.0", shaped as a request (method, params if any an object or an array, and an id that
// is a string or an integer), a notification (method, no id) or a response (an id and exactly one of result or error,
// the error an object with an integer code and a string message). It returns the kind, or
// an error saying what is wrong first (JSON syntax with its line and column).
func CheckHeldMessage(text []byte) (mcpclient.Kind, error) {
	trimmed := bytes.TrimSpace(text)
	if len(trimmed) == 0 {
		return 0, errors.New("empty: a JSON-RPC message is one JSON object")
	}
	var v any
	if err := json.Unmarshal(trimmed, &v); err != nil {
		return 0, jsonSyntaxError(text, err)
	}
	if _, ok := v.(map[string]any); !ok {
		return 0, errors.New("not a JSON object: a JSON-RPC message is one object (a batch is not held whole)")
	}
	var compact bytes.Buffer
	_ = json.Compact(&compact, trimmed)
	compact.WriteByte('\n')
	kind, msg, probs := mcpclient.Classify(compact.Bytes())
	for _, p := range probs {
		if p.Severity == mcpclient.Warning && p.Code != mcpclient.CodeInvalidUTF8 {
			return kind, errors.New(p.Text)
		}
	}
	if msg != nil && len(msg.Params) > 0 && msg.Params[0] != '{' && msg.Params[0] != '[' {
		return kind, errors.New("params must be an object or an array (JSON-RPC 2.0 §4.2)")
	}
	switch kind {
	case mcpclient.KindRequest, mcpclient.KindNotification, mcpclient.KindResponse, mcpclient.KindErrorResponse:
		return kind, nil
	}
	return kind, fmt.Errorf("not a JSON-RPC request, notification or response (%s)", kind)
}

// jsonSyntaxError words a decoding error of text with the line and column it is at
// (json.Unmarshal gives a *json.SyntaxError, an offset into the trimmed text).
func jsonSyntaxError(text []byte, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return fmt.Errorf("not JSON: %v", err)
	}
	lead := int64(len(text) - len(bytes.TrimLeft(text, " \t\r\n")))
	// Offset counts the bytes read, the bad one included.
	at := min(max(lead+se.Offset-1, 0), int64(len(text)))
	line := bytes.Count(text[:at], []byte("\n")) + 1
	col := at - int64(bytes.LastIndexByte(text[:at], '\n'))
	return fmt.Errorf("not JSON: line %d, column %d: %s", line, col, se.Error())
}

// AnswerTemplate is a JSON-RPC response to the held request raw, indented, for the user to
// edit: an error (code -32000, "held at a breakpoint and answered by the user") when
// isError, else an empty result; its id is the request's. ok is false when raw has no id.
func AnswerTemplate(raw []byte, isError bool) (text string, ok bool) {
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(raw, &req) != nil || len(req.ID) == 0 {
		return "", false
	}
	var out bytes.Buffer
	out.WriteString("{\n  \"jsonrpc\": \"2.0\",\n  \"id\": ")
	out.Write(bytes.TrimSpace(req.ID))
	if isError {
		out.WriteString(",\n  \"error\": {\n    \"code\": -32000,\n    \"message\": \"held at a breakpoint and answered by the user\"\n  }\n}")
	} else {
		out.WriteString(",\n  \"result\": {}\n}")
	}
	return out.String(), true
}
