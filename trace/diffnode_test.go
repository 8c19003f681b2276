package trace

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzCompare: on any two inputs, Compare never panics; a valid document is the same as
// itself and as itself re-indented; two documents that decode to equal Go values have no
// difference; and one that differs from another says so at least once, with every
// difference's values valid JSON.
func FuzzCompare(f *testing.F) {
	for _, s := range [][2]string{
		{`{"a":1,"b":[1,2.0,{"c":true}]}`, `{"b":[1.0,2,{"c":true}],"a":1e0}`},
		{`{"t":"{\"a\":1}"}`, `{"t":"{ \"a\": 2 }"}`},
		{`{"a":"\u00e9\ud83d\ude00","a":"dup"}`, `{"a":"é"}`},
		{`[null,false,"x\\y",-0.5e-3]`, `[null,true,"x\\z",1]`},
		{`"\ud800"`, `"\ufffd"`},
		{`{"x":"not json`, `{}`},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ds := Compare(a, b, nil)
		for _, d := range ds {
			for _, v := range []json.RawMessage{d.Recorded, d.Got} {
				if v != nil && !json.Valid(v) {
					t.Fatalf("difference %s carries invalid JSON %q", d.Path, v)
				}
			}
		}
		if !json.Valid(a) {
			return
		}
		if d := Compare(a, a, nil); len(d) != 0 {
			t.Fatalf("%q differs from itself: %+v", a, d)
		}
		var ind bytes.Buffer
		if json.Indent(&ind, a, "", "\t") == nil {
			if d := Compare(a, ind.Bytes(), nil); len(d) != 0 {
				t.Fatalf("%q differs from itself indented: %+v", a, d)
			}
		}
		if !json.Valid(b) {
			return
		}
		va, errA := decodeAny(a)
		vb, errB := decodeAny(b)
		if errA == nil && errB == nil && reflect.DeepEqual(va, vb) && len(ds) != 0 {
			t.Fatalf("%q and %q decode equal but differ: %+v", a, b, ds)
		}
		if len(ds) == 0 && errA == nil && errB == nil && !reflect.DeepEqual(va, vb) && !looselyEqual(va, vb) {
			t.Fatalf("%q and %q decode unequal but have no difference", a, b)
		}
	})
}

// looselyEqual is Compare's equality on decoded values: numbers by value, strings that
// both hold JSON by what they hold.
func looselyEqual(a, b any) bool {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for k, x := range av {
			y, ok := bv[k]
			if !ok || !looselyEqual(x, y) {
				return false
			}
		}
		return true
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for i := range av {
			if !looselyEqual(av[i], bv[i]) {
				return false
			}
		}
		return true
	case json.Number:
		bv, ok := b.(json.Number)
		return ok && numbersEqual(av, bv)
	case string:
		bv, ok := b.(string)
		if !ok {
			return false
		}
		if av == bv {
			return true
		}
		ja, errA := decodeAny(json.RawMessage(av))
		jb, errB := decodeAny(json.RawMessage(bv))
		if errA != nil || errB != nil {
			return false
		}
		if _, ok := ja.(map[string]any); !ok {
			if _, ok := ja.([]any); !ok {
				return false
			}
		}
		return looselyEqual(ja, jb)
	}
	return a == b
}
