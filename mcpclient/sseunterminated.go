package mcpclient

import (
	"bytes"
	"fmt"
)

// unterminated takes a request's stream that ended inside an event: the SSE rules discard
// an event without the blank line that dispatches it (HTML §9.2.6 "Interpreting an event
// stream": at the end of the stream, an event still being built is not dispatched), so a
// browser's EventSource never sees it. When its data is the response the request waits for,
// mcp-inspect says so and takes it, so the request does not wait out its timeout for what
// already arrived; with Strict the violation stops the session instead.
func (t *streamable) unterminated(f outFrame, fr *SSEFrame) {
	data := unterminatedData(fr.Raw)
	if len(data) == 0 {
		return
	}
	k, m, _ := Classify(append(append([]byte(nil), data...), '\n'))
	if (k != KindResponse && k != KindErrorResponse) || m == nil || idKey(m.ID) != idKey(f.msg.ID) {
		return
	}
	did := "mcp-inspect took its data as the response (--strict refuses it)"
	if t.c.cfg.Strict {
		did = "--strict refuses it"
	}
	t.c.problem(Problem{Warning, CodeSSEUnterminated, fmt.Sprintf("the stream of %s ended inside the event holding its response, without the blank line that ends an event: the SSE rules discard such an event (HTML §9.2.6), so clients that follow them never get this response; %s", f.label(), did)})
	if t.c.cfg.Strict {
		return
	}
	t.noteResult(f, data)
	t.c.handleBody(data)
}

// unterminatedData joins the data fields of an event's lines as the SSE rules would have,
// the last line's too though it has no line ending (a stream cut right after the JSON).
func unterminatedData(raw []byte) []byte {
	var out [][]byte
	lines := bytes.FieldsFunc(raw, func(r rune) bool { return r == '\n' || r == '\r' })
	for _, l := range lines {
		v, ok := bytes.CutPrefix(l, []byte("data:"))
		if !ok {
			continue
		}
		out = append(out, bytes.TrimPrefix(v, []byte(" ")))
	}
	return bytes.Join(out, []byte("\n"))
}
