package ui

import (
	"strings"
	"testing"
)

// TestOfflineNoRootsNoSetLevel: offline, R does not open the roots editor and the Logs
// pane neither offers nor opens "l set level": there is no server to send them to.
func TestOfflineNoRootsNoSetLevel(t *testing.T) {
	m := openOffline(t, recordTrace(t))
	keys(t, m, "R")
	if openDialog[*rootsEditor](m) != nil {
		t.Fatal("R opened the roots editor offline")
	}
	keys(t, m, "?")
	if out := view(m); !strings.Contains(out, "next pane") || strings.Contains(out, "edit roots") {
		t.Fatalf("offline help must list the global keys but not R edit roots:\n%s", out)
	}
	keys(t, m, "?")
	keys(t, m, "7")
	if m.focus != paneLogs {
		t.Fatalf("7 did not show the Logs pane (focus %v)", m.focus)
	}
	if out := view(m); strings.Contains(out, "set level") {
		t.Fatalf("the Logs pane offers set level offline:\n%s", out)
	}
	keys(t, m, "l")
	if m.logs.choosing {
		t.Fatal("l opened the level chooser offline")
	}
}
