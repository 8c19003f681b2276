package schemaform

import (
	"fmt"
	"slices"
)

// Entries are the members of an object beyond its declared `properties`
// that `additionalProperties` admits: a map (`{"type":"object",
// "additionalProperties":{"type":"integer"}}`, what zod's z.record and
// pydantic's dict[str, int] emit) or an open object. The user names each
// entry's key; its value is a field built from the `additionalProperties`
// schema (any JSON value when it is `true`).

// AllowsEntries reports whether a KindObject field takes entries: its
// `additionalProperties` is a schema or `true`. An object whose
// `additionalProperties` is absent or false takes none (loaded keys that
// are not properties are still kept and sent; see Extra).
func (fl *Field) AllowsEntries() bool {
	if fl.Kind != KindObject || fl.node == nil || !fl.node.hasAddl {
		return false
	}
	b, isBool := fl.node.addl.(bool)
	return !isBool || b
}

// IsEntry reports whether the field is an entry of its parent object,
// keyed by the user (AddEntry), rather than a declared property.
func (fl *Field) IsEntry() bool { return fl.entry }

// Entries returns the entry fields of an object, in the order they were added.
func (fl *Field) Entries() []*Field {
	var out []*Field
	for _, c := range fl.children {
		if c.entry {
			out = append(out, c)
		}
	}
	return out
}

// AddEntry adds an entry with key to an object that AllowsEntries and
// returns its value field, built from the `additionalProperties` schema.
// The key must be new: not empty, not a declared property, not an
// existing entry. The object becomes set.
func (fl *Field) AddEntry(key string) (*Field, error) {
	if err := fl.checkEntryKey(key, ""); err != nil {
		return nil, err
	}
	defer fl.form.op()()
	fl.ensureBuilt()
	if fl.state != Set || fl.hasForeign {
		fl.hasForeign, fl.foreign = false, nil
	}
	fl.userSet, fl.state, fl.valErr = true, Set, ""
	e := fl.newEntry(key)
	fl.children = append(fl.children, e)
	return e, nil
}

// RemoveEntry deletes the entry with key.
func (fl *Field) RemoveEntry(key string) error {
	i := slices.IndexFunc(fl.children, func(c *Field) bool { return c.entry && c.Key == key })
	if i < 0 {
		return fmt.Errorf("field %q has no entry %q", fl.Label, key)
	}
	fl.children = slices.Delete(fl.children, i, i+1)
	fl.userSet, fl.valErr = true, ""
	return nil
}

// RenameEntry changes an entry's key, keeping its value and position.
func (fl *Field) RenameEntry(old, key string) error {
	i := slices.IndexFunc(fl.children, func(c *Field) bool { return c.entry && c.Key == old })
	if i < 0 {
		return fmt.Errorf("field %q has no entry %q", fl.Label, old)
	}
	if old == key {
		return nil
	}
	if err := fl.checkEntryKey(key, old); err != nil {
		return err
	}
	c := fl.children[i]
	c.Key, c.Label = key, key
	c.repath(append(clonePath(fl.Path), key))
	fl.userSet, fl.valErr = true, ""
	return nil
}

func (fl *Field) checkEntryKey(key, old string) error {
	if !fl.AllowsEntries() {
		return fmt.Errorf("%s field %q takes no entries (its schema has no additionalProperties)", fl.Kind, fl.Label)
	}
	if key == "" {
		return fmt.Errorf("an entry needs a key")
	}
	for _, p := range fl.node.props {
		if p.name == key {
			return fmt.Errorf("%q is a declared property: fill in its field", key)
		}
	}
	for _, c := range fl.children {
		if c.entry && c.Key == key && key != old {
			return fmt.Errorf("there is already an entry %q", key)
		}
	}
	return nil
}

// newEntry builds the value field of entry key from `additionalProperties`.
func (fl *Field) newEntry(key string) *Field {
	var schema any = true
	if _, isBool := fl.node.addl.(bool); !isBool {
		schema = fl.node.addl
	}
	e := fl.form.newField(fl, key, append(clonePath(fl.Path), key), schema, true, fl.Depth+1, fl.stack)
	e.entry = true
	e.Label = key
	return e
}

// isEntryKey reports whether key names no declared property of an object
// that takes entries: loaded values with such keys become entries.
func (fl *Field) isEntryKey(key string) bool {
	if !fl.AllowsEntries() {
		return false
	}
	return !slices.ContainsFunc(fl.node.props, func(p prop) bool { return p.name == key })
}

// IsMap reports whether the field is an object made only of entries: it
// AllowsEntries and declares no `properties` (a map such as z.record or
// dict[str, T]).
func (fl *Field) IsMap() bool {
	return fl.AllowsEntries() && len(fl.node.props) == 0
}
