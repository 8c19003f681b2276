package mcpclient_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// A known older version is normal negotiation: a note, no warning, no problem.
func TestOlderVersionIsANote(t *testing.T) {
	t.Parallel()
	s := startFake(t, "version-old", nil)
	res, err := s.c.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.ProtocolVersion != "2025-03-26" || res.Requested != mcpclient.LatestProtocolVersion || len(res.Warnings) != 0 || len(res.Notes) != 1 ||
		!strings.Contains(res.Notes[0], "an older revision, which is normal negotiation; checks follow 2025-03-26") {
		t.Fatalf("result: version %q requested %q warnings %q notes %q", res.ProtocolVersion, res.Requested, res.Warnings, res.Notes)
	}
	for _, ev := range s.events(t) {
		if len(ev.Problems) > 0 {
			t.Errorf("event #%d has problems %+v", ev.Seq, ev.Problems)
		}
	}
	if mcpclient.HasOutputSchema("2025-03-26") || !mcpclient.HasOutputSchema("2025-06-18") || !mcpclient.HasOutputSchema(mcpclient.ModernProtocolVersion) {
		t.Error("HasOutputSchema does not follow the revisions")
	}
}

// A missing or unknown version is a violation: counted, and --strict stops on it.
func TestMissingOrUnknownVersionIsAViolation(t *testing.T) {
	t.Parallel()
	for scenario, code := range map[string]mcpclient.ProblemCode{"version-unknown": mcpclient.CodeUnknownProtocolVersion, "version-missing": mcpclient.CodeNoProtocolVersion} {
		s := startFake(t, scenario, nil)
		if _, err := s.c.Connect(context.Background()); err != nil {
			t.Fatalf("%s: %v", scenario, err)
		}
		n := 0
		for _, ev := range s.events(t) {
			if problem(ev, code) != nil {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: %d events with %s, want 1", scenario, n, code)
		}
		s = startFake(t, scenario, func(c *mcpclient.Config) { c.Strict = true })
		_, err := s.c.Connect(context.Background())
		var v *mcpclient.ViolationError
		if !errors.As(err, &v) || v.Problem.Code != code {
			t.Errorf("%s --strict: Connect err = %v, want a violation %s", scenario, err, code)
		}
	}
}
