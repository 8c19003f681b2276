//go:build unix

// Package tmuxtest runs a terminal program in a detached tmux session so that
// end-to-end tests can type at it (send-keys) and read its screen
// (capture-pane), as a person would.
//
// Each Session has its own tmux server on a private socket in a temporary
// directory, started with its own configuration (no ~/.tmux.conf, no status
// line), so tests never touch the user's tmux. The program runs under a small
// wrapper (the test binary itself, see wrapper.go) that records its exact exit
// status and keeps the terminal open after it exits, so a program that crashes
// leaves its whole last screen to inspect. The test's cleanup kills the
// server and the pane's process group.
//
// tmux runs on Unix only, so this package and the tests that use it are built
// only there (//go:build unix).
//
// A test binary that imports this package must not set
// MCP_INSPECT_TMUXTEST_WRAPPER in its environment.
package tmuxtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
)

// PollInterval is how often the Wait methods capture the screen.
const PollInterval = 50 * time.Millisecond

// target names the only pane of the only window of the session.
const target = "main:0.0"

// config is the tmux configuration each Session's server starts with.
// remain-on-exit keeps the pane if the wrapper itself dies; an empty
// remain-on-exit-format then keeps its screen as it was (no "Pane is dead"
// line scrolling it up).
const config = `set -g remain-on-exit on
set -g remain-on-exit-format ""
set -g status off
set -g history-limit 10000
set -g escape-time 0
set -g exit-empty on
`

// Options configure a Session beyond what Start takes.
type Options struct {
	// Width and Height are the size of the terminal, in cells. Defaults: 80x24.
	Width, Height int
	// Env holds KEY=VALUE pairs added to the program's environment, which is
	// otherwise the test process's (less TMUX and TMUX_PANE).
	Env []string
	// Dir is the program's working directory; default the test's.
	Dir string
	// Term is the TERM the program sees (tmux's default-terminal);
	// default "tmux-256color". A TERM=... in Env sets it too.
	Term string
}

// Session is a program running in a private tmux server.
type Session struct {
	t       testing.TB
	tmux    string // path of the tmux binary
	socket  string // path of the private server socket
	dir     string // private temporary directory holding socket and config
	argv    []string
	panePID int // the wrapper: leader of the pane's session and process group
	pid     int // the program, or 0 if it could not be started
}

// Start runs argv (exactly, with no shell) in a new detached tmux session of
// width x height cells, with env (KEY=VALUE pairs) added to the test
// process's environment. It returns once the program has started, and fails
// the test if tmux is missing or the session cannot start. A program that
// cannot be executed ends at once with exit status 127, its error on screen.
func Start(t testing.TB, width, height int, env []string, argv ...string) *Session {
	t.Helper()
	return StartWith(t, Options{Width: width, Height: height, Env: env}, argv...)
}

// StartWith is Start with all Options.
func StartWith(t testing.TB, opts Options, argv ...string) *Session {
	t.Helper()
	if len(argv) == 0 {
		t.Fatal("tmuxtest: Start needs a command")
	}
	tmuxBin, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatalf("tmuxtest: tmux is not installed (apt-get install tmux; .ci/run installs it): %v", err)
	}
	if opts.Width <= 0 {
		opts.Width = 80
	}
	if opts.Height <= 0 {
		opts.Height = 24
	}
	if opts.Term == "" {
		opts.Term = "tmux-256color"
	}
	var env []string
	for _, kv := range opts.Env {
		if v, ok := strings.CutPrefix(kv, "TERM="); ok {
			opts.Term = v
			continue
		}
		env = append(env, kv)
	}
	if opts.Dir == "" {
		if opts.Dir, err = os.Getwd(); err != nil {
			t.Fatalf("tmuxtest: %v", err)
		}
	}

	// A short private directory: a unix socket path must fit in ~100 bytes,
	// and t.TempDir paths carry the test's name.
	dir, err := os.MkdirTemp("", "tmuxtest-")
	if err != nil {
		t.Fatalf("tmuxtest: %v", err)
	}
	s := &Session{
		t:      t,
		tmux:   tmuxBin,
		socket: filepath.Join(dir, "sock"),
		dir:    dir,
		argv:   argv,
	}
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte(config+"set -g default-terminal "+strconv.Quote(opts.Term)+"\n"), 0o600); err != nil {
		os.RemoveAll(dir)
		t.Fatalf("tmuxtest: %v", err)
	}
	t.Cleanup(s.close)

	args := []string{"-f", conf, "new-session", "-d", "-s", "main",
		"-x", strconv.Itoa(opts.Width), "-y", strconv.Itoa(opts.Height), "-c", opts.Dir}
	for _, kv := range env {
		args = append(args, "-e", kv)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatalf("tmuxtest: %v", err)
	}
	// With more than one argument, tmux executes them as they are.
	args = append(args, "-e", wrapperEnv+"="+dir, "--", self)
	args = append(args, argv...)
	if out, err := s.run(args...); err != nil {
		t.Fatalf("tmuxtest: start %q: %v\n%s", argv, err, out)
	}
	pid, err := s.format("#{pane_pid}")
	if err == nil {
		s.panePID, err = strconv.Atoi(pid)
	}
	if err != nil {
		t.Fatalf("tmuxtest: pane pid of %q: %v", argv, err)
	}
	// Wait for the wrapper to report the program started (or failed to).
	deadline := time.Now().Add(10 * time.Second)
	for {
		if data, err := os.ReadFile(filepath.Join(dir, pidFile)); err == nil {
			if s.pid, err = strconv.Atoi(string(data)); err != nil {
				t.Fatalf("tmuxtest: wrapper wrote pid %q", data)
			}
			break
		}
		if _, ok := s.exitStatus(); ok {
			break
		}
		if time.Now().After(deadline) || s.paneDead() {
			t.Fatalf("tmuxtest: %q did not start; screen:\n%s", argv, frame(s.Screen()))
		}
		time.Sleep(10 * time.Millisecond)
	}
	return s
}

// run runs a tmux command against the session's server.
func (s *Session) run(args ...string) (string, error) {
	cmd := exec.Command(s.tmux, append([]string{"-S", s.socket}, args...)...)
	cmd.Env = tmuxEnv()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// tmuxEnv is the test process's environment without the variables that
// tell tmux it runs inside another tmux.
func tmuxEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TMUX=") || strings.HasPrefix(kv, "TMUX_PANE=") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// must runs a tmux command and fails the test if it fails.
func (s *Session) must(args ...string) string {
	s.t.Helper()
	out, err := s.run(args...)
	if err != nil {
		s.t.Fatalf("tmuxtest: tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// format expands a tmux format for the pane.
func (s *Session) format(f string) (string, error) {
	out, err := s.run("display-message", "-p", "-t", target, f)
	if err != nil {
		return "", fmt.Errorf("%w: %s", err, out)
	}
	return strings.TrimSuffix(out, "\n"), nil
}

// Send sends tmux key names, such as "Enter", "Tab", "Escape", "Up", "C-c",
// "M-x", "F1" or a single character, each as one key press.
func (s *Session) Send(keys ...string) {
	s.t.Helper()
	if len(keys) == 0 {
		return
	}
	s.must(append([]string{"send-keys", "-t", target, "--"}, keys...)...)
}

// SendText types text literally, character by character, with no key-name
// lookup ("Enter" types E, n, t, e, r).
func (s *Session) SendText(text string) {
	s.t.Helper()
	if text == "" {
		return
	}
	s.must("send-keys", "-t", target, "-l", "--", text)
}

// Resize changes the terminal's size; the program gets SIGWINCH.
func (s *Session) Resize(width, height int) {
	s.t.Helper()
	s.must("resize-window", "-t", target, "-x", strconv.Itoa(width), "-y", strconv.Itoa(height))
}

// Screen returns the visible screen as plain text, one line per row,
// trailing spaces trimmed.
func (s *Session) Screen() string {
	s.t.Helper()
	return s.must("capture-pane", "-p", "-t", target)
}

// ScreenANSI returns the visible screen with its colors and attributes as
// ANSI escape sequences.
func (s *Session) ScreenANSI() string {
	s.t.Helper()
	return s.must("capture-pane", "-p", "-e", "-t", target)
}

// WaitFor polls the screen until it contains substr and returns that screen.
// On timeout it fails t, showing the last screen.
func (s *Session) WaitFor(t testing.TB, timeout time.Duration, substr string) string {
	t.Helper()
	return s.WaitForFunc(t, timeout, fmt.Sprintf("screen to contain %q", substr), func(screen string) bool {
		return strings.Contains(screen, substr)
	})
}

// WaitGone polls the screen until it no longer contains substr and returns
// that screen. On timeout it fails t, showing the last screen.
func (s *Session) WaitGone(t testing.TB, timeout time.Duration, substr string) string {
	t.Helper()
	return s.WaitForFunc(t, timeout, fmt.Sprintf("%q to leave the screen", substr), func(screen string) bool {
		return !strings.Contains(screen, substr)
	})
}

// WaitForFunc polls the screen until ok returns true for it and returns that
// screen. On timeout it fails t, saying it waited for what and showing the
// last screen.
func (s *Session) WaitForFunc(t testing.TB, timeout time.Duration, what string, ok func(screen string) bool) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		screen := s.Screen()
		if ok(screen) {
			return screen
		}
		if time.Now().After(deadline) {
			t.Fatalf("tmuxtest: timed out after %v waiting for %s; %s; last screen:\n%s", timeout, what, s.state(), frame(screen))
		}
		time.Sleep(PollInterval)
	}
}

// PID returns the program's process id, or 0 if it could not be started.
func (s *Session) PID() int { return s.pid }

// Alive reports whether the program is still running.
func (s *Session) Alive() bool {
	s.t.Helper()
	if _, ok := s.exitStatus(); ok {
		return false
	}
	return !s.paneDead()
}

// paneDead reports whether the pane's process (the wrapper) has exited.
func (s *Session) paneDead() bool {
	s.t.Helper()
	out, err := s.format("#{pane_dead}")
	if err != nil {
		s.t.Fatalf("tmuxtest: %v", err)
	}
	return out == "1"
}

// ExitStatus describes how the program ended.
type ExitStatus struct {
	// Code is the exit code, or -1 when a signal killed the program.
	Code int
	// Signal is the number of the signal that killed the program, or 0.
	Signal int
}

// String says "exit status N" or "killed by signal N (name)".
func (e ExitStatus) String() string {
	if e.Signal != 0 {
		return "killed by signal " + strconv.Itoa(e.Signal) + " (" + platformtest.SignalString(e.Signal) + ")"
	}
	return "exit status " + strconv.Itoa(e.Code)
}

// Wait waits for the program to exit and returns how it ended; the screen
// stays as the program left it. On timeout it fails t, showing the last
// screen.
func (s *Session) Wait(t testing.TB, timeout time.Duration) ExitStatus {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if st, ok := s.exitStatus(); ok {
			return st
		}
		if s.paneDead() {
			t.Fatalf("tmuxtest: the wrapper of %q died without recording an exit status; last screen:\n%s", s.argv, frame(s.Screen()))
		}
		if time.Now().After(deadline) {
			t.Fatalf("tmuxtest: %s after %v; last screen:\n%s", s.state(), timeout, frame(s.Screen()))
		}
		time.Sleep(PollInterval)
	}
}

// exitStatus returns how the program ended, as the wrapper recorded it, and
// false while it runs.
func (s *Session) exitStatus() (ExitStatus, bool) {
	data, err := os.ReadFile(filepath.Join(s.dir, statusFile))
	if err != nil {
		return ExitStatus{}, false
	}
	kind, num, _ := strings.Cut(string(data), " ")
	n, err := strconv.Atoi(num)
	switch {
	case err != nil:
		return ExitStatus{}, false
	case kind == "signal":
		return ExitStatus{Code: -1, Signal: n}, true
	default:
		return ExitStatus{Code: n}, true
	}
}

// state describes whether the program runs, for failure messages.
func (s *Session) state() string {
	if st, ok := s.exitStatus(); ok {
		return fmt.Sprintf("%q has exited (%s)", s.argv, st)
	}
	out, err := s.format("#{pane_dead}")
	switch {
	case err != nil:
		return "tmux: " + err.Error()
	case out == "1":
		return fmt.Sprintf("the wrapper of %q has died", s.argv)
	default:
		return fmt.Sprintf("%q is running (pid %d)", s.argv, s.pid)
	}
}

// frame puts a screen between rulers so its edges show in a log.
func frame(screen string) string {
	rule := strings.Repeat("-", 40)
	return rule + "\n" + strings.TrimSuffix(screen, "\n") + "\n" + rule
}

// close runs at the test's cleanup: it logs the last screen of a failed test,
// kills the tmux server (the pane gets SIGHUP), then SIGKILLs whatever is
// left of the program's process group, and removes the private directory.
func (s *Session) close() {
	if s.t.Failed() {
		if out, err := s.run("capture-pane", "-p", "-t", target); err == nil {
			s.t.Logf("tmuxtest: last screen of %q (%s):\n%s", s.argv, s.state(), frame(out))
		}
	}
	_, _ = s.run("kill-server")
	if s.panePID > 0 {
		// The pane's process (the wrapper) leads its own session and
		// process group, which the program shares unless it left it.
		deadline := time.Now().Add(2 * time.Second)
		for groupAlive(s.panePID) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if err := platformtest.SignalGroup(s.panePID, platformtest.SIGKILL); err != nil {
			s.t.Logf("tmuxtest: kill process group %d: %v", s.panePID, err)
		}
	}
	os.RemoveAll(s.dir)
}

// groupAlive reports whether process group pgid has a member that has not
// exited. Exited but unreaped members (zombies) do not count: once the tmux
// server is gone, nothing may reap them soon.
func groupAlive(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return platformtest.GroupExists(pgid)
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) >= 3 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" && f[0] != "X" {
			return true
		}
	}
	return false
}
