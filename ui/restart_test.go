package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/shellwords"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// newRestartableModel is newTestModel with the E key enabled (the TUI's own command sets
// Options.Restartable), on a server that died like case B09.
func newRestartableModel(t *testing.T) *model {
	t.Helper()
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Argv: []string{"node", "build/index.js", "--token", "***"}, EnvKeys: []string{"API_KEY"}, Session: &fakeSession{}, Restartable: true})
	m.now = func() time.Time { return t0.Add(1500 * time.Millisecond) }
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 30})
	drive(t, m, eventsMsg{events: []mcpclient.Event{
		life(1, mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, PID: 99}),
		ev(2, mcpclient.Stderr, "missing API_KEY\n"),
		life(3, mcpclient.LifeInfo{Kind: mcpclient.LifeExited, PID: 99, ExitCode: 1}),
	}})
	return m
}

// Cases B09 and B10 ask to offer "edit command / retry" once the server is dead: the panel
// says how, E opens the command line prefilled, and enter ends the UI with the edited argv.
func TestDeadServerOffersEditAndRestart(t *testing.T) {
	m := newRestartableModel(t)
	if out := view(m); !strings.Contains(out, "E edits the command and restarts the server") {
		t.Fatalf("the dead-server panel does not offer the restart:\n%s", out)
	}
	if bar := m.statusBar(); !strings.Contains(bar, "E restart") {
		t.Errorf("the status bar (shown on every pane) does not offer the restart: %q", bar)
	}
	keys(t, m, "E")
	out := view(m)
	if openDialog[*restartPrompt](m) == nil || !strings.Contains(out, "restart the server") {
		t.Fatalf("E did not open the prompt:\n%s", out)
	}
	if got, want := openDialog[*restartPrompt](m).input.Value(), "node build/index.js --token '***'"; got != want {
		t.Fatalf("prefilled %q, want %q (the shown, redacted argv, shell-quoted)", got, want)
	}
	if !strings.Contains(out, "environment kept: API_KEY") {
		t.Errorf("the prompt should say the -e keys are kept:\n%s", out)
	}
	// "q" and digits are text in the prompt, not quit or pane switches.
	typeIn(t, m, " --port 3")
	if m.quitting || openDialog[*restartPrompt](m) == nil {
		t.Fatal("typing in the prompt quit or closed it")
	}
	keys(t, m, "enter")
	if !m.quitting || m.restart.asked == nil {
		t.Fatal("enter did not end the session for a restart")
	}
	want := []string{"node", "build/index.js", "--token", "***", "--port", "3"}
	if !slices.Equal(m.restart.asked, want) {
		t.Fatalf("restart argv = %q, want %q", m.restart.asked, want)
	}
}

func TestRestartPromptRefusesBadCommandLines(t *testing.T) {
	m := newRestartableModel(t)
	keys(t, m, "E")
	openDialog[*restartPrompt](m).input.SetValue(`node "unterminated`)
	keys(t, m, "enter")
	if m.quitting || m.restart.asked != nil {
		t.Fatal("a command line with an open quote must not restart")
	}
	if out := view(m); !strings.Contains(out, "cannot read the command line") {
		t.Fatalf("no reason shown:\n%s", out)
	}
	openDialog[*restartPrompt](m).input.SetValue("   ")
	keys(t, m, "enter")
	if m.restart.asked != nil || !strings.Contains(view(m), "the command line is empty") {
		t.Fatalf("an empty command line must be refused:\n%s", view(m))
	}
	keys(t, m, "esc")
	if openDialog[*restartPrompt](m) != nil || m.quitting {
		t.Fatal("esc must close the prompt and keep the session")
	}
}

// Offline (a trace) and attached viewers have nothing to restart: no offer, and E only says so.
func TestRestartNotOfferedWithoutCaller(t *testing.T) {
	m := newTestModel(t, &fakeSession{}, 110, 30)
	drive(t, m, eventsMsg{events: []mcpclient.Event{life(1, mcpclient.LifeInfo{Kind: mcpclient.LifeExited, PID: 5, ExitCode: 1})}})
	if strings.Contains(view(m), "restarts the server") {
		t.Fatalf("restart offered without Options.Restartable:\n%s", view(m))
	}
	keys(t, m, "E")
	if openDialog[*restartPrompt](m) != nil || m.quitting {
		t.Fatal("E must not open the prompt when the caller cannot restart")
	}
}

// TestRestartPromptQuoting: the prompt shows and reads the command line in Options.Quoting:
// sh's words, or on Windows a cmd.exe line (a JSON argument keeps its quotes).
func TestRestartPromptQuoting(t *testing.T) {
	for _, c := range []struct {
		q    shellwords.Quoting
		in   string
		want []string
	}{
		{shellwords.POSIX, `node server.js`, []string{"node", "server.js"}},
		{shellwords.POSIX, `python -m 'my server' --x "a b"`, []string{"python", "-m", "my server", "--x", "a b"}},
		{shellwords.POSIX, shellwords.Join([]string{"sh", "-c", "echo $HOME 'q' \\ `x`"}), []string{"sh", "-c", "echo $HOME 'q' \\ `x`"}},
		{shellwords.Windows, `python -m 'my server' --x "a b"`, []string{"python", "-m", "'my", "server'", "--x", "a b"}},
		{shellwords.Windows, `"C:\Program Files\nodejs\node.exe" srv.js --args "{\"a\":\"b c\"}"`, []string{`C:\Program Files\nodejs\node.exe`, "srv.js", "--args", `{"a":"b c"}`}},
	} {
		m := newRestartableModel(t)
		m.launch.quoting = c.q
		keys(t, m, "E")
		openDialog[*restartPrompt](m).input.SetValue(c.in)
		keys(t, m, "enter")
		if !slices.Equal(m.restart.asked, c.want) {
			t.Errorf("quoting %d: %s restarts %q; want %q", c.q, c.in, m.restart.asked, c.want)
		}
	}
	m := newRestartableModel(t)
	m.launch.quoting, m.launch.argv = shellwords.Windows, []string{`C:\Program Files\nodejs\node.exe`, "--token", "***", "--args", `{"a":"b c"}`}
	keys(t, m, "E")
	if got, want := openDialog[*restartPrompt](m).input.Value(), `"C:\Program Files\nodejs\node.exe" --token "***" --args "{\"a\":\"b c\"}"`; got != want {
		t.Fatalf("prefilled %s, want %s", got, want)
	}
	keys(t, m, "enter")
	if !slices.Equal(m.restart.asked, m.launch.argv) {
		t.Fatalf("the prefilled Windows line restarts %q, want %q", m.restart.asked, m.launch.argv)
	}
}

// Roots added with R are kept across E: the restart carries them (as file:// URIs) to the
// next session's Options.Roots, after the --root paths given at the start.
func TestRestartKeepsRoots(t *testing.T) {
	m := newRestartableModel(t)
	m.launch.rootPaths = []string{"/given"} // --root, not resolved yet
	keys(t, m, "R", "a")
	typeIn(t, m, "/tmp")
	keys(t, m, "enter", "esc")
	if len(m.sess.Roots().List) != 1 {
		t.Fatalf("the editor added %d roots", len(m.sess.Roots().List))
	}
	keys(t, m, "E", "enter")
	if !m.quitting || m.restart.asked == nil {
		t.Fatal("enter did not end the session for a restart")
	}
	res := m.result(nil)
	if want := []string{"/given", m.sess.Roots().List[0].URI}; !slices.Equal(res.Roots, want) || !strings.HasPrefix(want[1], "file:///") {
		t.Fatalf("restart keeps roots %q, want %q", res.Roots, want)
	}
}
