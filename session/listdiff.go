package session

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
)

// What a re-listing changed (issue 24: a server that sends list_changed as a side effect of
// every listing looks the same as one whose tools really change, unless each re-listing
// says what changed).

// ListChanges says what changed between two listings of items keyed by key (a tool's or
// prompt's name, a resource's URI): "+ added, − removed, ~ changed (fields)", or "nothing
// changed". Items are compared member by member as JSON.
func ListChanges[T any](old, now []T, key func(T) string) string {
	before := map[string]map[string]json.RawMessage{}
	for _, it := range old {
		before[key(it)] = members(it)
	}
	var added, changed []string
	seen := map[string]bool{}
	for _, it := range now {
		k := key(it)
		seen[k] = true
		prev, ok := before[k]
		if !ok {
			added = append(added, k)
			continue
		}
		if fields := changedMembers(prev, members(it)); len(fields) > 0 {
			changed = append(changed, k+" ("+strings.Join(fields, ", ")+")")
		}
	}
	var removed []string
	for k := range before {
		if !seen[k] {
			removed = append(removed, k)
		}
	}
	sort.Strings(removed)
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "+ "+strings.Join(added, ", "))
	}
	if len(removed) > 0 {
		parts = append(parts, "− "+strings.Join(removed, ", "))
	}
	if len(changed) > 0 {
		parts = append(parts, "~ "+strings.Join(changed, ", "))
	}
	if len(parts) == 0 {
		return "nothing changed"
	}
	return strings.Join(parts, "; ")
}

// members is an item's JSON object, member by member (nil when it is not an object).
func members(v any) map[string]json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var m map[string]json.RawMessage
	_ = json.Unmarshal(b, &m)
	return m
}

// changedMembers lists the members that differ between a and b, sorted.
func changedMembers(a, b map[string]json.RawMessage) []string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok || !bytes.Equal(compact(v), compact(w)) {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func compact(b json.RawMessage) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return b
	}
	return buf.Bytes()
}
