package trace_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestRedactorPrefilter: without --redact patterns, Bytes first scans for anything a rule
// could match. Every secret, alone or at either end of a frame, must be scrubbed exactly as
// the full pass scrubs it (a --redact pattern that never matches forces the full pass), and
// a frame holding none comes back as the same slice with no hits.
func TestRedactorPrefilter(t *testing.T) {
	t.Parallel()
	cfg := trace.RedactConfig{
		Env:       []string{"GITHUB_PERSONAL_ACCESS_TOKEN=" + b25Token, "DEMO_PASSWORD=" + b25Password, "DEMO_URL=" + b25URL, `QUOTED=a"b\c-long`},
		Inherited: []string{"PATH=/usr/bin:/bin", "MY_API_KEY=inherited-key-123"},
		Argv:      []string{"server", "--token", "argv-secret-value"},
	}
	r := mustRedactor(t, cfg)
	cfg.Patterns = []string{`\x00never\x00`}
	full := mustRedactor(t, cfg)
	for _, secret := range []string{b25Token, b25Password, "pw-fake", `a\"b\\c-long`, `a"b\c-long`, "inherited-key-123", "argv-secret-value",
		"sk-proj-abcdefghijklmnopqrstuv", "xoxb-1234567890-abcdef", "ghs_otherTokenNotInEnv0123456789", "http://someone:elsewhere-pw@x.test/"} {
		for _, in := range []string{secret, "{\"text\":\"" + secret, secret + "\"}\n", "x" + secret + "y"} {
			out, hits := r.Bytes([]byte(in))
			want, wantHits := full.Bytes([]byte(in))
			if !bytes.Equal(out, want) || !slices.Equal(hits, wantHits) {
				t.Errorf("%q: scrubbed to %q %v, the full pass gives %q %v", in, out, hits, want, wantHits)
			}
			if !bytes.Contains([]byte(in), []byte("x"+secret+"y")) && len(hits) == 0 {
				t.Errorf("%q: not scrubbed", in)
			}
		}
	}
	clean := []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"the task key is ok: sky, eye, AI, gh, xo, k_, :/ and hunter2"}]}}` + "\n")
	out, hits := r.Bytes(clean)
	if hits != nil || &out[0] != &clean[0] || !bytes.Equal(out, clean) {
		t.Errorf("clean frame changed: %q, hits %v", out, hits)
	}
}
