package mcpclient

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Batch is what a KindBatch frame holds (Event.Batch).
type Batch struct {
	// Elems are the array's elements in order.
	Elems []BatchElem
}

// BatchElem is one element of a JSON-RPC batch frame (JSON-RPC 2.0 §6), classified like a
// frame of its own and paired like one: a response inside a batch links to its request.
type BatchElem struct {
	// Index is the element's position in the array, from 0.
	Index int
	// Raw is the element's exact bytes inside the frame (a sub-slice of Event.Raw).
	Raw  []byte
	Kind Kind
	// Msg is the parsed envelope for JSON-RPC message kinds, nil otherwise.
	Msg      *Message
	Problems []Problem
	// Pair is the Seq of the request a response element answers (or of the request a
	// progress notification belongs to); 0 when none.
	Pair uint64
	// Method is the method of the request a response element answers.
	Method string
}

// SplitBatch splits a batch frame's bytes into its elements' exact bytes. ok is false when
// raw is not a JSON array.
func SplitBatch(raw []byte) (elems [][]byte, ok bool) {
	body := bytes.TrimSpace(bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf")))
	if len(body) == 0 || body[0] != '[' {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return nil, false
	}
	for dec.More() {
		start := dec.InputOffset()
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return elems, false
		}
		// InputOffset before Decode can sit on the comma or whitespace before the value.
		e := bytes.TrimLeft(body[start:dec.InputOffset()], ", \t\r\n")
		elems = append(elems, e)
	}
	return elems, true
}

// ClassifyBatch classifies each element of a batch frame (Pair and Method are left for a
// Pairer). An element is a JSON-RPC message when it is an object; anything else is
// KindNotJSONRPC with a problem, as is an empty batch (JSON-RPC 2.0 §6: "an Array with at
// least one value").
func ClassifyBatch(raw []byte) []BatchElem {
	parts, ok := SplitBatch(raw)
	if !ok {
		return nil
	}
	out := make([]BatchElem, len(parts))
	for i, b := range parts {
		out[i] = BatchElem{Index: i, Raw: b}
		if b[0] != '{' {
			out[i].Kind = KindNotJSONRPC
			out[i].Problems = []Problem{{Warning, CodeNotJSONRPC, "batch element " + strconv.Itoa(i) + " is not an object: JSON-RPC 2.0 §6 batches hold request or response objects"}}
			continue
		}
		out[i].Kind, out[i].Msg, out[i].Problems = classifyObject(b, nil)
	}
	return out
}

// BatchSummary says in a few words what a batch holds ("3: 2 responses, 1 notification"):
// the element count, then each kind in order of first appearance as name(kind, count)
// words it (the UI agrees the noun with the count).
func BatchSummary(elems []BatchElem, name func(k Kind, n int) string) string {
	counts := map[Kind]int{}
	var order []Kind
	for _, e := range elems {
		if counts[e.Kind] == 0 {
			order = append(order, e.Kind)
		}
		counts[e.Kind]++
	}
	s := strconv.Itoa(len(elems))
	for i, k := range order {
		if i == 0 {
			s += ": "
		} else {
			s += ", "
		}
		s += name(k, counts[k])
	}
	return s
}
