package ui

import (
	"os"
	"path/filepath"
	"testing"
)

// TestResourceSaveExpandsHome: the w dialog's "~/x.png" is written in the home
// directory (it was "no such file or directory").
func TestResourceSaveExpandsHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	msg, ok := writeFile("", "~/x.png", []byte("png"))().(savedMsg)
	if !ok || msg.err != nil {
		t.Fatalf("save to ~/x.png: %+v", msg)
	}
	b, err := os.ReadFile(filepath.Join(home, "x.png"))
	if err != nil || string(b) != "png" {
		t.Fatalf("file not in the home directory: %v %q", err, b)
	}
	if got := expandHome("a/~/b", os.UserHomeDir); got != "a/~/b" {
		t.Fatalf("a ~ inside the name changed: %q", got)
	}
}
