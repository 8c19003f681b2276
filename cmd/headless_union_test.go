package cmd

import (
	"strings"
	"testing"
)

// #24 §7: a union argument is marked in `tools`, and --args that fit none of its variants
// are sent as given with a warning saying what the value misses, as the TUI's form says it.
func TestHeadlessUnionArguments(t *testing.T) {
	t.Parallel()
	argv := fakeArgv(t, "union")

	t.Run("tools_marks_union", func(t *testing.T) {
		t.Parallel()
		r := inspect(t, nil, cmdline([]string{"tools"}, argv)...)
		wantCode(t, r, 0)
		if !strings.Contains(r.stdout, "draw(shape: union of circle | square)") {
			t.Errorf("the union is not marked with its variants:\n%s", r.stdout)
		}
	})
	t.Run("args_missing_discriminator", func(t *testing.T) {
		t.Parallel()
		r := inspect(t, nil, cmdline([]string{"call", "draw", "--args", `{"shape":{"r":2}}`, "--json"}, argv)...)
		wantCode(t, r, 0)
		d := decodeFindings(t, r)
		if w := strings.Join(d.Warnings, "\n"); !strings.Contains(w, `arguments: shape: needs "kind"`) {
			t.Errorf("no warning about the union's discriminator: %q", d.Warnings)
		}
		if !strings.Contains(r.stdout, `{\"shape\":{\"r\":2}}`) {
			t.Errorf("the arguments were not sent as given:\n%s", r.stdout)
		}
	})
	t.Run("args_fitting_a_variant", func(t *testing.T) {
		t.Parallel()
		r := inspect(t, nil, cmdline([]string{"call", "draw", "--args", `{"shape":{"kind":"circle","r":2}}`}, argv)...)
		wantCode(t, r, 0)
		if strings.Contains(r.stderr, "arguments:") {
			t.Errorf("a warning for arguments that fit the circle variant:\n%s", r.stderr)
		}
	})
}
