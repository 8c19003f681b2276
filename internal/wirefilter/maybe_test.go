package wirefilter

import "testing"

// TestMayMatch: with only some keys known, a filter is refused where no event could pass
// it, and never where the event itself passes (the unknown terms are as the event has them).
func TestMayMatch(t *testing.T) {
	knows := func(keys ...string) func(string) bool {
		return func(k string) bool {
			for _, s := range keys {
				if s == k {
					return true
				}
			}
			return false
		}
	}
	out := ev{dir: "out", method: "tools/call", tool: "echo"}
	in := ev{dir: "in", method: "tools/call", tool: "echo"}
	for _, tc := range []struct {
		expr  string
		ev    ev
		keys  []string
		maybe bool
	}{
		{"dir:in kind:error", out, []string{"dir"}, false},
		{"dir:in kind:error", in, []string{"dir"}, true},
		{"!dir:out", out, []string{"dir"}, false},
		{"not (dir:out | dir:in)", in, []string{"dir"}, false},
		{"dir:in | text:boom", out, []string{"dir"}, true},
		{"!(dir:out text:boom)", out, []string{"dir"}, true},
		{"method:tools/list", out, []string{"dir"}, true},
		{"method:tools/list", out, []string{"dir", "method"}, false},
		{"method:tools/* tool:delete_*", out, []string{"dir", "method", "tool"}, false},
		{"method:tools/* tool:delete_*", out, []string{"dir", "method"}, true},
		{"!method:tools/call", out, []string{"method"}, false},
		{"dir:out method:tools/call", out, []string{"dir", "method"}, true},
		{"", out, nil, true},
	} {
		f, err := Parse(tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.MayMatch(tc.ev, knows(tc.keys...)); got != tc.maybe {
			t.Errorf("%q on %+v knowing %v: MayMatch %v, want %v", tc.expr, tc.ev, tc.keys, got, tc.maybe)
		}
	}
	// Sound: an event that passes is never refused, whatever is known of it.
	for _, expr := range []string{"dir:out", "dir:in kind:error", "!dir:out method:tools/*", "(dir:in | kind:request) !text:zzz",
		"method:tools/call tool:echo", "not dir:lifecycle", "kind:response|error is:tool-error", "time:1s..3s | id:0"} {
		f, err := Parse(expr)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range events {
			for _, keys := range [][]string{nil, {"dir"}, {"dir", "method"}, {"dir", "method", "tool", "kind"}} {
				if f.Match(e) && !f.MayMatch(e, knows(keys...)) {
					t.Errorf("%q passes %s but MayMatch knowing %v refuses it", expr, e.name, keys)
				}
			}
		}
	}
}
