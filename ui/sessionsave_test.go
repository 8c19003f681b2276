package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// collectMsgs runs cmd (and the batches it returns) and gives the messages it sends.
func collectMsgs(t *testing.T, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	if cmd == nil {
		return nil
	}
	msg, ok := runCmd(t, cmd)
	if !ok {
		return nil
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, collectMsgs(t, c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

func newKeepModel(t *testing.T, save func(string) (string, error)) *model {
	t.Helper()
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Title: "fake", SessionPath: "/state/sessions/s1.jsonl", SaveSession: save})
	m.now = func() time.Time { return t0.Add(1500 * time.Millisecond) }
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m.Init()
	return m
}

func TestSessionPathShown(t *testing.T) {
	m := newKeepModel(t, nil)
	if bar := m.statusBar(); !strings.Contains(bar, "● rec") || !strings.Contains(bar, "0 violations") {
		t.Errorf("the status line must mark the recording and keep its facts:\n%s", bar)
	}
	keys(t, m, "4")
	if v := view(m); !strings.Contains(v, "recording to /state/sessions/s1.jsonl") {
		t.Errorf("server pane does not show the session path:\n%s", v)
	}
	// Without SaveSession, S is disabled: no prompt, a note.
	keys(t, m, "S")
	if openDialog[*keepPrompt](m) != nil {
		t.Fatal("S opened a prompt without SaveSession")
	}
	m.syncKeys()
	if m.c.keys.Global.SaveSession.Enabled() {
		t.Error("S enabled without SaveSession")
	}
}

func TestSaveSessionKey(t *testing.T) {
	var got []string
	calls := 0
	save := func(name string) (string, error) {
		calls++
		got = append(got, name)
		if name == "bad" {
			return "", errors.New("disk full")
		}
		return "/state/saved/" + name + ".jsonl", nil
	}
	m := newKeepModel(t, save)
	m.syncKeys()
	if !m.c.keys.Global.SaveSession.Enabled() {
		t.Fatal("S disabled with SaveSession set")
	}
	keys(t, m, "S")
	if openDialog[*keepPrompt](m) == nil {
		t.Fatal("S did not open the name prompt")
	}
	if v := view(m); !strings.Contains(v, "save session as:") {
		t.Errorf("prompt not drawn:\n%s", v)
	}
	typeIn(t, m, "bug-42 q1") // q and digits are text in the prompt
	if m.quitting || m.focus != paneTools {
		t.Fatal("typing in the prompt quit or switched panes")
	}
	_, cmd := m.Update(keyMsg("enter"))
	if calls != 0 {
		t.Fatal("SaveSession called inside Update")
	}
	for _, msg := range collectMsgs(t, cmd) {
		if _, ok := msg.(sessionSavedMsg); ok {
			m.Update(msg)
		}
	}
	if openDialog[*keepPrompt](m) != nil {
		t.Error("prompt still open after a save that worked")
	}
	if calls != 1 || got[0] != "bug-42 q1" {
		t.Fatalf("SaveSession calls %d, names %q", calls, got)
	}
	if s := m.statusBar(); !strings.Contains(s, "session saved to /state/saved/bug-42 q1.jsonl") {
		t.Errorf("status line after save:\n%s", s)
	}

	// An error shows in the status line.
	keys(t, m, "S")
	typeIn(t, m, "bad")
	_, cmd = m.Update(keyMsg("enter"))
	for _, msg := range collectMsgs(t, cmd) {
		if _, ok := msg.(sessionSavedMsg); ok {
			m.Update(msg)
		}
	}
	if s := m.statusBar(); !strings.Contains(s, "session not saved: disk full") {
		t.Errorf("status line after a failed save:\n%s", s)
	}

	// esc closes the prompt (still open after the failure) without saving.
	keys(t, m, "esc")
	keys(t, m, "S", "esc")
	if openDialog[*keepPrompt](m) != nil || calls != 2 {
		t.Errorf("esc: prompt %v, calls %d", openDialog[*keepPrompt](m) != nil, calls)
	}
}

// TestSaveSessionNameExistsKeepsPrompt: a refused name keeps the dialog open with why,
// so another name can be typed; the second name saves and closes it.
func TestSaveSessionNameExistsKeepsPrompt(t *testing.T) {
	var got []string
	save := func(name string) (string, error) {
		got = append(got, name)
		if name == "mysave" {
			return "", errors.New("mysave exists: choose another name")
		}
		return "/state/saved/" + name + ".jsonl", nil
	}
	m := newKeepModel(t, save)
	enter := func() {
		_, cmd := m.Update(keyMsg("enter"))
		for _, msg := range collectMsgs(t, cmd) {
			if _, ok := msg.(sessionSavedMsg); ok {
				m.Update(msg)
			}
		}
	}
	keys(t, m, "S")
	typeIn(t, m, "mysave")
	enter()
	if openDialog[*keepPrompt](m) == nil {
		t.Fatal("the dialog closed on a name that exists")
	}
	if v := view(m); !strings.Contains(v, "mysave exists: choose another name") || !strings.Contains(v, "save session as:") {
		t.Fatalf("the dialog does not say why:\n%s", v)
	}
	typeIn(t, m, "2")
	enter()
	if openDialog[*keepPrompt](m) != nil || len(got) != 2 || got[1] != "mysave2" {
		t.Fatalf("second name: prompt open %v, names %q", openDialog[*keepPrompt](m) != nil, got)
	}
	if s := m.statusBar(); !strings.Contains(s, "session saved to /state/saved/mysave2.jsonl") {
		t.Errorf("status line after the second name:\n%s", s)
	}
}
