package tap

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// scanMessage reads what the filter needs of one frame (kind, id, method, and the tool of a
// tools/call) with one pass over its top-level members, without decoding the rest: every
// frame both ways goes through it while rules are set, and mcpclient.Classify (which checks
// everything) cost most of what rules that match nothing added to a round trip. A frame
// that does not scan as a JSON object is invalid; a batch is a batch.
func (e *frameEv) scanMessage() {
	b := e.raw
	i := len(b) - len(bytes.TrimLeft(b, " \t\r\n"))
	if i >= len(b) {
		e.kind = mcpclient.KindEmpty
		return
	}
	switch b[i] {
	case '[':
		e.kind = mcpclient.KindBatch
		return
	case '{':
	default:
		e.kind = mcpclient.KindNotJSON
		return
	}
	var hasResult, hasError, hasMethod bool
	var params []byte
	ok := mcpclient.ForEachMember(b[i:], func(key []byte, v json.RawMessage) {
		switch string(key) {
		case "id":
			if !bytes.Equal(v, []byte("null")) {
				e.idRaw = v
			}
		case "method":
			hasMethod = len(v) > 0 && v[0] == '"'
			if hasMethod {
				if bytes.IndexByte(v, '\\') < 0 {
					e.method = string(v[1 : len(v)-1])
				} else {
					_ = json.Unmarshal(v, &e.method) // JSON's escapes (\/ too, which strconv rejects)
				}
			}
		case "result":
			hasResult = true
		case "error":
			hasError = true
		case "params":
			params = v
		}
	})
	if !ok {
		e.kind = mcpclient.KindNotJSON
		return
	}
	switch {
	case hasMethod && e.idRaw != nil:
		e.kind = mcpclient.KindRequest
	case hasMethod:
		e.kind = mcpclient.KindNotification
	case hasError:
		e.kind = mcpclient.KindErrorResponse
	case hasResult && e.idRaw != nil:
		e.kind = mcpclient.KindResponse
	default:
		e.kind = mcpclient.KindNotJSONRPC
	}
	if e.idRaw != nil {
		e.id = string(e.idRaw)
	}
	if e.kind == mcpclient.KindRequest && e.method == "tools/call" && params != nil {
		e.tool = paramsName(params)
	}
}

// paramsName is what json.Unmarshal reads into a struct with one field Name `json:"name"`
// from params, without its reflection and allocations for the usual params: the value of
// the last member whose key is "name" in any case, when a string ("" when params is not
// valid JSON or not an object).
func paramsName(params []byte) string {
	if !json.Valid(params) {
		return ""
	}
	var name []byte
	mcpclient.ForEachMember(params, func(key []byte, v json.RawMessage) {
		if !bytes.EqualFold(key, []byte("name")) || len(v) == 0 || v[0] != '"' {
			return // null and other types leave the field as it was
		}
		name = v
	})
	if name == nil {
		return ""
	}
	in := name[1 : len(name)-1]
	if bytes.IndexByte(in, '\\') < 0 && utf8.Valid(in) {
		return string(in)
	}
	var s string
	_ = json.Unmarshal(name, &s)
	return s
}
