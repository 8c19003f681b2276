package ui

import (
	"reflect"
	"slices"
	"sort"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// coverKey is the key press named k (the names bubbles' key.Binding matches).
func coverKey(k string) tea.KeyPressMsg {
	named := map[string]rune{"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd, "delete": tea.KeyDelete}
	if c, ok := named[k]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	return keyMsg(k)
}

// allKeyNames is every key any binding declares, and every printable ASCII key.
func allKeyNames(k *keyMap) []string {
	seen := map[string]bool{}
	v := reflect.ValueOf(k).Elem()
	for i := range v.NumField() {
		for _, b := range bindingsOf(v.Field(i).Interface()) {
			for _, n := range b.Keys() {
				seen[n] = true
			}
		}
	}
	for r := '!'; r <= '~'; r++ {
		seen[string(r)] = true
	}
	var out []string
	for n := range seen {
		if coverKey(n).String() == n {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// TestEveryPaneKeyIsInHelp fails when a pane acts on a key its help does not list: each
// key is pressed in each pane of a populated session (a new session after every key a
// pane takes), and a key taken must be one of the pane's bindings or a global one.
func TestEveryPaneKeyIsInHelp(t *testing.T) {
	m := goldenModel(t, 120, 30)
	names := allKeyNames(&m.c.keys)
	for id := range paneCount {
		m := goldenModel(t, 120, 30)
		for _, n := range names {
			m.focus = id
			m.sync()
			p := m.panes[id]
			listed := slices.ContainsFunc(append(p.bindings(), bindingsOf(m.c.keys.Global)...), func(b key.Binding) bool {
				return slices.Contains(b.Keys(), n)
			})
			handled, _, _ := p.handleKey(coverKey(n))
			if !handled {
				// The keys the root handles for the pane it left them to (pictures, markdown).
				_, handled = m.mediaKey(coverKey(n))
			}
			if handled && !listed {
				t.Errorf("the %s pane takes %q but its help does not list it", p.title(), n)
			}
			if handled {
				m = goldenModel(t, 120, 30)
			}
		}
	}
}
