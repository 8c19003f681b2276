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
