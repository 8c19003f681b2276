package ui

import (
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestKeyActions(t *testing.T) {
	acts := KeyActions()
	for _, want := range []string{"global.quit", "global.save_session", "wire.search", "detail.copy_command", "list.page_down", "dialog.remove_root"} {
		if !slices.Contains(acts, want) {
			t.Errorf("KeyActions lacks %q", want)
		}
	}
	// One action per binding of the key table.
	n := 0
	km := defaultKeyMap()
	for _, g := range km.groups() {
		n += len(g.keys)
	}
	if len(acts) != n {
		t.Errorf("%d actions for %d bindings", len(acts), n)
	}
}

func TestCheckKeyOverride(t *testing.T) {
	for _, tc := range []struct {
		action string
		keys   []string
		want   string // "" = valid
	}{
		{"wire.search", []string{"ctrl+f"}, ""},
		{"global.quit", []string{"q", "ctrl+q", "f10", "Q", "?", "+", "ctrl++", "ctrl+alt+shift+delete", "é"}, ""},
		{"wire.serch", []string{"/"}, `no action "serch" in wire (its actions are jump, wire_filter, filter_expr, search, search_next, search_prev)`},
		{"global.saveSession", []string{"s"}, `no action "saveSession" in global (did you mean "save_session"?)`},
		{"wir.search", []string{"/"}, `no key group "wir" (the groups are global, list, detail,`},
		{"global.quit", nil, "give at least one key"},
		{"global.quit", []string{""}, "an empty key name"},
		{"global.quit", []string{"ctl+q"}, `key "ctl+q": "ctl" is not a modifier`},
		{"global.quit", []string{"alt+ctrl+q"}, `key "alt+ctrl+q": write the modifiers in the order ctrl+alt+shift+meta+hyper+super`},
		{"global.quit", []string{"ctrl+ctrl+q"}, `write the modifiers in the order`},
		{"global.quit", []string{"pagedown"}, `key "pagedown": no such key`},
		{"global.quit", []string{"f64"}, `key "f64": no such key`},
		{"global.quit", []string{"ctrl+"}, `no such key`},
		{"global.quit", []string{" "}, `write the space bar as "space"`},
		{"global.quit", []string{"\x07"}, `not a printable character`},
		{"global.quit", []string{"shift+a"}, `a shifted character is named by what it types`},
	} {
		err := CheckKeyOverride(tc.action, tc.keys)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %q: %v", tc.action, tc.keys, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s %q: error %v, want %q", tc.action, tc.keys, err, tc.want)
		}
	}
}

// TestKeyOverrideApplied: an override moves the action to the new keys (the old ones no
// longer trigger it), the help shows them, and the UI acts on them.
func TestKeyOverrideApplied(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	km := withKeyOverrides(defaultKeyMap(), map[string][]string{"wire.search": {"ctrl+f", "s"}, "bogus.action": {"x"}}, log)
	if !key.Matches(keyMsg("ctrl+f"), km.Wire.Search) || !key.Matches(keyMsg("s"), km.Wire.Search) || key.Matches(keyMsg("/"), km.Wire.Search) {
		t.Errorf("wire.search keys %v", km.Wire.Search.Keys())
	}
	if h := km.Wire.Search.Help(); h.Key != "ctrl+f/s" || h.Desc != defaultWireKeys().Search.Help().Desc {
		t.Errorf("help %+v", h)
	}
	if !slices.Equal(km.Wire.SearchNext.Keys(), defaultWireKeys().SearchNext.Keys()) {
		t.Error("an override changed another binding")
	}

	m := newModel(Options{Theme: "plain", Keys: map[string][]string{"wire.search": {"ctrl+f"}}})
	useFakeClock(m)
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 30})
	drive(t, m, eventsMsg{events: toolSession()})
	keys(t, m, "3", "g", "/")
	if m.wire.find.mode != findNone {
		t.Fatal("/ still opens the search after wire.search moved to ctrl+f")
	}
	keys(t, m, "ctrl+f")
	typeIn(t, m, "ech")
	if s := m.wire.selected().seq; s != 7 {
		t.Fatalf("ctrl+f then ech selected #%d, want #7", s)
	}
	keys(t, m, "esc", "?")
	mustContain(t, "help", view(m), "ctrl+f")
}
