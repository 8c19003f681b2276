package mcpclient

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// The request frame of the common case, written straight into one buffer: what
// json.Marshal of the envelope over buildParams' output writes, byte for byte, without its
// reflection, its second scan of params and the five allocations in between (a legacy-era
// request whose params are nil or a json.RawMessage, as bench call, the TUI's forms and the
// typed helpers send). Anything else takes the general path.

// requestFrame is one request built by appendRequestFrame: frame is the wire line with its
// "\n"; id and params are slices of it.
type requestFrame struct {
	frame  []byte
	id     json.RawMessage
	params json.RawMessage
}

// appendRequestFrame builds the request line for id, method and params, with
// params._meta.progressToken set to id when token is set; ok is false when the fast path
// does not apply (then nothing is built): params neither nil nor a json.RawMessage, or
// bytes that json.Marshal would rewrite (whitespace, HTML characters, U+2028/U+2029), or
// a params object that has a _meta of its own, or is not a valid object. marshaled says
// params is json.Marshal's output (RequestOptions.ParamsMarshaled): valid, compact and
// escaped as json.Marshal writes it, so neither is checked again.
func appendRequestFrame(id int64, method string, params any, token, marshaled bool) (requestFrame, bool) {
	var raw json.RawMessage
	switch p := params.(type) {
	case nil:
	case json.RawMessage:
		raw = p
	default:
		return requestFrame{}, false
	}
	if !plainJSONString(method) || !marshaled && !plainJSON(raw) {
		return requestFrame{}, false
	}
	empty := len(raw) == 0 || string(raw) == "null"
	// A _meta of the caller's is merged by the general path; a key spelled with \u escapes
	// might be one.
	hasMeta := token && (bytes.Contains(raw, []byte(`"_meta"`)) || bytes.Contains(raw, []byte(`\u`)))
	if !empty && (raw[0] != '{' || hasMeta || !marshaled && !json.Valid(raw)) {
		return requestFrame{}, false
	}
	b := make([]byte, 0, 80+len(method)+len(raw)+2*20)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	at := len(b)
	b = strconv.AppendInt(b, id, 10)
	idEnd := len(b)
	b = append(b, `,"method":"`...)
	b = append(b, method...)
	b = append(b, '"')
	var pAt, pEnd int
	switch {
	case token:
		b = append(b, `,"params":`...)
		pAt = len(b)
		if empty {
			b = append(b, '{')
		} else {
			b = append(b, raw[:len(raw)-1]...)
			if len(raw) > 2 { // raw has no whitespace: "{}" is the only empty object
				b = append(b, ',')
			}
		}
		b = append(b, `"_meta":{"progressToken":`...)
		b = append(b, b[at:idEnd]...)
		b = append(b, "}}"...)
		pEnd = len(b)
	case len(raw) > 0:
		// json.Marshal writes a RawMessage as it is once compact (null included), and omits
		// only an empty one.
		b = append(b, `,"params":`...)
		pAt = len(b)
		b = append(b, raw...)
		pEnd = len(b)
	}
	b = append(b, "}\n"...)
	rf := requestFrame{frame: b, id: json.RawMessage(b[at:idEnd:idEnd])}
	if pEnd > pAt {
		rf.params = json.RawMessage(b[pAt:pEnd:pEnd])
	}
	return rf, true
}

// plainJSON reports whether json.Marshal (which compacts a json.RawMessage and escapes
// HTML characters and U+2028/U+2029 in it) would write b unchanged, as far as a byte scan
// tells: no whitespace, none of <, > and &, and no 0xE2 byte (the first byte of
// U+2028/U+2029, and of many other characters, which then take the general path).
func plainJSON(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r', '<', '>', '&', 0xE2:
			return false
		}
	}
	return true
}

// plainJSONString reports whether json.Marshal writes s as "s": printable ASCII without
// quote, backslash or HTML characters.
func plainJSONString(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
