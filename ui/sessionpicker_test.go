package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// pickerRows are three kept sessions, newest first (times in the local zone, so the
// view does not depend on the machine's).
func pickerRows() []SessionRow {
	at := func(h int) time.Time { return time.Date(2026, 12, 5, h, 4, 5, 0, time.Local) }
	return []SessionRow{
		{Path: "/state/sessions/session-3.jsonl", Server: "node everything.js stdio", Start: at(14), Duration: 95 * time.Second, Size: 48 << 10, Calls: 4, Violations: 0},
		{Path: "/state/sessions/session-2.jsonl", Server: "uvx weather-server", Start: at(11), Duration: 12 * time.Minute, Size: 104 << 20, Calls: 30, Violations: 2, Partial: true},
		{Path: "/state/sessions/session-1.jsonl", Server: "https://example.com/mcp", Start: at(9), Duration: 3 * time.Second, Size: 900, Calls: 0, Violations: 7},
	}
}

// pressKeyDrive presses key and runs the commands it returns, feeding their messages
// back (the picker reads its rows in a Cmd).
func pressKeyDrive(t *testing.T, m *model, k string) {
	t.Helper()
	_, cmd := m.Update(keyMsg(k))
	for _, msg := range collectMsgs(t, cmd) {
		if _, ok := msg.(sessionsMsg); ok {
			m.Update(msg)
		}
	}
}

// pickerModel is an opened trace's TUI that can list kept sessions.
func pickerModel(t *testing.T, only bool) *model {
	t.Helper()
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Title: "trace", FromTrace: true, PickSession: only,
		ListSessions: func() ([]SessionRow, error) { return pickerRows(), nil }})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	for _, msg := range collectMsgs(t, m.Init()) {
		if _, ok := msg.(sessionsMsg); ok {
			m.Update(msg)
		}
	}
	return m
}

// TestSessionPickerFilterAndOpen: K opens the picker with every kept session; typing
// filters by any column (two words must both match); enter ends the TUI with the
// selected session's trace in Result.Open.
func TestSessionPickerFilterAndOpen(t *testing.T) {
	m := pickerModel(t, false)
	if openDialog[*sessionPicker](m) != nil {
		t.Fatal("the picker is open before K")
	}
	pressKeyDrive(t, m, "K")
	p := openDialog[*sessionPicker](m)
	if p == nil || len(p.shown) != 3 {
		t.Fatalf("K: picker %v", p)
	}
	v := view(m)
	for _, want := range []string{"kept sessions", "node everything.js stdio", "1m35s", "104.0 MiB", "30+", "https://example.com/mcp", "3 of 3"} {
		if !strings.Contains(v, want) {
			t.Errorf("the picker does not show %q:\n%s", want, v)
		}
	}
	keys(t, m, "w", "e", "a")
	if len(p.shown) != 1 || p.rows[p.shown[0]].Server != "uvx weather-server" {
		t.Fatalf("filter wea: shown %v", p.shown)
	}
	keys(t, m, "backspace", "backspace", "backspace", "e", "x", "a", "m", "p", "l", "e")
	if len(p.shown) != 1 || p.rows[p.shown[0]].Calls != 0 {
		t.Fatalf("filter example: shown %v", p.shown)
	}
	for range 7 {
		keys(t, m, "backspace")
	}
	keys(t, m, "down", "down", "up")
	_, cmd := m.Update(keyMsg("enter"))
	if m.result(nil).Open != "/state/sessions/session-2.jsonl" || cmd == nil {
		t.Fatalf("enter on the second row: result %+v", m.result(nil))
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("enter does not end the TUI")
	}
}

// TestSessionPickerEsc: esc closes the picker over a TUI and the TUI goes on; when the
// picker is the whole TUI (open without a trace), esc quits with nothing to open.
func TestSessionPickerEsc(t *testing.T) {
	m := pickerModel(t, false)
	pressKeyDrive(t, m, "K")
	_, cmd := m.Update(keyMsg("esc"))
	if openDialog[*sessionPicker](m) != nil || m.quitting {
		t.Fatalf("esc: picker still open or quitting")
	}
	if cmd != nil {
		if _, ok := cmd().(tea.QuitMsg); ok {
			t.Fatal("esc over a TUI quits it")
		}
	}
	only := pickerModel(t, true)
	if openDialog[*sessionPicker](only) == nil {
		t.Fatal("PickSession: no picker at start")
	}
	_, cmd = only.Update(keyMsg("esc"))
	if cmd == nil || only.result(nil).Open != "" {
		t.Fatalf("esc on the start picker: %v, %+v", cmd, only.result(nil))
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("esc on the start picker does not quit")
	}
}

// TestSessionPickerDisabled: without ListSessions, K opens nothing.
func TestSessionPickerDisabled(t *testing.T) {
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Title: "trace", FromTrace: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m.Init()
	pressKeyDrive(t, m, "K")
	if openDialog[*sessionPicker](m) != nil {
		t.Error("K opened a picker without ListSessions")
	}
}
