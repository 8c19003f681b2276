// Command seamcheck keeps the OS seam whole: no Go file of the module outside
// internal/platform (and its subpackages) imports syscall or golang.org/x/sys/..., tests
// included, so everything Linux, macOS and Windows decide differently stays in
// internal/platform's per-OS files (design.md, Platforms; issue 21).
//
//	go run ./internal/tools/seamcheck .
//
// Each argument is a directory, walked recursively (testdata, vendor, node_modules and
// directories starting with "." or "_" are skipped); the seam is the directory
// internal/platform under the first argument. Each violation is one line,
// `path:line: imports "syscall" outside internal/platform`; the exit code is 1 when there
// is any, 2 for a usage or parse error, else 0.
package main

import (
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// seamDir is the seam's directory, relative to the module root.
const seamDir = "internal/platform"

// forbidden reports whether an import path is an OS call package.
func forbidden(path string) bool {
	return path == "syscall" || path == "golang.org/x/sys" || strings.HasPrefix(path, "golang.org/x/sys/")
}

// violation is one forbidden import.
type violation struct {
	path string
	line int
	imp  string
}

func (v violation) String() string {
	return fmt.Sprintf("%s:%d: imports %q outside %s (OS calls live there: add a function to it)", v.path, v.line, v.imp, seamDir)
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main with its arguments and streams; it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: seamcheck DIR...")
		return 2
	}
	seam := filepath.Join(args[0], seamDir)
	if st, err := os.Stat(seam); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "seamcheck: %s is not a directory: give the module root first\n", seam)
		return 2
	}
	found := 0
	for _, dir := range args {
		vs, err := checkTree(dir, seam)
		for _, v := range vs {
			fmt.Fprintln(stdout, v)
		}
		found += len(vs)
		if err != nil {
			fmt.Fprintln(stderr, "seamcheck:", err)
			return 2
		}
	}
	if found > 0 {
		return 1
	}
	return 0
}

// checkTree lists the forbidden imports of the .go files under root, leaving out those
// under seam.
func checkTree(root, seam string) ([]violation, error) {
	var out []violation
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || name == "vendor" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if filepath.Clean(path) == filepath.Clean(seam) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			p, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				return errors.New(fset.Position(im.Pos()).String() + ": bad import path")
			}
			if forbidden(p) {
				out = append(out, violation{path: path, line: fset.Position(im.Pos()).Line, imp: p})
			}
		}
		return nil
	})
	return out, err
}
