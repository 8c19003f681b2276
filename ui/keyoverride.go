package ui

import (
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"

	"github.com/mcp-inspect/mcp-inspect/internal/settings"
)

// Key overrides come from the settings file ([keys] in config.toml): an action of the key
// table, named "group.action" after keyMap's fields in snake_case ("wire.search",
// "global.save_session", "detail.copy_command"), to the keys that trigger it instead of its
// default ones. Keys are bubbletea key names as KeyPressMsg.String() writes them.

// keyActions lists every action a key override may name, as "group.action", in the key
// table's order. internal/settings keeps a copy with each action's default keys and
// scopes (keyBindings), to check a settings file without the UI; TestKeyActionsInSettings
// keeps the two the same.
func keyActions() []string {
	var out []string
	for _, a := range keyActionTable() {
		out = append(out, a.name)
	}
	return out
}

// keyAction is an action of the key table: its "group.action" name, its default keys and
// the scopes it works in (its group, and the panes and dialogs of its `in` tag; a global
// key works in every pane). Two actions with a scope in common must not share a key the
// defaults do not already give both (settings.KeyClash).
type keyAction struct {
	name   string
	keys   []string
	scopes []string
}

func keyActionTable() []keyAction {
	var out []keyAction
	km := defaultKeyMap()
	v := reflect.ValueOf(&km).Elem()
	for i := range v.NumField() {
		g := v.Field(i)
		group := snake(v.Type().Field(i).Name)
		for j := range g.NumField() {
			scopes := []string{group}
			if group == "global" {
				scopes = append(scopes, paneNames()...)
			}
			for _, in := range strings.Fields(g.Type().Field(j).Tag.Get("in")) {
				if !slices.Contains(scopes, in) {
					scopes = append(scopes, in)
				}
			}
			b := g.Field(j).Interface().(key.Binding)
			out = append(out, keyAction{name: group + "." + snake(g.Type().Field(j).Name), keys: b.Keys(), scopes: scopes})
		}
	}
	return out
}

// paneNames are the panes' names as `in` tags write them, in tab order.
func paneNames() []string {
	return []string{"tools", "call", "wire", "server", "resources", "prompts", "logs", "tasks"}
}

// withKeyOverrides returns km with the overrides applied: each named binding gets the new
// keys and a help key written from them. Invalid overrides (cmd checks them first) are
// logged and left out.
func withKeyOverrides(km keyMap, overrides map[string][]string, log *slog.Logger) keyMap {
	if len(overrides) == 0 {
		return km
	}
	v := reflect.ValueOf(&km).Elem()
	for action, keys := range overrides {
		if err := settings.CheckKeys(action, keys); err != nil {
			log.Warn("key override left out", "action", action, "err", err)
			continue
		}
		if err := settings.KeyClash(action, overrides); err != nil {
			log.Warn("key override left out", "action", action, "err", err)
			continue
		}
		group, name, _ := strings.Cut(action, ".")
		for i := range v.NumField() {
			if snake(v.Type().Field(i).Name) != group {
				continue
			}
			g := v.Field(i)
			for j := range g.NumField() {
				if snake(g.Type().Field(j).Name) != name {
					continue
				}
				b := g.Field(j).Interface().(key.Binding)
				b.SetKeys(keys...)
				b.SetHelp(strings.Join(keys, "/"), b.Help().Desc)
				g.Field(j).Set(reflect.ValueOf(b))
			}
		}
	}
	return km
}

// snake writes a Go field name in snake_case: SaveSession → save_session, RawJSON →
// raw_json.
func snake(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			// A word starts at a capital after a lower-case letter, or at the last
			// capital of a run followed by a lower-case one: JSON is "json", JSONKey
			// "json_key".
			if i > 0 && (!unicode.IsUpper(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
