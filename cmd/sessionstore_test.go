package cmd

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestSessionStoreCap: a kept session starts by pruning the oldest sessions beyond the
// size cap (sessions_max_size); as it grows past the cap alone, the finished sessions
// go, it stays whole, and the user is told once, with its path and where the cap is set.
func TestSessionStoreCap(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	cfgHome := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfgHome)
	t.Setenv("MCP_INSPECT_CONFIG", "")
	dir := sessionsDir()
	os.MkdirAll(dir, 0o700)
	var old []string
	for i := range 3 {
		p := trace.SessionPath(dir, time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC), 1)
		os.WriteFile(p, bytes.Repeat([]byte("x"), 1<<20), 0o600)
		old = append(old, p)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	rf := recordFlags{maxStore: 2 << 20}
	cfg := mcpclient.Config{Command: "srv"}
	var stderr bytes.Buffer
	rec, err := rf.start(&cfg, logger, &stderr)
	if err != nil || rec.store == nil {
		t.Fatalf("start: %v, store %v", err, rec.store)
	}
	if exists(old[0]) || exists(old[1]) || !exists(old[2]) {
		t.Fatalf("at start: want the two oldest of 3 MiB pruned to fit 2 MiB; exist %v %v %v", exists(old[0]), exists(old[1]), exists(old[2]))
	}
	frame := bytes.Repeat([]byte("y"), 512<<10)
	const frames = 6 // 3 MiB: alone over the cap
	for i := range frames {
		cfg.OnEvents([]mcpclient.Event{{Seq: uint64(i + 1), Time: time.Now(), Dir: mcpclient.ServerToClient, Kind: mcpclient.KindNotification, Raw: frame}})
		rec.store.check()
	}
	if exists(old[2]) {
		t.Error("the last finished session was kept though the running one alone passes the cap")
	}
	want := "the session " + rec.path() + " alone holds "
	setting := "sessions_max_size in " + filepath.Join(cfgHome, "mcp-inspect", "config.toml") + " sets the cap"
	if n := rec.store.notice(); !strings.HasPrefix(n, want) || !strings.Contains(n, "over the 2MiB cap") || !strings.Contains(n, "the next session removes it first") || !strings.HasSuffix(n, setting) {
		t.Errorf("notice %q; want it to name the path, the cap and %q", n, setting)
	}
	path := rec.path()
	rec.close(logger, &stderr)
	if c := strings.Count(stderr.String(), want); c != 1 {
		t.Errorf("told %d times, want once:\n%s", c, stderr.String())
	}
	tr, err := trace.Open(path)
	if err != nil || tr.Len() != frames {
		t.Fatalf("the running session was cut: %v, %d events of %d", err, tr.Len(), frames)
	}
}

// TestSessionStoreTellsOnce: the tap's store says the notice at once (stderr), and only
// once however often it is over the cap.
func TestSessionStoreTellsOnce(t *testing.T) {
	dir := t.TempDir()
	path := trace.SessionPath(dir, time.Now(), os.Getpid())
	os.WriteFile(path, bytes.Repeat([]byte("x"), 3<<20), 0o600)
	var told []string
	s := newSessionStore(dir, path, 1<<20, slog.New(slog.NewTextHandler(io.Discard, nil)), func(text string) { told = append(told, text) })
	s.prune()
	s.prune()
	s.end()
	if len(told) != 1 || !strings.HasPrefix(told[0], "the running session "+path+" alone holds 3.0 MiB, over the 1MiB cap") || !exists(path) {
		t.Fatalf("told %q; want one notice naming %s, the file kept", told, path)
	}
}

// TestSessionStoreNamesYoungRemovals: a session younger than a day removed for the size
// cap is named to the user, with why; an old one removed for the cap is not.
func TestSessionStoreNamesYoungRemovals(t *testing.T) {
	dir := t.TempDir()
	old := trace.SessionPath(dir, time.Now().Add(-50*time.Hour), 1)
	young := trace.SessionPath(dir, time.Now().Add(-3*time.Hour), 2)
	for _, p := range []string{old, young} {
		os.WriteFile(p, bytes.Repeat([]byte("x"), 1<<20), 0o600)
	}
	os.Chtimes(old, time.Now().Add(-49*time.Hour), time.Now().Add(-49*time.Hour))
	os.Chtimes(young, time.Now().Add(-3*time.Hour), time.Now().Add(-3*time.Hour))
	path := trace.SessionPath(dir, time.Now(), os.Getpid())
	os.WriteFile(path, []byte("{}\n"), 0o600)
	var told []string
	s := newSessionStore(dir, path, 1<<20, slog.New(slog.NewTextHandler(io.Discard, nil)), func(text string) { told = append(told, text) })
	s.prune()
	if exists(old) || exists(young) {
		t.Fatal("the cap removed neither")
	}
	want := "removed " + young + " (1.0 MiB, last written 3h0m0s ago): the kept sessions in " + dir + " held more than the 1MiB cap"
	if len(told) != 1 || !strings.HasPrefix(told[0], want) || !strings.Contains(told[0], "sessions_max_size") {
		t.Fatalf("told %q; want one notice starting %q", told, want)
	}
	if n := s.youngNotices(); !slices.Equal(n, told) {
		t.Errorf("notices for the TUI %q", n)
	}
}

// TestRecordFileNotCapped: --record FILE is explicit: no store, never pruned.
func TestRecordFileNotCapped(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	rf := recordFlags{file: filepath.Join(t.TempDir(), "mine.jsonl"), maxStore: 1 << 20}
	cfg := mcpclient.Config{Command: "srv"}
	rec, err := rf.start(&cfg, logger, io.Discard)
	if err != nil || rec.store != nil {
		t.Fatalf("start: %v, store %v", err, rec.store)
	}
	cfg.OnEvents([]mcpclient.Event{{Seq: 1, Time: time.Now(), Dir: mcpclient.ServerToClient, Kind: mcpclient.KindNotification, Raw: bytes.Repeat([]byte("y"), 2<<20)}})
	rec.close(logger, io.Discard)
	if st, err := os.Stat(rf.file); err != nil || st.Size() < 2<<20 {
		t.Fatalf("--record FILE: %v", err)
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestSettingsShowSessionsCap: settings show prints the file's cap as the file gives it.
func TestSettingsShowSessionsCap(t *testing.T) {
	useSettings(t, "sessions_max_size = \"200 MiB\"\n")
	out, errs, code := runIn(t, "settings", "show")
	if code != 0 || !strings.Contains(out, "sessions_max_size = \"200MiB\" # from the file") {
		t.Fatalf("settings show (exit %d, %s):\n%s", code, errs, out)
	}
}
