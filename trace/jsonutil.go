package trace

import (
	"bytes"
	"encoding/json"
	"strings"
)

type member struct {
	key   string
	value json.RawMessage
}

// members decodes a JSON object into its members in document order.
func members(raw json.RawMessage) ([]member, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var out []member
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, false
		}
		k, ok := kt.(string)
		if !ok {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		out = append(out, member{k, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, false
	}
	return out, true
}

// encodeMembers writes members as a compact JSON object, in order.
func encodeMembers(ms []member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		if err := json.Compact(&b, m.value); err != nil {
			b.Write(m.value)
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

// stripProgressToken removes params._meta.progressToken (and _meta when that leaves it
// empty), keeping the other members in order. had reports whether there was a token.
func stripProgressToken(params json.RawMessage) (json.RawMessage, bool) {
	ms, ok := members(params)
	if !ok {
		return params, false
	}
	for i, m := range ms {
		if m.key != "_meta" {
			continue
		}
		meta, ok := members(m.value)
		if !ok {
			return params, false
		}
		had := false
		kept := meta[:0:0]
		for _, x := range meta {
			if x.key == "progressToken" {
				had = true
				continue
			}
			kept = append(kept, x)
		}
		if !had {
			return params, false
		}
		out := append([]member(nil), ms[:i]...)
		if len(kept) > 0 {
			out = append(out, member{"_meta", encodeMembers(kept)})
		}
		out = append(out, ms[i+1:]...)
		if len(out) == 0 {
			return nil, true
		}
		return encodeMembers(out), true
	}
	return params, false
}

// canonicalJSON is a JSON value with object members sorted and no insignificant space, so
// equal values compare equal as strings. Invalid JSON is returned as given.
func canonicalJSON(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return ""
	}
	v, err := decodeAny(raw)
	if err != nil {
		return string(raw)
	}
	return string(encodeAny(v))
}

// withoutMeta drops _meta from a params object (ids and progress tokens live there and differ
// between sessions).
func withoutMeta(params json.RawMessage) json.RawMessage {
	ms, ok := members(params)
	if !ok {
		return params
	}
	out := ms[:0:0]
	for _, m := range ms {
		if m.key != "_meta" {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return encodeMembers(out)
}

// requestLabel names a request for people: "tools/call echo", "resources/read file:///x".
func requestLabel(method string, params json.RawMessage) string {
	switch method {
	case "tools/call", "prompts/get", "resources/read", "resources/subscribe", "resources/unsubscribe":
	default:
		return method
	}
	var v struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	_ = json.Unmarshal(params, &v)
	if v.Name != "" {
		return method + " " + v.Name
	}
	if v.URI != "" {
		return method + " " + v.URI
	}
	return method
}

// shorten cuts s to n runes with an ellipsis.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// The first n-1 runes, found without converting the whole text (a 100 MB value).
	runes, cut := 0, 0
	for i := range s {
		if runes == n-1 {
			cut = i
		}
		runes++
		if runes > n {
			return strings.TrimSpace(s[:cut]) + "…"
		}
	}
	return s
}

// decodeAny decodes a JSON value into Go values, numbers as json.Number.
func decodeAny(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// encodeAny encodes a decoded value (null when it cannot).
func encodeAny(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`null`)
	}
	return b
}
