package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// write creates root/rel with body, parents included.
func write(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFindsOSImportsOutsideTheSeam(t *testing.T) {
	root := t.TempDir()
	write(t, root, "internal/platform/tree_unix.go", "package platform\n\nimport \"syscall\"\n\nvar _ = syscall.Getpid\n")
	write(t, root, "internal/platform/platformtest/fifo_unix.go", "package platformtest\n\nimport \"golang.org/x/sys/unix\"\n\nvar _ = unix.Mkfifo\n")
	write(t, root, "tap/tap.go", "package tap\n\nimport (\n\t\"os\"\n\t\"syscall\"\n)\n\nvar _ = os.Getpid\nvar _ = syscall.Getpid\n")
	write(t, root, "mcpclient/poll_test.go", "package mcpclient\n\nimport \"golang.org/x/sys/windows\"\n\nvar _ = windows.Handle(0)\n")
	write(t, root, "ui/ok.go", "package ui\n\nimport \"os/signal\"\n\nvar _ = signal.Notify\n")
	write(t, root, "testdata/x/y.go", "package y\n\nimport \"syscall\"\n")
	var out, errs bytes.Buffer
	if code := run([]string{root}, &out, &errs); code != 1 {
		t.Fatalf("exit %d, want 1; stderr %q", code, errs.String())
	}
	got := out.String()
	for _, want := range []string{
		filepath.Join(root, "tap/tap.go") + `:5: imports "syscall" outside internal/platform`,
		filepath.Join(root, "mcpclient/poll_test.go") + `:3: imports "golang.org/x/sys/windows" outside internal/platform`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "\n"); n != 2 {
		t.Errorf("want 2 violations (the seam, testdata and os/signal are allowed), got %d:\n%s", n, got)
	}
}

func TestCleanTreePasses(t *testing.T) {
	root := t.TempDir()
	write(t, root, "internal/platform/dirs.go", "package platform\n\nimport \"syscall\"\n\nvar _ = syscall.Getpid\n")
	write(t, root, "cmd/root.go", "package cmd\n\nimport \"os\"\n\nvar _ = os.Getpid\n")
	var out, errs bytes.Buffer
	if code := run([]string{root}, &out, &errs); code != 0 {
		t.Fatalf("exit %d, want 0; out %q err %q", code, out.String(), errs.String())
	}
}

func TestNeedsTheModuleRoot(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{t.TempDir()}, &out, &errs); code != 2 || !strings.Contains(errs.String(), "give the module root first") {
		t.Fatalf("exit %d, stderr %q", code, errs.String())
	}
}

// TestModuleKeepsTheSeam runs the check on this module: the rule holds in the tree itself,
// so go test ./... fails as soon as an OS call leaks out of internal/platform.
func TestModuleKeepsTheSeam(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run([]string{root}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: OS calls outside internal/platform:\n%s%s", code, out.String(), errs.String())
	}
}
