package session

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
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
	if roots[0].URI != FileURI(dir, runtime.GOOS) || roots[0].Name != filepath.Base(dir) {
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
	if r, _ := RootsFromPaths([]string{"."}); len(r) != 1 || r[0].URI != FileURI(wd, runtime.GOOS) {
		t.Fatalf("relative %+v", r)
	}
}

func TestFileURI(t *testing.T) {
	for _, tc := range []struct {
		path, goos, want string
	}{
		{"/home/ana/proj", "linux", "file:///home/ana/proj"},
		{"/Users/ana/my dir/#1?x%", "darwin", "file:///Users/ana/my%20dir/%231%3Fx%25"},
		{"/home/ana/日本", "linux", "file:///home/ana/%E6%97%A5%E6%9C%AC"},
		{`C:\Users\x\proj`, "windows", "file:///C:/Users/x/proj"},
		{`C:\`, "windows", "file:///C:/"},
		{`c:/Users/x y/p#1`, "windows", "file:///c:/Users/x%20y/p%231"},
		{`\\server\share\p`, "windows", "file://server/share/p"},
		{`\\server\share\my dir`, "windows", "file://server/share/my%20dir"},
		{`\\?\C:\very\long`, "windows", "file:///C:/very/long"},
		{`\\?\UNC\server\share\p`, "windows", "file://server/share/p"},
		// A backslash is a character of a Unix file name, not a separator.
		{`/home/ana/a\b`, "linux", "file:///home/ana/a%5Cb"},
	} {
		if got := FileURI(tc.path, tc.goos); got != tc.want {
			t.Errorf("FileURI(%q, %s) = %s, want %s", tc.path, tc.goos, got, tc.want)
		}
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
