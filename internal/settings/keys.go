package settings

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Key overrides ([keys] in the file) name an action of the UI's key table as
// "group.action", after its keyMap's fields in snake_case ("wire.search",
// "global.save_session", "detail.copy_command"), and the keys that trigger it instead of
// its defaults: bubbletea key names as KeyPressMsg.String() writes them. KeyActions is the
// list of actions (keyactions.go, written by go test ./ui -run TestKeyActionsInSettings
// -update), so that the file is checked without the UI.

// keyBinding is an action of the UI's key table: its "group.action" name, its default
// keys, and the scopes it works in (its group and the panes or dialogs that offer it).
type keyBinding struct {
	action string
	keys   []string
	scopes []string
}

// KeyActions lists every action of the UI's key table a key override may name, as
// "group.action", in the key table's order.
func KeyActions() []string {
	var out []string
	for _, b := range keyBindings() {
		out = append(out, b.action)
	}
	return out
}

// KeyClash reports a key that overrides give action while another action sharing a scope
// with it (a pane, a dialog or the key group) keeps it, by its own override or by default:
// the two would fight over the key and one would never run. Actions that share a key by
// default act in different modes (enter opens a resource, a prompt or a task) and are
// left alone. The error names the key and the other action; nil when there is no clash
// or action is unknown (CheckKeys reports that).
func KeyClash(action string, overrides map[string][]string) error {
	table := keyBindings()
	i := slices.IndexFunc(table, func(b keyBinding) bool { return b.action == action })
	if i < 0 {
		return nil
	}
	a := table[i]
	for _, o := range table {
		if o.action == action || !shareScope(a.scopes, o.scopes) || shareKey(a.keys, o.keys) {
			continue
		}
		keys, ok := overrides[o.action]
		if !ok {
			keys = o.keys
		}
		for _, k := range overrides[action] {
			if slices.Contains(keys, k) {
				how := "by default"
				if ok {
					how = "by its override"
				}
				return fmt.Errorf("key %q is already %s's (%s) and both work in %s; give one of them another key", k, o.action, how, strings.Join(common(a.scopes, o.scopes), ", "))
			}
		}
	}
	return nil
}

func shareScope(a, b []string) bool { return len(common(a, b)) > 0 }

func shareKey(a, b []string) bool {
	return slices.ContainsFunc(a, func(k string) bool { return slices.Contains(b, k) })
}

// common are the strings in both a and b, in a's order.
func common(a, b []string) []string {
	var out []string
	for _, s := range a {
		if slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// CheckKeys reports an action that is not in the key table (KeyActions) or a key name that
// no key press can match; the error says what is wrong without repeating the action.
func CheckKeys(action string, keys []string) error {
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
