package cmd

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestUIOnlyToRunTheTUI: cmd imports ui only in the files that run the TUI; the headless
// commands and the rest reach features, roots and shell words through session and
// internal/shellwords.
func TestUIOnlyToRunTheTUI(t *testing.T) {
	runsTUI := map[string]bool{"root.go": true, "open.go": true, "opensessions.go": true, "attach.go": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if (p == "github.com/mcp-inspect/mcp-inspect/ui" || strings.HasPrefix(p, "charm.land/")) && !runsTUI[name] {
				t.Errorf("%s imports %s; only the files that run the TUI may", name, p)
			}
		}
	}
}
