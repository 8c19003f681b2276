package cmd

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
)

// Flags after a server URL are flags (mcp-inspect URL --timeout 20s); a word that is not a
// flag is refused with what to do, not spawned as a command named after the URL.
func TestURLThenFlags(t *testing.T) {
	t.Parallel()
	_, url := fake.HTTPServer(t, "http-minimal", fake.HTTPOptions{})
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{url, "--timeout", "0s"}, "--timeout 0s: must be positive"},
		{[]string{url, "--nope"}, "after the URL: unknown flag: --nope"},
		{[]string{url, "extra"}, "a server URL takes no arguments"},
	} {
		r := inspect(t, nil, tc.args...)
		wantCode(t, r, exitUsage)
		if !strings.Contains(r.stderr, tc.stderr) {
			t.Errorf("%q: stderr does not say %q:\n%s", tc.args, tc.stderr, r.stderr)
		}
	}
}
