package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestExportsOnlyWhatCmdRuns: ui exports only what cmd needs to run the TUI: Options (and
// its ConfigureClient), Run and its Result, and the kept sessions' rows Options.ListSessions
// gives (SessionRow, with the Line cmd prints without a terminal). Everything else is the
// package's own.
func TestExportsOnlyWhatCmdRuns(t *testing.T) {
	allowed := []string{"Options", "Options.ConfigureClient", "Result", "Run", "SessionRow", "SessionRow.Line"}
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range pkgs["ui"].Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					got = append(got, d.Name.Name)
					continue
				}
				recv := d.Recv.List[0].Type
				if s, ok := recv.(*ast.StarExpr); ok {
					recv = s.X
				}
				if id, ok := recv.(*ast.Ident); ok && id.IsExported() {
					got = append(got, id.Name+"."+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							got = append(got, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								got = append(got, n.Name)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(got)
	if len(got) == 0 {
		t.Fatal("no exported identifier found: the test reads the wrong files")
	}
	for _, name := range got {
		if !slices.Contains(allowed, name) {
			t.Errorf("ui exports %s; only %q are meant for cmd", name, allowed)
		}
	}
	for _, name := range allowed {
		if !slices.Contains(got, name) {
			t.Errorf("ui no longer exports %s: update the allowed list", name)
		}
	}
}
