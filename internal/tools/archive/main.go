// Command archive writes a release archive: a .tar.gz or a .zip (by OUT's name) holding the
// given files at its top level, reproducibly: entries in the order given, every time set
// to -mtime (seconds since 1970; scripts/release.sh passes the commit's time), owner and
// group 0 with no names, mode 0755 for a file that is executable here (and for .exe
// files) and 0644 for the rest. It exists so that release.sh needs neither a zip program
// nor tar flags that differ between GNU and BSD tar.
//
//	go run ./internal/tools/archive -mtime 1764892800 OUT.tar.gz SRC[=NAME]...
//
// NAME is the entry's name in the archive (default: SRC's base name). Exit code 2 for a
// usage error, 1 for an I/O error.
package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// entry is one file to put in the archive.
type entry struct {
	src, name string
	mode      int64
}

func run(args []string, stderr io.Writer) int {
	fl := flag.NewFlagSet("archive", flag.ContinueOnError)
	fl.SetOutput(stderr)
	mtime := fl.Int64("mtime", 0, "modification time of every entry, in seconds since 1970")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() < 2 {
		fmt.Fprintln(stderr, "usage: archive [-mtime SECONDS] OUT.tar.gz|OUT.zip SRC[=NAME]...")
		return 2
	}
	out := fl.Arg(0)
	var entries []entry
	for _, a := range fl.Args()[1:] {
		src, name, ok := strings.Cut(a, "=")
		if !ok {
			name = filepath.Base(src)
		}
		st, err := os.Stat(src)
		if err != nil {
			fmt.Fprintln(stderr, "archive:", err)
			return 1
		}
		if !st.Mode().IsRegular() {
			fmt.Fprintf(stderr, "archive: %s is not a regular file\n", src)
			return 1
		}
		mode := int64(0o644)
		if st.Mode()&0o111 != 0 || strings.HasSuffix(name, ".exe") {
			mode = 0o755
		}
		entries = append(entries, entry{src: src, name: name, mode: mode})
	}
	t := time.Unix(*mtime, 0).UTC()
	var err error
	switch {
	case strings.HasSuffix(out, ".tar.gz") || strings.HasSuffix(out, ".tgz"):
		err = write(out, func(w io.Writer) error { return writeTarGz(w, entries, t) })
	case strings.HasSuffix(out, ".zip"):
		err = write(out, func(w io.Writer) error { return writeZip(w, entries, t) })
	default:
		fmt.Fprintf(stderr, "archive: %s: want a .tar.gz or .zip name\n", out)
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "archive:", err)
		return 1
	}
	return 0
}

// write creates out with fill's bytes, removing it again when fill fails.
func write(out string, fill func(io.Writer) error) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	err = errors.Join(fill(f), f.Close())
	if err != nil {
		os.Remove(out)
	}
	return err
}

func copyFile(w io.Writer, src string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

func writeTarGz(w io.Writer, entries []entry, t time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		st, err := os.Stat(e.src)
		if err != nil {
			return err
		}
		h := &tar.Header{Typeflag: tar.TypeReg, Name: e.name, Size: st.Size(), Mode: e.mode, ModTime: t, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if err := copyFile(tw, e.src); err != nil {
			return err
		}
	}
	return errors.Join(tw.Close(), gz.Close())
}

func writeZip(w io.Writer, entries []entry, t time.Time) error {
	zw := zip.NewWriter(w)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: t}
		h.SetMode(os.FileMode(e.mode))
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if err := copyFile(fw, e.src); err != nil {
			return err
		}
	}
	return zw.Close()
}
