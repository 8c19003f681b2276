package ui

import (
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
)

// Key overrides come from the settings file ([keys] in config.toml): an action of the key
// table, named "group.action" after keyMap's fields in snake_case ("wire.search",
// "global.save_session", "detail.copy_command"), to the keys that trigger it instead of its
// default ones. Keys are bubbletea key names as KeyPressMsg.String() writes them.

// KeyActions lists every action a key override may name, as "group.action", in the key
// table's order.
func KeyActions() []string {
	var out []string
	km := defaultKeyMap()
	v := reflect.ValueOf(&km).Elem()
	for i := range v.NumField() {
		g := v.Field(i)
		for j := range g.NumField() {
			out = append(out, snake(v.Type().Field(i).Name)+"."+snake(g.Type().Field(j).Name))
		}
	}
	return out
}

// CheckKeyOverride reports an action that is not in the key table or a key name that no
// key press can match; the error says what is wrong without repeating the action.
func CheckKeyOverride(action string, keys []string) error {
	if !slices.Contains(KeyActions(), action) {
		return unknownAction(action)
	}
	if len(keys) == 0 {
		return fmt.Errorf("give at least one key")
	}
	for _, k := range keys {
		if err := checkKeyName(k); err != nil {
			return err
		}
	}
	return nil
}

func unknownAction(action string) error {
	group, name, _ := strings.Cut(action, ".")
	var groups, inGroup []string
	for _, a := range KeyActions() {
		g, n, _ := strings.Cut(a, ".")
		if !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
		if g == group {
			inGroup = append(inGroup, n)
		}
	}
	if len(inGroup) == 0 {
		return fmt.Errorf("no key group %q (the groups are %s)", group, strings.Join(groups, ", "))
	}
	for _, n := range inGroup {
		if strings.EqualFold(strings.ReplaceAll(n, "_", ""), strings.ReplaceAll(strings.ReplaceAll(name, "-", ""), "_", "")) {
			return fmt.Errorf("no action %q in %s (did you mean %q?)", name, group, n)
		}
	}
	return fmt.Errorf("no action %q in %s (its actions are %s)", name, group, strings.Join(inGroup, ", "))
}

// keyModifiers are the modifiers in the order KeyPressMsg.String() writes them.
func keyModifiers() []string { return []string{"ctrl", "alt", "shift", "meta", "hyper", "super"} }

// namedKeys are the key names KeyPressMsg.String() writes for keys without text (function
// keys f1 to f63 aside).
func namedKeys() []string {
	return []string{"enter", "tab", "backspace", "esc", "space", "up", "down", "left", "right", "begin", "find", "insert", "delete", "select", "pgup", "pgdown", "home", "end", "capslock", "scrolllock", "numlock", "printscreen", "pause", "menu"}
}

// checkKeyName reports a key name that no key press can match.
func checkKeyName(k string) error {
	if k == "" {
		return fmt.Errorf("an empty key name")
	}
	base, mods := k, []string(nil)
	if i := strings.LastIndex(k[:max(len(k)-1, 0)], "+"); i >= 0 {
		// "ctrl++" is ctrl and the + key; a lone "+" is the + key.
		base, mods = k[i+1:], strings.Split(k[:i], "+")
	}
	last := -1
	for _, m := range mods {
		i := slices.Index(keyModifiers(), m)
		switch {
		case i < 0:
			return fmt.Errorf("key %q: %q is not a modifier (%s)", k, m, strings.Join(keyModifiers(), ", "))
		case i <= last:
			return fmt.Errorf("key %q: write the modifiers in the order %s, as key presses are named", k, strings.Join(keyModifiers(), "+"))
		}
		last = i
	}
	switch {
	case base == "":
		return fmt.Errorf("key %q: no key after the modifiers", k)
	case slices.Contains(namedKeys(), base) || isFunctionKey(base):
		return nil
	case utf8.RuneCountInString(base) == 1:
		r, _ := utf8.DecodeRuneInString(base)
		if r == ' ' {
			return fmt.Errorf("key %q: write the space bar as \"space\"", k)
		}
		if !unicode.IsPrint(r) {
			return fmt.Errorf("key %q: not a printable character; name the key (ctrl+a, enter, ...)", k)
		}
		if len(mods) == 1 && mods[0] == "shift" {
			return fmt.Errorf("key %q: a shifted character is named by what it types (\"A\", \"?\")", k)
		}
		return nil
	}
	return fmt.Errorf("key %q: no such key (one character, or %s, f1 to f63, after modifiers such as ctrl+)", k, strings.Join(namedKeys(), ", "))
}

func isFunctionKey(s string) bool {
	n := 0
	if _, err := fmt.Sscanf(s, "f%d", &n); err != nil {
		return false
	}
	return fmt.Sprintf("f%d", n) == s && n >= 1 && n <= 63
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
		if err := CheckKeyOverride(action, keys); err != nil {
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

// snake writes a Go field name in snake_case: SaveSession → save_session.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
