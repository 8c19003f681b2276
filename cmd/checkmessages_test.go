package cmd

import (
	"strings"
	"testing"
)

// TestCheckArgsMessages: an --args that is not a JSON object is a usage error that says
// what the value is and what to give instead, never a Go type name; null is refused too
// (it used to pass as "no arguments" and be sent as arguments: null).
func TestCheckArgsMessages(t *testing.T) {
	t.Parallel()
	for args, want := range map[string]string{
		`[1]`:   `--args '[1]' (for --call echo) is an array, not a JSON object`,
		`null`:  `--args 'null' (for --call echo) is null, not a JSON object`,
		`"x"`:   `is a string, not a JSON object`,
		`{"a":`: `--args '{"a":' (for --call echo) is not valid JSON (unexpected end of JSON input`,
		`a:1`:   `is not valid JSON (invalid character 'a' looking for beginning of value, at byte 1)`,
	} {
		r := inspect(t, nil, cmdline([]string{"check", "--call", "echo", "--args", args}, fakeArgv(t, "minimal"))...)
		wantCode(t, r, exitUsage)
		if !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, `e.g. --args '{"a": 1}'`) {
			t.Errorf("--args %s: stderr %q, want %q and an example", args, r.stderr, want)
		}
		for _, internal := range []string{"Go value", "map[string]interface", "json: "} {
			if strings.Contains(r.stderr, internal) {
				t.Errorf("--args %s: stderr %q shows %q", args, r.stderr, internal)
			}
		}
	}
}
