package logfile

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The log rotates at its size, and a huge value is cut: a 1 MiB message leaves a record of
// about MaxValue bytes, and the files never pass their size by more than one record.
func TestRotateAndCut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.log")
	w, err := Open(path, 64<<10)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{ReplaceAttr: ReplaceAttr}))
	huge := strings.Repeat("é", 1<<19) // 1 MiB
	for i := 0; i < 40; i++ {
		log.Info(huge, "arg", huge, "err", os.ErrNotExist)
	}
	w.Close()
	for _, p := range []string{path, path + ".1"} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() > 64<<10+3*MaxValue || st.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %d bytes, mode %v", p, st.Size(), st.Mode())
		}
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "(1048576 bytes in all)") {
		t.Fatalf("no cut note in %.200s", data)
	}
}

func TestTruncateKeepsCharacters(t *testing.T) {
	if got := Truncate("aé", 2); got != "a… (3 bytes in all)" {
		t.Fatalf("got %q", got)
	}
	if got := Truncate("short", 10); got != "short" {
		t.Fatalf("got %q", got)
	}
}
