package cmd

import (
	"slices"
	"testing"
)

// The UI edits the redacted argv; a redacted word kept as shown gets its real value back,
// and words the user typed stay as typed.
func TestUnredactArgv(t *testing.T) {
	real := []string{"node", "srv.js", "--token", "ghp_0123456789abcdef0123456789abcdef0123"}
	shown := []string{"node", "srv.js", "--token", "***"}
	got := unredactArgv([]string{"node", "srv2.js", "--token", "***", "--verbose"}, shown, real)
	want := []string{"node", "srv2.js", "--token", real[3], "--verbose"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	got = unredactArgv([]string{"node", "srv.js", "--token", "new"}, shown, real)
	if got[3] != "new" {
		t.Fatalf("a replaced token must stay as typed: %q", got)
	}
}
