package ui

import (
	"reflect"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
)

// keyGroup is one group of the key map with the context it works in, as the README's
// key table and the help name it.
type keyGroup struct {
	where string
	keys  []key.Binding
}

// groups are the key map's groups in the README's order.
func (k *keyMap) groups() []keyGroup {
	return []keyGroup{
		{"anywhere", bindingsOf(k.Global)},
		{"lists", bindingsOf(k.List)},
		{"detail", bindingsOf(k.Detail)},
		{"1 Tools", bindingsOf(k.Tools)},
		{"form", bindingsOf(k.Form)},
		{"text fields", bindingsOf(k.Input)},
		{"2 Call", bindingsOf(k.Call)},
		{"3 Wire", bindingsOf(k.Wire)},
		{"JSON", bindingsOf(k.JSON)},
		{"5 Resources", bindingsOf(k.Resources)},
		{"7 Logs", bindingsOf(k.Logs)},
		{"8 Tasks", bindingsOf(k.Tasks)},
		{"dialogs", bindingsOf(k.Dialog)},
		{"breakpoints", bindingsOf(k.Breakpoints)},
	}
}

// offered lists the bindings offered in context in (named in their field's `in` tag, see
// keyMap), in the key map's order: the help of a pane or dialog.
func (k *keyMap) offered(in string) []key.Binding {
	var out []key.Binding
	v := reflect.ValueOf(k).Elem()
	for i := range v.NumField() {
		g := v.Field(i)
		for j := range g.NumField() {
			if slices.Contains(strings.Fields(g.Type().Field(j).Tag.Get("in")), in) {
				out = append(out, g.Field(j).Interface().(key.Binding))
			}
		}
	}
	return out
}

// bindingsOf lists the bindings of a group struct in declaration order.
func bindingsOf(group any) []key.Binding {
	v := reflect.ValueOf(group)
	out := make([]key.Binding, 0, v.NumField())
	for i := range v.NumField() {
		if b, ok := v.Field(i).Interface().(key.Binding); ok {
			out = append(out, b)
		}
	}
	return out
}

// keyTable renders the key map as the README's markdown table (where, key, does), one
// row per binding, the context said once per group. It reads the default help texts, so
// pass defaultKeyMap(), not a map whose bindings state has changed.
func keyTable(k keyMap) string {
	var b strings.Builder
	b.WriteString("| where | key | does |\n|---|---|---|\n")
	for _, g := range k.groups() {
		where := g.where
		for _, kb := range g.keys {
			h := kb.Help()
			b.WriteString("| " + where + " | `" + h.Key + "` | " + strings.ReplaceAll(h.Desc, "|", `\|`) + " |\n")
			where = ""
		}
	}
	return b.String()
}

// keyGrammar says in one sentence what the keys that work in more than one pane mean
// in all of them (issue 27), with their keys as bound now: the help page and the man page
// show it.
func keyGrammar(k *keyMap) string {
	key := func(b key.Binding) string { return b.Help().Key }
	return "Keys mean the same in every pane: " +
		key(k.List.Search) + " searches (the selection jumps to the first match; " + key(k.List.SearchNext) + "/" + key(k.List.SearchPrev) + " next/previous match; enter keeps it, esc clears it), " +
		key(k.List.Filter) + " filters (shows only what matches; " + key(k.Wire.WireFilter) + " cycles a pane's presets), " +
		key(k.List.NextPage) + " loads the next page of a listing, " +
		key(k.Detail.Copy) + " copies what is shown, " + key(k.Detail.CopyParsed) + " its other form (the parsed message, a JSON node's jq path), " + key(k.Detail.CopyExact) + " the exact bytes; " +
		key(k.JSON.Explore) + " explores JSON, esc goes back."
}

// manKeys renders the key map as the man page's KEYS section (roff): one subsection per
// group, a tagged paragraph per binding. cmd/mankeys.go holds it (cmd may not import
// ui); TestREADMEKeyTable regenerates it with -update.
func manKeys(k keyMap) string {
	esc := func(s string) string {
		s = strings.ReplaceAll(s, `\`, `\e`)
		if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
			s = `\&` + s
		}
		return s
	}
	var b strings.Builder
	b.WriteString(".SH KEYS\n.PP\nThe keys of the TUI. " + esc(k.Global.Help.Help().Key) + " lists those of the focused pane; " +
		esc(k.List.Search.Help().Key) + " there searches them. The settings file's keys section rebinds them (mcp-inspect settings path).\n.PP\n" + esc(keyGrammar(&k)) + "\n")
	for _, g := range k.groups() {
		b.WriteString(".SS " + esc(g.where) + "\n")
		for _, kb := range g.keys {
			h := kb.Help()
			b.WriteString(".TP\n.B \"" + strings.ReplaceAll(esc(h.Key), `"`, `\(dq`) + "\"\n" + esc(h.Desc) + "\n")
		}
	}
	return b.String()
}
