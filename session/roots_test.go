package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

func TestRootsFromPaths(t *testing.T) {
	dir := t.TempDir()
	roots, problems := RootsFromPaths([]string{dir, filepath.Join(dir, "missing"), "file:///srv/data", "https://x/y", "  ", "file://%zz"})
	if len(roots) != 4 {
		t.Fatalf("roots %+v problems %q", roots, problems)
	}
	if roots[0].URI != "file://"+filepath.ToSlash(dir) || roots[0].Name != filepath.Base(dir) {
		t.Errorf("dir root %+v", roots[0])
	}
	if roots[1].Name != "missing" || roots[2] != (mcpclient.Root{URI: "file:///srv/data", Name: "data"}) || roots[3].Name != "y" {
		t.Errorf("roots %+v", roots)
	}
	want := []string{
		`root "` + filepath.Join(dir, "missing") + `": does not exist (kept)`,
		`root "https://x/y": roots must be file:// URIs for now (MCP client/roots) (kept)`,
		`root "  ": empty`,
	}
	if len(problems) != 4 || problems[0] != want[0] || problems[1] != want[1] || problems[2] != want[2] || !strings.HasPrefix(problems[3], `root "file://%zz": `) {
		t.Fatalf("problems %q", problems)
	}
	// A relative path becomes absolute.
	wd, _ := os.Getwd()
	if r, _ := RootsFromPaths([]string{"."}); len(r) != 1 || r[0].URI != "file://"+filepath.ToSlash(wd) {
		t.Fatalf("relative %+v", r)
	}
}

func TestRootsListAndNotify(t *testing.T) {
	var r Roots
	r.Add([]mcpclient.Root{{URI: "file:///a"}, {URI: "file:///b"}}, []string{"p"})
	if !r.Remove(0) || r.Remove(5) || len(r.List) != 1 || r.List[0].URI != "file:///b" || len(r.Notes) != 1 {
		t.Fatalf("roots %+v", r)
	}
	if !NotifyChanged(ClientFeatures{}, mcpclient.EraLegacy, true) || NotifyChanged(ClientFeatures{NoRoots: true}, mcpclient.EraLegacy, true) ||
		NotifyChanged(ClientFeatures{}, mcpclient.EraModern, true) || NotifyChanged(ClientFeatures{}, mcpclient.EraLegacy, false) {
		t.Fatal("NotifyChanged")
	}
	if RootsNotifiedNote(nil) != (Note{Info, "sent notifications/roots/list_changed"}) || RootsNotifiedNote(errors.New("x")) != (Note{Error, "notifications/roots/list_changed failed: x"}) {
		t.Fatal("notes")
	}
}
