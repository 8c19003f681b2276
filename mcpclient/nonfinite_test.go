package mcpclient_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// A response holding NaN and the infinities, as Python's json.dumps writes them, is not
// JSON, but it answers its request at once: read leniently (each as null), with one
// problem naming each number and where; a "NaN" inside a string stays.
func TestNonFiniteResponsePairs(t *testing.T) {
	s := startFake(t, "nan", func(c *mcpclient.Config) { c.Timeout = time.Minute })
	ctx := context.Background()
	if _, err := s.c.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, _, err := s.c.CallTool(ctx, "stats", []byte(`{}`))
	if err != nil || time.Since(start) > 5*time.Second {
		t.Fatalf("tools/call: %v after %v", err, time.Since(start))
	}
	if got := string(res.StructuredContent); got != `{"mean": null, "max": null, "min": null, "note": "NaN stays in strings"}` {
		t.Errorf("structuredContent %s", got)
	}
	var found []string
	for _, ev := range s.events(t) {
		for _, p := range ev.Problems {
			if p.Code == mcpclient.CodeNonFinite {
				found = append(found, p.Text)
				if ev.Kind != mcpclient.KindResponse {
					t.Errorf("the frame is %s", ev.Kind)
				}
			}
		}
	}
	if len(found) != 1 {
		t.Fatalf("non-finite problems %q", found)
	}
	for _, w := range []string{`NaN at byte `, `(the value of "mean")`, `Infinity at byte`, `(the value of "max")`, `-Infinity at byte`, "json.dumps", "read leniently"} {
		if !strings.Contains(found[0], w) {
			t.Errorf("the problem lacks %q: %s", w, found[0])
		}
	}
	if mcpclient.Rule(mcpclient.CodeNonFinite) == "" {
		t.Error("no rule for non-finite numbers")
	}
}
