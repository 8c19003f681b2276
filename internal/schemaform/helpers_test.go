package schemaform

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// load builds a form from testdata/name.
func load(t *testing.T, name string) *Form {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := New(data)
	if err != nil {
		t.Fatalf("New(%s): %v", name, err)
	}
	return f
}

func mustNew(t *testing.T, schema string) *Form {
	t.Helper()
	f, err := New(json.RawMessage(schema))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return f
}

// field finds a field by a dotted path ("query_model.limit", "ids.0").
func field(t *testing.T, f *Form, path string) *Field {
	t.Helper()
	var p []string
	if path != "" {
		p = strings.Split(path, ".")
	}
	fl := f.Field(p...)
	if fl == nil {
		t.Fatalf("no field at %q", path)
	}
	return fl
}

func setText(t *testing.T, f *Form, path, text string) {
	t.Helper()
	if err := field(t, f, path).SetText(text); err != nil {
		t.Fatalf("SetText(%s, %q): %v", path, text, err)
	}
}

// choose selects the option labelled label.
func choose(t *testing.T, f *Form, path, label string) {
	t.Helper()
	fl := field(t, f, path)
	for i, o := range fl.Options {
		if o.Label == label {
			if err := fl.Select(i); err != nil {
				t.Fatalf("Select(%s, %q): %v", path, label, err)
			}
			return
		}
	}
	t.Fatalf("field %s has no option %q; options: %v", path, label, labels(fl))
}

func labels(fl *Field) []string {
	var out []string
	for _, o := range fl.Options {
		out = append(out, o.Label)
	}
	return out
}

func setJSON(t *testing.T, f *Form, path, value string) {
	t.Helper()
	if err := field(t, f, path).Set(json.RawMessage(value)); err != nil {
		t.Fatalf("Set(%s, %s): %v", path, value, err)
	}
}

func addItem(t *testing.T, f *Form, path string) *Field {
	t.Helper()
	it, err := field(t, f, path).AddItem()
	if err != nil {
		t.Fatalf("AddItem(%s): %v", path, err)
	}
	return it
}

// wantValue checks the exact bytes of Value and that it has no error.
func wantValue(t *testing.T, f *Form, want string) {
	t.Helper()
	got, err := f.Value()
	if err != nil {
		t.Fatalf("Value() error: %v (value %s)", err, got)
	}
	if string(got) != want {
		t.Fatalf("Value()\n got %s\nwant %s", got, want)
	}
}

// errorLines renders Validate's result as "path: message" lines ("" path
// for form-level), in order.
func errorLines(errs []FieldError) []string {
	var out []string
	for _, e := range errs {
		out = append(out, fmt.Sprintf("%s: %s", strings.Join(e.Path, "."), e.Message))
	}
	return out
}

func wantErrors(t *testing.T, f *Form, want ...string) {
	t.Helper()
	got := errorLines(f.Validate())
	if !slices.Equal(got, want) {
		t.Fatalf("Validate()\n got %q\nwant %q", got, want)
	}
}

// fieldLine is one row of Fields(): "path kind [req] [null] @depth".
func fieldLines(f *Form) []string {
	var out []string
	for _, fl := range f.Fields() {
		s := fmt.Sprintf("%s %s", strings.Join(fl.Path, "."), fl.Kind)
		if fl.Required {
			s += " req"
		}
		if fl.Nullable {
			s += " null"
		}
		s += fmt.Sprintf(" @%d", fl.Depth)
		out = append(out, s)
	}
	return out
}

func wantFields(t *testing.T, f *Form, want ...string) {
	t.Helper()
	got := fieldLines(f)
	if !slices.Equal(got, want) {
		t.Fatalf("Fields()\n got %q\nwant %q", got, want)
	}
}

func wantOptions(t *testing.T, f *Form, path string, want ...string) {
	t.Helper()
	got := labels(field(t, f, path))
	if !slices.Equal(got, want) {
		t.Fatalf("options of %s: got %q, want %q", path, got, want)
	}
}
