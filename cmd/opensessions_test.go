//go:build unix

package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/internal/tmuxtest"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// plantKept writes a kept session of server argv, started at start, with one tools/call.
func plantKept(t *testing.T, state string, start time.Time, argv ...string) string {
	t.Helper()
	dir := filepath.Join(state, "mcp-inspect", "sessions")
	os.MkdirAll(dir, 0o700)
	w, err := trace.CreateNew(trace.SessionPath(dir, start, 1), trace.Header{Tool: "mcp-inspect", Start: start, Argv: argv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(mcpclient.Event{Seq: 1, Time: start, Dir: mcpclient.ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`)})
	w.Write(mcpclient.Event{Seq: 2, Time: start.Add(2 * time.Second), Dir: mcpclient.ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.Path()
}

// TestOpenListsKeptSessions: open without a TRACE and without a terminal prints one line
// per kept session, newest first, its path before a tab; with none it says so on stderr.
func TestOpenListsKeptSessions(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	out, errs, code := runIn(t, "open")
	if code != 0 || out != "" || !strings.Contains(errs, "no kept session") {
		t.Fatalf("no sessions: code %d, out %q, err %q", code, out, errs)
	}
	old := plantKept(t, state, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), "srv-old")
	newer := plantKept(t, state, time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC), "srv-new", "--flag")
	out, errs, code = runIn(t, "open")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 2 {
		t.Fatalf("code %d, err %q, out:\n%s", code, errs, out)
	}
	for i, want := range []struct{ path, server string }{{newer, "srv-new --flag"}, {old, "srv-old"}} {
		path, rest, _ := strings.Cut(lines[i], "\t")
		f := strings.Fields(rest)
		// start date, time, duration, size (2 fields), calls, violations, server…
		if path != want.path || !strings.HasSuffix(rest, want.server) || len(f) < 8 || f[2] != "2s" || f[5] != "1" {
			t.Errorf("line %d: %q; want %s, 2s, 1 call, %s", i, lines[i], want.path, want.server)
		}
	}
	if _, errs, code := runIn(t, "open", "--last", old); code != exitUsage || !strings.Contains(errs, "--last") {
		t.Errorf("--last with a TRACE: code %d, %q", code, errs)
	}
}

// TestOpenLastAndPicker: open --last opens the newest kept session; K there lists them
// all, typing filters, enter opens the chosen one in a new TUI; open alone starts on the
// picker and esc quits.
func TestOpenLastAndPicker(t *testing.T) {
	bin := testservers.BuildInspector(t)
	state := t.TempDir()
	old := plantKept(t, state, time.Now().Add(-time.Hour), "srv-old")
	newer := plantKept(t, state, time.Now().Add(-time.Minute), "srv-new")
	env := []string{"XDG_STATE_HOME=" + state, "NO_COLOR=1"}
	s := tmuxtest.Start(t, 120, 30, env, bin, "open", "--last")
	s.WaitFor(t, 20*time.Second, "trace "+filepath.Base(newer))
	s.Send("K")
	s.WaitFor(t, 10*time.Second, "2 of 2")
	s.SendText("old")
	s.WaitFor(t, 5*time.Second, "1 of 2")
	s.Send("Enter")
	s.WaitFor(t, 20*time.Second, "trace "+filepath.Base(old))
	s.Send("q")
	if st := s.Wait(t, 10*time.Second); st.Code != 0 {
		t.Fatalf("open --last exited with %v", st)
	}
	p := tmuxtest.Start(t, 120, 30, env, bin, "open")
	p.WaitFor(t, 20*time.Second, "2 of 2")
	if sc := p.Screen(); !strings.Contains(sc, "srv-new") || strings.Index(sc, "srv-new") > strings.Index(sc, "srv-old") {
		t.Fatalf("the picker does not list newest first:\n%s", sc)
	}
	p.Send("Escape")
	if st := p.Wait(t, 10*time.Second); st.Code != 0 {
		t.Fatalf("open (picker) exited with %v", st)
	}
}

// TestLiveTUIPicksKeptSession: K in a live session lists the kept sessions; enter on one
// ends the session (its server stopped) and opens the chosen trace.
func TestLiveTUIPicksKeptSession(t *testing.T) {
	bin := testservers.BuildInspector(t)
	state := t.TempDir()
	old := plantKept(t, state, time.Now().Add(-time.Hour), "srv-old")
	s := tmuxtest.Start(t, 120, 30, []string{"XDG_STATE_HOME=" + state, "NO_COLOR=1"}, bin, "--", fake.Binary(t), "--scenario", "minimal")
	s.WaitFor(t, 20*time.Second, "connected")
	s.Send("K")
	s.WaitFor(t, 10*time.Second, "srv-old")
	s.SendText("srv-old")
	s.WaitFor(t, 5*time.Second, "1 of 2") // this session is kept too
	s.Send("Enter")
	s.WaitFor(t, 20*time.Second, "trace "+filepath.Base(old))
	s.Send("q")
	if st := s.Wait(t, 10*time.Second); st.Code != 0 {
		t.Fatalf("exited with %v", st)
	}
}
