package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestTarGzAndZip(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "mcp-inspect")
	readme := filepath.Join(dir, "README.md")
	if err := os.WriteFile(bin, []byte("\x7fELF binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(readme, []byte("# mcp-inspect\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const mtime = 1764892800
	tgz := filepath.Join(dir, "a.tar.gz")
	var errs bytes.Buffer
	if code := run([]string{"-mtime", "1764892800", tgz, bin, readme}, &errs); code != 0 {
		t.Fatalf("tar.gz: exit %d: %s", code, errs.String())
	}
	f, err := os.Open(tgz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var got []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		got = append(got, h.Name)
		if !h.ModTime.Equal(time.Unix(mtime, 0)) || h.Uid != 0 || h.Gid != 0 || h.Uname != "" {
			t.Errorf("%s: mtime %v uid %d gid %d uname %q", h.Name, h.ModTime, h.Uid, h.Gid, h.Uname)
		}
		if want := map[string]int64{"mcp-inspect": 0o755, "README.md": 0o644}[h.Name]; h.Mode != want {
			t.Errorf("%s: mode %o, want %o", h.Name, h.Mode, want)
		}
		if h.Name == "README.md" && string(b) != "# mcp-inspect\n" {
			t.Errorf("README.md holds %q", b)
		}
	}
	if len(got) != 2 || got[0] != "mcp-inspect" || got[1] != "README.md" {
		t.Fatalf("entries %q", got)
	}
	// The same inputs give the same bytes.
	again := filepath.Join(dir, "b.tar.gz")
	if code := run([]string{"-mtime", "1764892800", again, bin, readme}, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	a1, _ := os.ReadFile(tgz)
	a2, _ := os.ReadFile(again)
	if !bytes.Equal(a1, a2) {
		t.Error("two archives of the same files differ")
	}

	zp := filepath.Join(dir, "w.zip")
	if code := run([]string{"-mtime", "1764892800", zp, bin + "=mcp-inspect.exe", readme}, &errs); code != 0 {
		t.Fatalf("zip: exit %d: %s", code, errs.String())
	}
	zr, err := zip.OpenReader(zp)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	if len(zr.File) != 2 || zr.File[0].Name != "mcp-inspect.exe" || zr.File[0].Mode().Perm() != 0o755 || zr.File[1].Mode().Perm() != 0o644 {
		t.Fatalf("zip entries: %+v", zr.File)
	}
	if !zr.File[0].Modified.Equal(time.Unix(mtime, 0)) {
		t.Errorf("zip mtime %v", zr.File[0].Modified)
	}
}

func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	var errs bytes.Buffer
	if code := run([]string{filepath.Join(dir, "x.rar"), os.Args[0]}, &errs); code != 2 {
		t.Errorf("a .rar name: exit %d", code)
	}
	if code := run([]string{filepath.Join(dir, "x.zip"), filepath.Join(dir, "missing")}, &errs); code != 1 {
		t.Errorf("a missing file: exit %d", code)
	}
	if code := run([]string{filepath.Join(dir, "x.zip"), dir}, &errs); code != 1 {
		t.Errorf("a directory: exit %d", code)
	}
	if code := run([]string{filepath.Join(dir, "x.zip")}, &errs); code != 2 {
		t.Errorf("no files: exit %d", code)
	}
}
