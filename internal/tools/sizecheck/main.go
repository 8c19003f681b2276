// Command sizecheck enforces the size rule for the packages it is given: no function longer
// than -max-func lines, none taking more than -max-params parameters, and no file longer
// than -max-file lines.
//
//	go run ./internal/tools/sizecheck -max-func 100 -max-file 800 -max-params 7 ui session cmd mcpclient
//
// Each argument is a directory, walked recursively (testdata, vendor, node_modules and
// directories starting with "." or "_" are skipped). Every .go file counts for the file limit,
// tests included; the function limit applies to function and method declarations in non-test
// files, counted from the line of `func` to the line of the closing brace (doc comments not
// included); parameters are counted by name (a, b int is two; the receiver is not one), in
// non-test files too. Each violation is one line, `path:line: func Name is N lines (max M)`,
// `path:line: func Name takes N parameters (max M)` or `path:1: file is N lines (max M)`;
// the exit code is 1 when there is any, 2 for a usage or
// parse error, else 0.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// limits are the largest allowed sizes, in lines (maxParams in parameters); 0 turns a
// check off.
type limits struct {
	maxFunc, maxFile, maxParams int
}

// violation is one thing over its limit.
type violation struct {
	path  string
	line  int
	what  string // "func Name" or "file"
	lines int    // lines, or parameters when params is set
	max   int
	// params is set for a parameter count.
	params bool
}

func (v violation) String() string {
	if v.params {
		return fmt.Sprintf("%s:%d: %s takes %d parameters (max %d)", v.path, v.line, v.what, v.lines, v.max)
	}
	return fmt.Sprintf("%s:%d: %s is %d lines (max %d)", v.path, v.line, v.what, v.lines, v.max)
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main with its arguments and streams; it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("sizecheck", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var lim limits
	fl.IntVar(&lim.maxFunc, "max-func", 100, "longest function or method allowed, in lines (0: no limit)")
	fl.IntVar(&lim.maxFile, "max-file", 800, "longest .go file allowed, in lines (0: no limit)")
	fl.IntVar(&lim.maxParams, "max-params", 0, "most parameters a function or method may take (0: no limit)")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: sizecheck [-max-func N] [-max-file N] [-max-params N] DIR...")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() == 0 {
		fl.Usage()
		return 2
	}
	found := 0
	for _, dir := range fl.Args() {
		vs, err := checkTree(dir, lim)
		for _, v := range vs {
			fmt.Fprintln(stdout, v)
		}
		found += len(vs)
		if err != nil {
			fmt.Fprintln(stderr, "sizecheck:", err)
			return 2
		}
	}
	if found > 0 {
		return 1
	}
	return 0
}

// checkTree checks every .go file under dir, in lexical order.
func checkTree(dir string, lim limits) ([]violation, error) {
	var out []violation
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != dir && (name == "testdata" || name == "vendor" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		vs, err := checkFile(path, src, lim)
		out = append(out, vs...)
		return err
	})
	return out, err
}

// checkFile checks one file's source; path is used for parsing errors and in the violations.
func checkFile(path string, src []byte, lim limits) ([]violation, error) {
	var out []violation
	if n := lineCount(src); lim.maxFile > 0 && n > lim.maxFile {
		out = append(out, violation{path: path, line: 1, what: "file", lines: n, max: lim.maxFile})
	}
	if (lim.maxFunc <= 0 && lim.maxParams <= 0) || strings.HasSuffix(path, "_test.go") {
		return out, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return out, errors.Join(fmt.Errorf("parsing %s", path), err)
	}
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		start := fset.Position(fn.Type.Func).Line
		n := fset.Position(fn.Body.Rbrace).Line - start + 1
		if lim.maxFunc > 0 && n > lim.maxFunc {
			out = append(out, violation{path: path, line: start, what: "func " + funcName(fn), lines: n, max: lim.maxFunc})
		}
		if p := paramCount(fn.Type.Params); lim.maxParams > 0 && p > lim.maxParams {
			out = append(out, violation{path: path, line: start, what: "func " + funcName(fn), lines: p, max: lim.maxParams, params: true})
		}
	}
	return out, nil
}

// paramCount is how many parameters a list declares: one per name, one per unnamed type.
func paramCount(l *ast.FieldList) int {
	if l == nil {
		return 0
	}
	n := 0
	for _, f := range l.List {
		n += max(len(f.Names), 1)
	}
	return n
}

// lineCount counts lines as wc -l does, plus a last line without a newline.
func lineCount(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}

// funcName is Name for a function and Recv.Name for a method (Recv without * or type
// parameters).
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.ParenExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fn.Name.Name
		}
		return fn.Name.Name
	}
}
