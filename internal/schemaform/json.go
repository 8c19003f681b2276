package schemaform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file holds a small JSON value model that keeps object key order and
// number text exactly. Schemas and values are decoded into:
//
//	*jobj        object, keys in document order
//	[]any        array
//	string
//	json.Number  number, the literal text as written
//	bool
//	nil          null
//
// encoding/json maps would lose the property order that a form is shown in,
// and float64 would round big integers.

// jobj is a JSON object that remembers the order of its keys.
type jobj struct {
	keys []string
	vals map[string]any
}

func newObj() *jobj { return &jobj{vals: map[string]any{}} }

func (o *jobj) get(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[k]
	return v, ok
}

func (o *jobj) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *jobj) str(k string) string {
	v, _ := o.get(k)
	s, _ := v.(string)
	return s
}

func (o *jobj) boolean(k string) bool {
	v, _ := o.get(k)
	b, _ := v.(bool)
	return b
}

// decodeJSON parses one JSON value, keeping key order and number text.
// Trailing data after the value is an error.
// Errors are *SyntaxError, placed by line and column.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, syntaxError(data, dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, syntaxError(data, dec, errors.New("unexpected data after the JSON value"))
	}
	return v, nil
}

// SyntaxError is text that is not one JSON value: what is wrong and where,
// by line and column (both from 1; columns count characters).
type SyntaxError struct {
	Detail       string
	Line, Column int
}

// Error renders "<detail> (line L, column C)".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s (line %d, column %d)", e.Detail, e.Line, e.Column)
}

// syntaxError places err in data. The decoder's own offsets depend on how
// far it had buffered, so the text is scanned again by encoding/json's
// validator, whose offset counts the bytes read up to the bad one.
func syntaxError(data []byte, dec *json.Decoder, err error) *SyntaxError {
	at := int(dec.InputOffset())
	var se *json.SyntaxError
	if errors.As(json.Unmarshal(data, new(json.RawMessage)), &se) {
		err = se
		at = int(se.Offset) - 1
		if se.Offset >= int64(len(data)) && strings.Contains(se.Error(), "end of JSON input") {
			at = len(data)
		}
	} else if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		at, err = len(data), errors.New("unexpected end of JSON input")
	}
	at = min(max(at, 0), len(data))
	before := data[:at]
	line := bytes.Count(before, []byte("\n")) + 1
	if i := bytes.LastIndexByte(before, '\n'); i >= 0 {
		before = before[i+1:]
	}
	return &SyntaxError{Detail: err.Error(), Line: line, Column: utf8.RuneCount(before) + 1}
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("unexpected end of JSON input")
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := newObj()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("object key is not a string")
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.set(k, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return arr, nil
		}
		return nil, fmt.Errorf("unexpected %q", t)
	default:
		return t, nil
	}
}

// encodeJSON writes v compactly. Strings are written without HTML escaping
// so that "<" stays "<" on the wire; numbers are written as their literal text.
func encodeJSON(buf *bytes.Buffer, v any) {
	switch t := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if t {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case json.Number:
		buf.WriteString(string(t))
	case string:
		writeString(buf, t)
	case []any:
		buf.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				buf.WriteByte(',')
			}
			encodeJSON(buf, e)
		}
		buf.WriteByte(']')
	case *jobj:
		buf.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, k)
			buf.WriteByte(':')
			encodeJSON(buf, t.vals[k])
		}
		buf.WriteByte('}')
	case json.RawMessage:
		if err := json.Compact(buf, t); err != nil {
			buf.Write(t)
		}
	default:
		// Not produced by decodeJSON; fall back to encoding/json.
		b, err := json.Marshal(t)
		if err != nil {
			buf.WriteString("null")
			return
		}
		buf.Write(b)
	}
}

func writeString(buf *bytes.Buffer, s string) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a Go string always encodes
	buf.Write(bytes.TrimRight(b.Bytes(), "\n"))
}

func toRaw(v any) json.RawMessage {
	var buf bytes.Buffer
	encodeJSON(&buf, v)
	return json.RawMessage(buf.Bytes())
}

// jsonType names the JSON Schema type of a decoded value. Numbers with an
// integral value are "integer" (JSON Schema 2020-12 §6.1.1: 1.0 is an integer).
func jsonType(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(t)); ok && r.IsInt() {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case *jobj:
		return "object"
	}
	return "unknown"
}

// typeAllows reports whether a value of JSON type got satisfies schema type want.
func typeAllows(want, got string) bool {
	return want == got || (want == "number" && got == "integer")
}

// jsonEqual compares two decoded values the way JSON Schema `enum` and
// `const` do: numbers by mathematical value, objects regardless of key order.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		rx, ok1 := new(big.Rat).SetString(string(x))
		ry, ok2 := new(big.Rat).SetString(string(y))
		if !ok1 || !ok2 {
			return x == y
		}
		return rx.Cmp(ry) == 0
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case *jobj:
		y, ok := b.(*jobj)
		if !ok || len(x.vals) != len(y.vals) {
			return false
		}
		for k, v := range x.vals {
			w, ok := y.vals[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

// isJSONNumber reports whether s is a number in the JSON grammar (RFC 8259 §6).
func isJSONNumber(s string) bool {
	i := 0
	n := len(s)
	if i < n && s[i] == '-' {
		i++
	}
	if i >= n {
		return false
	}
	switch {
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < n && s[i] == '.' {
		i++
		start := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == n
}

// isJSONInteger reports whether s is an integer literal: an optional minus
// sign and digits, no leading zeros, no fraction, no exponent.
func isJSONInteger(s string) bool {
	if !isJSONNumber(s) {
		return false
	}
	return !strings.ContainsAny(s, ".eE")
}

// maxIntegerExponent bounds the exponent of a number written out as an
// integer: 1e10000 has 10001 digits, and bigger ones would stall the form.
const maxIntegerExponent = 10000

// integerText returns the integer a JSON number literal denotes when its
// fractional part is zero, as plain digits computed exactly with math/big
// (JSON Schema 2020-12 §6.1.1: 1.0 and 1e3 are integers). A plain integer
// literal is returned as written ("-0", "007" is not one). problem says why
// s is not an integer, in words; "" when it is.
func integerText(s string) (digits, problem string) {
	if isJSONInteger(s) {
		return s, ""
	}
	if !isJSONNumber(s) {
		return "", "must be an integer, like 42 or -3"
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || e > maxIntegerExponent || e < -maxIntegerExponent {
			return "", fmt.Sprintf("exponent too large to write out as an integer (at most e±%d)", maxIntegerExponent)
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() {
		return "", "must be an integer (no fractional part)"
	}
	return r.Num().String(), ""
}

// display renders a decoded scalar for a label: strings bare, others as JSON.
func display(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(toRaw(v))
}

// ratText writes r as a plain decimal when it has a finite one, else as a fraction.
func ratText(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	for prec := 1; prec <= 40; prec++ {
		s := r.FloatString(prec)
		if back, ok := new(big.Rat).SetString(s); ok && back.Cmp(r) == 0 {
			return s
		}
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// pointer renders path tokens as a JSON Pointer (RFC 6901).
func pointer(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1"))
	}
	return b.String()
}
