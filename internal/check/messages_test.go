package check_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
)

// TestSchemaFindingSaysWhere: a tool schema that does not compile is reported with the
// place in the schema and what to do, not the validator's internals (its in-memory URL, the
// meta-schema's nesting).
func TestSchemaFindingSaysWhere(t *testing.T) {
	t.Parallel()
	rep, err := check.Run(context.Background(), fakeOptions(t, "check-bad-listings"))
	if err != nil {
		t.Fatal(err)
	}
	var text string
	for _, f := range rep.Result("tool-schemas").Findings {
		if strings.Contains(f.Text, "does not compile") {
			text = f.Text
		}
	}
	if !strings.Contains(text, `inputSchema does not compile as a JSON Schema`) || !strings.Contains(text, `at "/properties/a/type": `) ||
		!strings.Contains(text, "fix that place of the inputSchema") {
		t.Errorf("tool-schemas: %q", text)
	}
	for _, internal := range []string{"mcp-inspect.invalid", "metaschema", "'allOf' failed", "values are not checked"} {
		if strings.Contains(text, internal) {
			t.Errorf("tool-schemas: %q shows %q", text, internal)
		}
	}
}
