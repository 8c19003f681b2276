package mcpclient

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// validCases are inputs at the edges of JSON's grammar, each checked against json.Valid.
var validCases = []string{
	``, ` `, `{}`, `[]`, ` {} `, "\t[\r\n]\n", `{`, `}`, `[`, `]`, `{]`, `[}`, `{"a"}`, `{"a":}`,
	`{"a":1,}`, `[1,]`, `[,1]`, `{,}`, `{"a":1 "b":2}`, `{"a" : 1 , "b" : [ 2 , { } ] }`,
	`{1:2}`, `{'a':1}`, `"abc`, `"a\"b"`, `"a\\"`, `"a\\\"`, `"\u00e9"`, `"\u00G9"`, `"\u12"`,
	`"\u123"`, `"\ud800"`, `"\udc00"`, `"\ud83d\ude00"`, `{"\ud800":1}`, `"\x"`, `"\/\b\f\n\r\t"`, "\"a\x00b\"", "\"a\x1fb\"", "\"a\x7fb\"",
	"\"\xff\xfe\"", "\"tab\there\"", `0`, `-0`, `01`, `-01`, `1.`, `.1`, `1.5`, `-1.5e10`,
	`1e`, `1e+`, `1E-5`, `1e5.3`, `-`, `+1`, `1-`, `--1`, `0x10`, `Infinity`, `NaN`, `true`,
	`tru`, `truee`, `false`, `fals`, `null`, `nul`, `nullnull`, `[true,false,null]`, `1 2`,
	`{} {}`, `"a" `, `[1,[2,[3]]]`, `{"a":{"b":{"c":[]}}}`, `[-]`, `[1e]`, `{"a":-}`,
	"\ufeff{}", "{\"a\":1}\n", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x"}]}}`,
	`{"a":[1,2,{"b":null}],"c":"\u00e9\n"}`,
	`{"jsonrpc":"2.0","id":"a","method":"m","params":{"id":2,"result":3},"id":7}`, `{"error":{"code":1},"result":null, "jsonrpc" : "1.0" }`,
	`{"\u0069d":5,"id":6}`, `{"i\d":1}`, `{"params":[{"method":"x"}],"method":"y"}`, `["\"]`, `["\\"]`, `[0.0e0]`, `[0e]`, `[00]`,
}

// TestValidJSONMatchesValid holds validJSON to json.Valid on the edge cases, on nesting at
// and beyond the decoder's depth limit, and on many random mutations of JSON texts; and a
// text it finds without a \u escape has no unpaired surrogate (what Classify relies on).
func TestValidJSONMatchesValid(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		ok, u := validJSON(b)
		if want := json.Valid(b); ok != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid = %v", b, ok, want)
		}
		// validEnvelope validates as validJSON does, and reads a valid object's JSON-RPC
		// members as scanEnvelope does (or says it could not).
		eok, eu, env, envOK := validEnvelope(b)
		if eok != ok || (ok && eu != u) {
			t.Fatalf("validEnvelope(%q) = %v %v, validJSON = %v %v", b, eok, eu, ok, u)
		}
		if want, wantOK := scanEnvelope(b); envOK && (!wantOK || !reflect.DeepEqual(env, want)) {
			t.Fatalf("validEnvelope(%q) read %+v, scanEnvelope %+v (%v)", b, env, want, wantOK)
		} else if ok && wantOK && !envOK && !bytes.Contains(b, []byte(`\`)) {
			t.Fatalf("validEnvelope(%q) read no envelope, scanEnvelope %+v", b, want)
		}
		if ok && !u && unpairedSurrogateAt(b) >= 0 {
			t.Fatalf("validJSON(%q) saw no \\u escape, but the text has an unpaired surrogate", b)
		}
	}
	for _, s := range validCases {
		check([]byte(s))
	}
	for _, depth := range []int{maxJSONDepth - 1, maxJSONDepth, maxJSONDepth + 1} {
		check([]byte(strings.Repeat("[", depth) + strings.Repeat("]", depth)))
		check([]byte(strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)))
		check([]byte(strings.Repeat("[", depth-1) + `{"a":1}` + strings.Repeat("]", depth-1)))
	}
	// Mutations: each valid case with bytes replaced, inserted or removed at random, from
	// an alphabet of the bytes that matter to the grammar.
	const alphabet = "{}[],:\"\\/ \t\n\r-+.0123456789eEtrufalsnbu\x00\x1f\x7f\xff"
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		b := []byte(validCases[r.IntN(len(validCases))])
		for range 1 + r.IntN(3) {
			c := alphabet[r.IntN(len(alphabet))]
			switch op := r.IntN(3); {
			case op == 0 && len(b) > 0:
				b[r.IntN(len(b))] = c
			case op == 1:
				i := r.IntN(len(b) + 1)
				b = append(b[:i], append([]byte{c}, b[i:]...)...)
			case len(b) > 0:
				i := r.IntN(len(b))
				b = append(b[:i], b[i+1:]...)
			}
		}
		check(b)
	}
}

// FuzzValidJSON: validJSON agrees with json.Valid on any input.
func FuzzValidJSON(f *testing.F) {
	for _, s := range validCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if ok, want := fst(validJSON(b)), json.Valid(b); ok != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid = %v", b, ok, want)
		}
	})
}

func fst(ok, _ bool) bool { return ok }
