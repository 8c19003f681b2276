package schemaform

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzForm builds a form from any schema bytes, pokes every field, and
// checks the model never panics and Value is always valid JSON.
func FuzzForm(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data, []byte(`{"a":1}`))
		}
	}
	f.Add([]byte(`{"anyOf":[{"type":"null"},{"$ref":"#"}]}`), []byte(`null`))
	f.Add([]byte(`{"type":["array","object"],"items":{"enum":[[],{}]}}`), []byte(`[[]]`))
	f.Fuzz(func(t *testing.T, schema, value []byte) {
		form, _ := New(schema)
		if form == nil {
			t.Fatal("New returned nil form")
		}
		check := func() {
			v, _ := form.Value()
			if v != nil && !json.Valid(v) {
				t.Fatalf("Value is not JSON: %q", v)
			}
		}
		for i, fl := range form.Fields() {
			if i > 50 {
				break
			}
			_ = fl.SetText("1")
			_ = fl.Cycle(1)
			_ = fl.Toggle(0)
			if it, err := fl.AddItem(); err == nil {
				_ = it.SetText(`"x"`)
			}
			fl.SetCollapsed(false)
			_ = fl.SetNull()
			_ = fl.Text()
			_ = fl.Placeholder()
			_ = fl.Present()
			check()
		}
		_ = form.SetValue(value)
		check()
		_ = form.Fields()
		_ = form.Validate()
		form.Reset()
		check()
	})
}
