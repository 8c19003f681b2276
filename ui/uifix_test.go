package ui

import (
	"os"
	"path/filepath"
	"testing"
)

// The save prompt of the Resources pane is an editable field: ctrl+u clears the proposed
// name, typed keys and backspace edit it, and enter writes to the typed path.
func TestResourceSavePathIsEditable(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "5", "j", "enter", "w")
	if m.resources.save == nil || m.resources.save.input.Value() != "logo.png" {
		t.Fatalf("save prompt: %+v", m.resources.save)
	}
	keys(t, m, "ctrl+u")
	if v := m.resources.save.input.Value(); v != "" {
		t.Fatalf("ctrl+u left %q", v)
	}
	path := filepath.Join(t.TempDir(), "pic.pngx")
	typeIn(t, m, path)
	keys(t, m, "backspace")
	if v := m.resources.save.input.Value(); v != path[:len(path)-1] {
		t.Fatalf("typed %q, field holds %q", path, v)
	}
	keys(t, m, "enter")
	b, err := os.ReadFile(path[:len(path)-1])
	if err != nil || string(b) != "\x89PNG\r\n\x1a\n" {
		t.Fatalf("saved %q %v (%s)", b, err, m.resources.saved)
	}
}
