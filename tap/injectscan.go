package tap

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// scanMessage reads what the filter needs of one frame (kind, id, method, and the tool of a
// tools/call) with one pass over its top-level members, without decoding the rest: every
// frame both ways goes through it while rules are set, and mcpclient.Classify (which checks
// everything) cost most of what rules that match nothing added to a round trip. A frame
// that does not scan as a JSON object is invalid; a batch is a batch.
func (e *frameEv) scanMessage() {
	b := e.raw
	i := skipSpace(b, 0)
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
	i = skipSpace(b, i+1)
	for i < len(b) && b[i] != '}' {
		ks, ke, ok := scanStr(b, i)
		if !ok {
			e.kind = mcpclient.KindNotJSON
			return
		}
		key := b[ks+1 : ke-1]
		i = skipSpace(b, ke)
		if i >= len(b) || b[i] != ':' {
			e.kind = mcpclient.KindNotJSON
			return
		}
		vs := skipSpace(b, i+1)
		ve, ok := skipValue(b, vs)
		if !ok {
			e.kind = mcpclient.KindNotJSON
			return
		}
		v := b[vs:ve]
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
					e.method, _ = strconv.Unquote(string(v))
				}
			}
		case "result":
			hasResult = true
		case "error":
			hasError = true
		case "params":
			params = v
		}
		i = skipSpace(b, ve)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	if i >= len(b) {
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
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(params, &p)
		e.tool = p.Name
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// scanStr is the span [start, end) of the JSON string at b[i].
func scanStr(b []byte, i int) (start, end int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return i, j + 1, true
		}
	}
	return 0, 0, false
}

// skipValue is the end of the JSON value at b[i] (strings and nesting followed, nothing
// else checked).
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		_, end, ok := scanStr(b, i)
		return end, ok
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				_, end, ok := scanStr(b, j)
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
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' && b[j] != '\n' {
		j++
	}
	return j, j > i
}
