package schemaform

import (
	"encoding/json"
	"strings"
	"testing"
)

// additionalProperties as a key/value editor: maps (zod z.record, pydantic
// dict[str, T], Go map[string]T) and open objects.

func TestEntriesMapOfIntegers(t *testing.T) {
	f := mustNew(t, `{"type":"object","properties":{
		"limits":{"type":"object","additionalProperties":{"type":"integer","minimum":0},"maxProperties":2}}}`)
	wantFields(t, f, "limits object @0")
	lim := field(t, f, "limits")
	if !lim.AllowsEntries() || len(lim.Entries()) != 0 {
		t.Fatalf("limits: allows %v, entries %d", lim.AllowsEntries(), len(lim.Entries()))
	}
	if !strings.Contains(strings.Join(lim.Hints, ","), "at most 2 properties") {
		t.Errorf("hints %q", lim.Hints)
	}
	wantValue(t, f, `{}`) // an optional map is omitted until used

	cpu, err := lim.AddEntry("cpu")
	if err != nil {
		t.Fatal(err)
	}
	if cpu.Kind != KindInteger || !cpu.Required || cpu.Depth != 1 {
		t.Fatalf("entry: kind %s required %v depth %d", cpu.Kind, cpu.Required, cpu.Depth)
	}
	wantFields(t, f, "limits object @0", "limits.cpu integer req @1")
	// An entry left empty is a problem, not silently dropped or sent as null.
	if _, err := f.Value(); err == nil || !strings.Contains(err.Error(), "empty entry") {
		t.Fatalf("empty entry: %v", err)
	}
	setText(t, f, "limits.cpu", "2")
	wantValue(t, f, `{"limits":{"cpu":2}}`)

	for _, bad := range []string{"", "cpu"} {
		if _, err := lim.AddEntry(bad); err == nil {
			t.Errorf("AddEntry(%q) accepted", bad)
		}
	}
	_, _ = lim.AddEntry("mem")
	setText(t, f, "limits.mem", "-1")
	_, _ = lim.AddEntry("disk")
	setText(t, f, "limits.disk", "5")
	wantErrors(t, f,
		"limits: must have at most 2 properties",
		"limits.mem: must be at least 0",
	)
	if err := lim.RemoveEntry("disk"); err != nil {
		t.Fatal(err)
	}
	if err := lim.RenameEntry("mem", "cpu"); err == nil {
		t.Error("rename onto an existing key accepted")
	}
	if err := lim.RenameEntry("mem", "memory"); err != nil {
		t.Fatal(err)
	}
	setText(t, f, "limits.memory", "512")
	wantValue(t, f, `{"limits":{"cpu":2,"memory":512}}`)
	if got := strings.Join(field(t, f, "limits.memory").Path, "/"); got != "limits/memory" {
		t.Errorf("renamed path %q", got)
	}
	wantErrors(t, f)

	// Loading a value makes entries; Reset drops them.
	if err := f.SetValue(json.RawMessage(`{"limits":{"a":1,"b":"x"}}`)); err != nil {
		t.Fatal(err)
	}
	wantValue(t, f, `{"limits":{"a":1,"b":"x"}}`)
	wantErrors(t, f, "limits.b: must be an integer, not a string")
	f.Reset()
	if n := len(field(t, f, "limits").Entries()); n != 0 {
		t.Fatalf("%d entries after Reset", n)
	}
	wantValue(t, f, `{}`)
}

func TestEntriesBesideProperties(t *testing.T) {
	// pydantic extra="allow" / an open object: declared fields plus entries of any JSON.
	f := mustNew(t, `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":true}`)
	root := f.Root()
	if !root.AllowsEntries() {
		t.Fatal("root takes no entries")
	}
	if _, err := root.AddEntry("name"); err == nil {
		t.Error("an entry may not shadow a declared property")
	}
	setText(t, f, "name", "n")
	e, err := root.AddEntry("extra")
	if err != nil {
		t.Fatal(err)
	}
	if e.Kind != KindRaw {
		t.Fatalf("entry of additionalProperties:true is %s", e.Kind)
	}
	if err := e.SetText(`{"deep":[1,2]}`); err != nil {
		t.Fatal(err)
	}
	wantValue(t, f, `{"name":"n","extra":{"deep":[1,2]}}`)
	wantFields(t, f, "name string req @0", "extra raw req null @0")
}

func TestEntriesClosedObjectKeepsExtras(t *testing.T) {
	f := mustNew(t, `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`)
	if f.Root().AllowsEntries() {
		t.Fatal("additionalProperties:false takes entries")
	}
	if _, err := f.Root().AddEntry("x"); err == nil {
		t.Fatal("AddEntry on a closed object")
	}
	if err := f.SetValue(json.RawMessage(`{"a":"1","x":2}`)); err != nil {
		t.Fatal(err)
	}
	wantValue(t, f, `{"a":"1","x":2}`) // kept and sent, reported
	wantErrors(t, f, `: property "x" is not allowed`)
}

func TestEntriesOfObjects(t *testing.T) {
	// A map whose values are objects: each entry is a nested sub-form.
	f := mustNew(t, `{"type":"object","properties":{"env":{"type":"object",
		"additionalProperties":{"type":"object","properties":{"value":{"type":"string"},"secret":{"type":"boolean","default":false}},"required":["value"]}}},
		"required":["env"]}`)
	env := field(t, f, "env")
	if _, err := env.AddEntry("HOME"); err != nil {
		t.Fatal(err)
	}
	wantFields(t, f,
		"env object req @0",
		"env.HOME object req @1",
		"env.HOME.value string req @2",
		"env.HOME.secret boolean @2",
	)
	setText(t, f, "env.HOME.value", "/root")
	// The entry is a required object: its members' defaults are filled in (B16).
	wantValue(t, f, `{"env":{"HOME":{"value":"/root","secret":false}}}`)
	wantErrors(t, f)
}
