package mcpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Classify inspects one frame's exact bytes (line ending included) and returns its kind,
// the parsed JSON-RPC envelope when there is one, and the problems found. It never fails:
// anything it cannot understand is a kind of its own (design.md "The wire is the source of
// truth"; JSON-RPC 2.0 §4-5; MCP 2025-11-25 basic/transports §stdio).
//
// A frame the Framer kept whole although it breaks the one-line rule is classified by its
// message: an LSP-style header block and its body (the body's kind, with CodeLSPFraming), or
// a JSON value pretty-printed over several lines (its kind, with CodeMultiline).
func Classify(raw []byte) (Kind, *Message, []Problem) {
	if hdr, body, ok := SplitHeader(raw); ok {
		return classifyHeaderFramed(hdr, body)
	}
	var probs []Problem
	body := raw
	switch {
	case bytes.HasSuffix(body, []byte("\r\n")):
		body = body[:len(body)-2]
		probs = append(probs, Problem{Info, CodeCRLF, `line ends with "\r\n" (MCP frames end with "\n")`})
	case bytes.HasSuffix(body, []byte("\n")):
		body = body[:len(body)-1]
	default:
		probs = append(probs, Problem{Warning, CodeNoNewline, "frame has no terminating newline"})
	}
	if bytes.HasPrefix(body, []byte("\xef\xbb\xbf")) {
		body = body[3:]
		probs = append(probs, Problem{Warning, CodeBOM, "frame starts with a UTF-8 byte order mark"})
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return KindEmpty, nil, append(probs, Problem{Warning, CodeEmpty, "empty line: not a JSON-RPC message"})
	}
	if i := invalidUTF8At(raw); i >= 0 {
		probs = append(probs, Problem{Warning, CodeInvalidUTF8, fmt.Sprintf("invalid UTF-8 at byte %d (% X); JSON decoders silently turn it into U+FFFD", i, raw[i:min(i+4, len(raw))])})
	}
	if trimmed[0]|0x20 == 'c' && (hasPrefixFold(trimmed, "content-length:") || hasPrefixFold(trimmed, "content-type:")) {
		return KindHeader, nil, append(probs, Problem{Warning, CodeLSPFraming,
			"server uses LSP-style Content-Length framing, which MCP does not allow; MCP stdio is one JSON message per line, and standard clients will hang"})
	}
	if n := bytes.Count(trimmed, []byte("\n")); n > 0 {
		probs = append(probs, Problem{Warning, CodeMultiline, fmt.Sprintf("one message pretty-printed over %d lines, shown reassembled; MCP stdio is newline-delimited JSON, one message per line with no newline inside, so standard clients read each line as a broken message", n+1)})
	}
	valid, uEscape, env, envOK := validEnvelope(trimmed)
	if !valid {
		lenient, found, ok := readNonFinite(trimmed)
		if !ok || !json.Valid(lenient) || lenient[0] != '{' {
			return KindNotJSON, nil, append(probs, Problem{Warning, CodeNotJSON, "not a JSON-RPC message: the line is not JSON (stdout must carry only MCP messages; log to stderr)"})
		}
		probs = append(probs, Problem{Warning, CodeNonFinite, "not JSON: " + strings.Join(found, ", ") + " (non-finite numbers, as Python's json.dumps writes them by default; JSON has none: allow_nan=False, or write null or a string); read leniently, each as null"})
		return classifyObject(lenient, probs)
	}
	if uEscape { // only a \u escape writes a surrogate
		if i := unpairedSurrogateAt(trimmed); i >= 0 {
			probs = append(probs, Problem{Warning, CodeUnpairedSurrogate, fmt.Sprintf("unpaired surrogate escape at byte %d: valid JSON syntax but not valid Unicode", i)})
		}
	}
	switch trimmed[0] {
	case '[':
		return KindBatch, nil, append(probs, Problem{Warning, CodeBatch, "JSON-RPC batch (array): only MCP 2025-03-26 allowed batches"})
	case '{':
	default:
		return KindNotJSONRPC, nil, append(probs, Problem{Warning, CodeNotJSONRPC, "JSON, not JSON-RPC: a JSON-RPC message is an object"})
	}
	if envOK {
		return classifyEnvelope(env, probs)
	}
	return classifyObject(trimmed, probs)
}

// classifyObject classifies the JSON object trimmed (valid JSON, starting with '{'): a
// frame's body or one element of a batch. probs are the problems found so far.
func classifyObject(trimmed []byte, probs []Problem) (Kind, *Message, []Problem) {
	env, ok := scanEnvelope(trimmed)
	if !ok {
		// Not expected for JSON that json.Valid accepted; say what the decoder says.
		var fields map[string]json.RawMessage
		err := json.Unmarshal(trimmed, &fields)
		if err == nil {
			err = fmt.Errorf("cannot read the object's members")
		}
		return KindNotJSONRPC, nil, append(probs, Problem{Warning, CodeNotJSONRPC, "JSON, not JSON-RPC: " + err.Error()})
	}
	return classifyEnvelope(env, probs)
}

// classifyEnvelope is classifyObject once the object's members are read.
func classifyEnvelope(env envelope, probs []Problem) (Kind, *Message, []Problem) {
	msg := &Message{}
	hasVersion := env.jsonrpc != nil
	rawID, hasID := env.id, env.id != nil
	rawMethod, hasMethod := env.method, env.method != nil
	rawResult, hasResult := env.result, env.result != nil
	rawErr, hasErr := env.err, env.err != nil
	if !hasMethod && !hasID && !hasResult && !hasErr {
		return KindNotJSONRPC, nil, append(probs, Problem{Warning, CodeNotJSONRPC, "JSON, not JSON-RPC: no jsonrpc, method, id, result or error member"})
	}
	if hasVersion {
		if string(env.jsonrpc) == `"2.0"` {
			msg.JSONRPC = "2.0" // every message: no decoder for it
		} else {
			_ = json.Unmarshal(env.jsonrpc, &msg.JSONRPC)
		}
	}
	if msg.JSONRPC != "2.0" {
		probs = append(probs, Problem{Warning, CodeJSONRPCVersion, `"jsonrpc" must be exactly "2.0"`})
	}
	if hasID {
		msg.ID = rawID
		if !validID(rawID) && !(hasErr && !hasMethod && unreadRequestError(rawID, errorCode(rawErr))) {
			probs = append(probs, Problem{Warning, CodeBadID, "id must be a string or an integer, got " + string(rawID)})
		}
	}
	if hasMethod {
		if err := json.Unmarshal(rawMethod, &msg.Method); err != nil {
			probs = append(probs, Problem{Warning, CodeBadMethod, "method must be a string"})
		}
		msg.Params = env.params
		if hasResult || hasErr {
			probs = append(probs, Problem{Warning, CodeMixed, "a message with a method must not carry result or error"})
		}
		if hasID {
			if string(rawID) == "null" {
				probs = append(probs, Problem{Warning, CodeNullID, "request id must not be null (MCP basic/index)"})
			}
			return KindRequest, msg, probs
		}
		return KindNotification, msg, probs
	}
	if !hasID {
		probs = append(probs, Problem{Warning, CodeNoID, "response without an id"})
	}
	if hasResult && hasErr {
		probs = append(probs, Problem{Warning, CodeResultAndError, "response carries both result and error"})
	}
	if hasErr {
		var e RPCError
		if err := json.Unmarshal(rawErr, &e); err != nil || bytes.Equal(bytes.TrimSpace(rawErr), []byte("null")) {
			probs = append(probs, Problem{Warning, CodeBadError, "error must be an object with an integer code and a message"})
			e = RPCError{Code: 0, Message: string(rawErr)}
		}
		msg.Error = &e
		msg.Result = rawResult
		return KindErrorResponse, msg, probs
	}
	if !hasResult {
		return KindNotJSONRPC, nil, append(probs, Problem{Warning, CodeNotJSONRPC, "JSON, not JSON-RPC: an id without method, result or error"})
	}
	msg.Result = rawResult
	return KindResponse, msg, probs
}

// SplitHeader splits an LSP-style frame (MCP never allows one) into its header block, blank
// line included, and its body: ok is false when raw does not start with a Content-Length or
// Content-Type header line or has no body after its header block.
func SplitHeader(raw []byte) (header, body []byte, ok bool) {
	if !isHeaderLine(raw) {
		return nil, nil, false
	}
	for i := 0; i < len(raw); {
		j := bytes.IndexByte(raw[i:], '\n')
		if j < 0 {
			return nil, nil, false
		}
		line := raw[i : i+j+1]
		i += j + 1
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			if i == len(raw) {
				return nil, nil, false
			}
			return raw[:i], raw[i:], true
		}
	}
	return nil, nil, false
}

// classifyHeaderFramed classifies the body of an LSP-style frame and adds the framing
// problem. (The Framer read the body by the header's length; a body cut short by the end
// of the stream is a partial frame.)
func classifyHeaderFramed(hdr, body []byte) (Kind, *Message, []Problem) {
	line := body
	if !bytes.HasSuffix(body, []byte("\n")) {
		line = make([]byte, len(body)+1)
		copy(line, body)
		line[len(body)] = '\n'
	}
	kind, msg, bodyProbs := Classify(line)
	probs := []Problem{{Warning, CodeLSPFraming, "LSP-style Content-Length framing (a header block, then the body with no newline), which MCP does not allow: MCP stdio is newline-delimited JSON, one message per line (--framing content-length talks it anyway)"}}
	return kind, msg, append(probs, bodyProbs...)
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && bytes.EqualFold(b[:len(prefix)], []byte(prefix))
}

// validID reports whether raw is a JSON string or an integer number (MCP basic/index:
// "Requests MUST include a string or integer ID").
func validID(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	if smallInt(raw) {
		return true // every id we send: no decoder for it
	}
	if raw[0] == '"' {
		var s string
		return json.Unmarshal(raw, &s) == nil
	}
	var n json.Number
	if json.Unmarshal(raw, &n) != nil {
		return false
	}
	_, err := n.Int64()
	return err == nil
}

// smallInt reports whether raw is an optional minus and 1 to 18 digits without a leading
// zero: an integer JSON number that fits an int64.
func smallInt(raw []byte) bool {
	if len(raw) > 0 && raw[0] == '-' {
		raw = raw[1:]
	}
	if len(raw) == 0 || len(raw) > 18 || (raw[0] == '0' && len(raw) > 1) {
		return false
	}
	for _, c := range raw {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// invalidUTF8At returns the offset of the first byte that is not valid UTF-8, or -1.
func invalidUTF8At(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// unpairedSurrogateAt scans JSON text for a \uD800-\uDBFF escape not followed by a
// \uDC00-\uDFFF escape, or a lone low surrogate escape, and returns its offset or -1.
func unpairedSurrogateAt(b []byte) int {
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !inString {
			if c == '"' {
				inString = true
			}
			continue
		}
		switch c {
		case '"':
			inString = false
		case '\\':
			if i+1 < len(b) && b[i+1] == 'u' {
				v, ok := hex4(b, i+2)
				if !ok {
					i++
					continue
				}
				switch {
				case v >= 0xD800 && v <= 0xDBFF:
					if i+11 < len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
						if lo, ok := hex4(b, i+8); ok && lo >= 0xDC00 && lo <= 0xDFFF {
							i += 11
							continue
						}
					}
					return i
				case v >= 0xDC00 && v <= 0xDFFF:
					return i
				}
				i += 5
				continue
			}
			i++
		}
	}
	return -1
}

func hex4(b []byte, at int) (rune, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	var v rune
	for _, c := range b[at : at+4] {
		v <<= 4
		switch {
		case c >= '0' && c <= '9':
			v |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			v |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			v |= rune(c-'A') + 10
		default:
			return 0, false
		}
	}
	return v, true
}

// headID reads the top-level "id" of a JSON object from the head of a frame that was cut
// short, or returns nil when the head does not show it (the id comes after a value that was
// cut, or the frame is not an object).
func headID(head []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if key == "id" {
			return v
		}
	}
	return nil
}

// envelope holds the JSON-RPC members of an object as sub-slices of its bytes (nil when
// absent): a 100 MB result is never copied to be classified.
type envelope struct {
	jsonrpc, id, method, params, result, err json.RawMessage
}

// scanEnvelope reads the top-level members of the JSON object obj without copying values.
// obj must be valid JSON (the caller checked); ok is false otherwise. A repeated member
// keeps its last value, as encoding/json does.
func scanEnvelope(obj []byte) (env envelope, ok bool) {
	ok = forEachMember(obj, func(key []byte, v json.RawMessage) { env.set(key, v) })
	return env, ok
}

// set keeps v as the member key of the envelope when key is a JSON-RPC one (the last of a
// repeated key wins, as with encoding/json); it reports whether it was.
func (env *envelope) set(key []byte, v json.RawMessage) bool {
	switch string(key) {
	case "jsonrpc":
		env.jsonrpc = v
	case "id":
		env.id = v
	case "method":
		env.method = v
	case "params":
		env.params = v
	case "result":
		env.result = v
	case "error":
		env.err = v
	default:
		return false
	}
	return true
}

// member returns the value of obj's top-level member name as a sub-slice of obj (the last
// one when repeated, as encoding/json does); ok is false when obj is not an object or has
// no such member. obj must be valid JSON.
func member(obj []byte, name string) (v json.RawMessage, ok bool) {
	found := false
	if !forEachMember(obj, func(key []byte, val json.RawMessage) {
		if string(key) == name {
			v, found = val, true
		}
	}) {
		return nil, false
	}
	return v, found
}

// forEachMember calls fn with each top-level member of the JSON object obj, in order: the
// key unescaped, the value as a sub-slice of obj. ok is false when obj is not an object.
func forEachMember(obj []byte, fn func(key []byte, v json.RawMessage)) (ok bool) {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return false
	}
	i = skipWS(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return true
	}
	for {
		if i >= len(obj) || obj[i] != '"' {
			return false
		}
		kend, ok := scanString(obj, i)
		if !ok {
			return false
		}
		key := obj[i+1 : kend-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			var k string
			if json.Unmarshal(obj[i:kend], &k) != nil {
				return false
			}
			key = []byte(k)
		}
		i = skipWS(obj, kend)
		if i >= len(obj) || obj[i] != ':' {
			return false
		}
		i = skipWS(obj, i+1)
		vend, ok := scanValue(obj, i)
		if !ok {
			return false
		}
		fn(key, json.RawMessage(obj[i:vend:vend]))
		i = skipWS(obj, vend)
		switch {
		case i < len(obj) && obj[i] == ',':
			i = skipWS(obj, i+1)
		case i < len(obj) && obj[i] == '}':
			return true
		default:
			return false
		}
	}
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanString returns the index just past the JSON string starting at b[i] ('"').
func scanString(b []byte, i int) (int, bool) {
	j := i + 1
	for {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return 0, false
		}
		j += q
		// The quote is escaped when an odd number of backslashes precede it.
		n := 0
		for k := j - 1; k > i && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return j + 1, true
		}
		j++
	}
}

// scanValue returns the index just past the JSON value starting at b[i].
func scanValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return scanString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := scanString(b, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
loop:
	for ; j < len(b); j++ {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			break loop
		}
	}
	return j, j > i
}

// unreadRequestError reports whether an error response's id null is the one JSON-RPC 2.0 §5
// requires: the request could not be read (-32700 Parse error, -32600 Invalid Request),
// so its id could not be detected.
func unreadRequestError(rawID []byte, code int64) bool {
	return string(bytes.TrimSpace(rawID)) == "null" && (code == -32700 || code == -32600)
}

// errorCode is the code of a raw JSON-RPC error object, 0 when it has none.
func errorCode(rawErr []byte) int64 {
	var e struct {
		Code int64 `json:"code"`
	}
	_ = json.Unmarshal(rawErr, &e)
	return e.Code
}

// ForEachMember calls fn with each top-level member of the JSON object obj, in order: the
// key unescaped, the value as a sub-slice of obj (nothing is decoded or copied). It returns
// false when obj is not an object. obj must be valid JSON, as a classified message's
// params and result are.
func ForEachMember(obj []byte, fn func(key []byte, v json.RawMessage)) bool {
	return forEachMember(obj, fn)
}
