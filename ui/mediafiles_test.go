package ui

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/media"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// framesIn lists the files in dir/frames.
func framesIn(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "frames"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// #16: w then O (and O then w) on a result's picture write one file, and both say its path.
func TestSaveThenOpenOneFile(t *testing.T) {
	for _, order := range [][]string{{"w", "O"}, {"O", "w"}} {
		t.Run(strings.Join(order, "-then-"), func(t *testing.T) {
			dir := t.TempDir()
			m := picModel(t, 100, 30, func(o *Options) { o.HistoryDir, o.Viewer = dir, "no-such-viewer-for-mcp-inspect" })
			keys(t, m, order[0])
			first := framesIn(t, dir)
			if len(first) != 1 || !strings.HasSuffix(first[0], "-block-2.png") {
				t.Fatalf("after %s: %v", order[0], first)
			}
			path := filepath.Join(dir, "frames", first[0])
			keys(t, m, order[1])
			if got := framesIn(t, dir); len(got) != 1 {
				t.Fatalf("%s then %s wrote %v", order[0], order[1], got)
			}
			if order[1] == "O" {
				mustContain(t, "status", m.flash.text, "the picture is saved at "+path)
			} else {
				mustContain(t, "status", m.flash.text, "1 decoded block(s) saved: "+path+" (already there)")
			}
			// A file changed since is not the picture: the next key writes a new one.
			if err := os.WriteFile(path, []byte("edited"), 0o600); err != nil {
				t.Fatal(err)
			}
			keys(t, m, order[1])
			if got := framesIn(t, dir); len(got) != 2 {
				t.Fatalf("after the file changed: %v", got)
			}
		})
	}
}

// #16: in 5 Resources, O then w offers the file O wrote; w then O opens the file w wrote.
func TestResourceSaveThenOpenOneFile(t *testing.T) {
	s := moreSession()
	s.resources = append(s.resources, mcpclient.Resource{URI: "mem://quad", Name: "quad", MimeType: "image/png"})
	s.contents["mem://quad"] = &mcpclient.ReadResourceResult{Contents: []mcpclient.ResourceContents{{URI: "mem://quad", MimeType: "image/png", Blob: base64.StdEncoding.EncodeToString(quadPNG(t))}}}
	dir := t.TempDir()
	m := connected(t, s, 120, 30, withPreview(media.Off), func(o *Options) { o.HistoryDir, o.Viewer = dir, "no-such-viewer-for-mcp-inspect" })
	keys(t, m, "5", "down", "down", "enter", "O")
	opened := filepath.Join(dir, "frames", "resource-content-1.png")
	mustContain(t, "status", m.flash.text, "the picture is saved at "+opened)
	keys(t, m, "w")
	if got := m.resources.save.input.Value(); got != opened {
		t.Fatalf("save prompt after O: %q, want %q", got, opened)
	}
	keys(t, m, "enter")
	mustContain(t, "saved", m.resources.saved, "already saved: "+opened)
	if got := framesIn(t, dir); len(got) != 1 {
		t.Fatalf("O then w wrote %v", got)
	}

	// w to a name of one's own, then O opens that file.
	m = connected(t, s, 120, 30, withPreview(media.Off), func(o *Options) { o.HistoryDir, o.Viewer = dir, "no-such-viewer-for-mcp-inspect" })
	keys(t, m, "5", "down", "down", "enter", "w")
	mine := filepath.Join(t.TempDir(), "mine.png")
	m.resources.save.input.SetValue(mine)
	keys(t, m, "enter", "O")
	mustContain(t, "status", m.flash.text, "the picture is saved at "+mine)
	if got := framesIn(t, dir); len(got) != 1 {
		t.Fatalf("w then O wrote %v", got)
	}
}
