package cmd

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The UI edits the redacted argv; a redacted word kept as shown gets its real value back,
// and words the user typed stay as typed.
func TestUnredactArgv(t *testing.T) {
	real := []string{"node", "srv.js", "--token", "ghp_0123456789abcdef0123456789abcdef0123"}
	shown := []string{"node", "srv.js", "--token", "***"}
	got := unredactArgv([]string{"node", "srv2.js", "--token", "***", "--verbose"}, shown, real)
	want := []string{"node", "srv2.js", "--token", real[3], "--verbose"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	got = unredactArgv([]string{"node", "srv.js", "--token", "new"}, shown, real)
	if got[3] != "new" {
		t.Fatalf("a replaced token must stay as typed: %q", got)
	}
}

// --overwrite is for the --record file itself: a restart's trace always takes a free name,
// so an earlier run's FILE-restartN.jsonl survives a second run with --overwrite.
func TestRestartTraceNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "F.jsonl")
	old := filepath.Join(dir, "F-restart1.jsonl")
	if err := os.WriteFile(old, []byte("earlier run\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	flags := &recordFlags{file: file, overwrite: true, noRedact: true}
	logger := slog.New(slog.DiscardHandler)
	for n, want := range []string{file, filepath.Join(dir, "F-restart1-2.jsonl")} {
		cfg := mcpclient.Config{Command: "srv"}
		rec, err := flags.startNth(&cfg, logger, io.Discard, n)
		if err != nil {
			t.Fatalf("session %d: %v", n, err)
		}
		if rec.path() != want {
			t.Errorf("session %d recorded to %s, want %s", n, rec.path(), want)
		}
		rec.close(logger, io.Discard)
	}
	if b, _ := os.ReadFile(old); string(b) != "earlier run\n" {
		t.Fatalf("the earlier run's restart trace was replaced: %q", b)
	}
}
