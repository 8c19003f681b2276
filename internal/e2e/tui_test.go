//go:build unix

package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/internal/tmuxtest"
)

const wait = 20 * time.Second

// inspect starts the real binary in tmux on argv, with its state and logs in a temp dir.
func inspect(t *testing.T, w, h int, args ...string) *tmuxtest.Session {
	t.Helper()
	bin := testservers.BuildInspector(t)
	env := []string{"XDG_STATE_HOME=" + t.TempDir(), "NO_COLOR=1"}
	return tmuxtest.Start(t, w, h, env, append([]string{bin}, args...)...)
}

var pidRe = regexp.MustCompile(`pid (\d+)`)

// serverPID reads the child's pid from the status bar. A passing note can push it out of a
// narrow bar for a few seconds, so it waits for the pid to show.
func serverPID(t *testing.T, s *tmuxtest.Session) int {
	t.Helper()
	screen := s.WaitForFunc(t, wait, "the server's pid in the status bar", func(screen string) bool {
		return pidRe.MatchString(screen)
	})
	pid, _ := strconv.Atoi(pidRe.FindStringSubmatch(screen)[1])
	return pid
}

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool { return platformtest.Running(pid) }

func waitDead(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) still running: orphaned", what, pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// callTool selects a tool with the filter, opens its form, types values for the fields in
// order (tab between them), sends, and waits for the finished result ("took …") showing want.
// want alone is not enough: the form's echo of the arguments, or a pid in the status bar, can
// already contain it while the call is still running.
func callTool(t *testing.T, s *tmuxtest.Session, tool string, values []string, want string) string {
	t.Helper()
	s.Send("1")
	s.Send("/")
	s.SendText(tool)
	s.Send("Enter")
	s.Send("Enter")
	s.WaitFor(t, wait, "call "+tool)
	for i, v := range values {
		if i > 0 {
			s.Send("Tab")
		}
		s.SendText(v)
	}
	s.Send("C-s")
	return s.WaitForFunc(t, wait, "result "+strconv.Quote(want), func(screen string) bool {
		return strings.Contains(screen, "took ") && strings.Contains(screen, want)
	})
}

func TestServerEverythingInTheTUI(t *testing.T) {
	argv := testservers.ServerEverything(t)
	s := inspect(t, 150, 45, append([]string{"--root", "/tmp", "--"}, argv...)...)
	// The status bar says "connected" once the process runs; the name and protocol follow
	// with the handshake's answer.
	screen := s.WaitForFunc(t, wait, "the server's name and protocol in the status bar", func(screen string) bool {
		return strings.Contains(screen, "mcp-servers/everything") && strings.Contains(screen, "protocol 2025-11-25")
	})
	// server-everything asks for roots 350 ms after initialized (we advertise roots): the
	// --root we gave answers it at once, without a dialog. (Its note is watched for before
	// the pid, which a passing note pushes out of the bar until it has gone.)
	screen = s.WaitFor(t, wait, "roots/list: sent the 1 configured root(s) without asking")
	if strings.Contains(screen, "server request: roots/list") {
		t.Errorf("a dialog asks for roots configured with --root:\n%s", screen)
	}
	pid := serverPID(t, s)
	s.WaitFor(t, wait, "get-sum")
	screen = callTool(t, s, "echo", []string{"hello from tmux"}, "Echo: hello from tmux")
	if !strings.Contains(screen, "took ") {
		t.Errorf("the result should say how long the call took:\n%s", screen)
	}
	screen = callTool(t, s, "get-sum", []string{"2", "40"}, "The sum of 2 and 40 is 42")
	if !strings.Contains(screen, "The sum of 2 and 40 is 42") {
		t.Errorf("get-sum result:\n%s", screen)
	}
	// The wire pane shows the request and its response, raw and parsed.
	s.Send("3")
	screen = s.WaitFor(t, wait, "wire · all")
	if !strings.Contains(screen, "→ request") || !strings.Contains(screen, "← response") {
		t.Errorf("wire pane lacks requests/responses:\n%s", screen)
	}
	s.Send("q")
	if st := s.Wait(t, wait); st.Code != 0 {
		t.Errorf("quit: %v", st)
	}
	waitDead(t, pid, "server-everything")
}

func TestGoEverythingServerInTheTUI(t *testing.T) {
	argv := testservers.GoEverything(t)
	s := inspect(t, 150, 45, append([]string{"--"}, argv...)...)
	s.WaitFor(t, wait, "connected")
	pid := serverPID(t, s)
	s.WaitFor(t, wait, "test_simple_text")
	callTool(t, s, "test_simple_text", nil, "This is a simple text response for testing.")
	s.Send("q")
	s.Wait(t, wait)
	waitDead(t, pid, "everything-server")
}

func TestDemo(t *testing.T) {
	s := inspect(t, 140, 40, "demo")
	s.WaitFor(t, wait, "mcp-inspect-demo 1.0.0")
	pid := serverPID(t, s)
	callTool(t, s, "echo", []string{"q is not quit"}, "q is not quit")
	// A slow tool reports progress, and ctrl+x cancels it.
	s.Send("1")
	s.Send("/")
	s.SendText("slow")
	s.Send("Enter")
	s.Send("Enter")
	s.WaitFor(t, wait, "call slow")
	s.SendText("30")
	s.Send("C-s")
	s.WaitFor(t, wait, "step")
	s.Send("C-x")
	s.WaitFor(t, wait, "cancelled")
	s.Send("3")
	s.WaitFor(t, wait, "notifications/cancelled")
	s.Send("q")
	s.Wait(t, wait)
	waitDead(t, pid, "demo server")
}

func TestB09ExitShownInPlainWords(t *testing.T) {
	// --timeout 60s: showing the exit must not wait for the handshake's timeout. The bound
	// below is far under it and leaves room for a loaded CI machine; mcpclient's tests check
	// the exit is noticed at once.
	s := inspect(t, 120, 30, "--timeout", "60s", "--", "sh", "-c", "echo missing API_KEY >&2; exit 1")
	start := time.Now()
	screen := s.WaitFor(t, wait, "exited with code 1")
	if time.Since(start) > 15*time.Second {
		t.Errorf("the exit took %v to show; it must not wait for a timeout", time.Since(start))
	}
	if !strings.Contains(screen, "missing API_KEY") {
		t.Errorf("the last stderr line must be shown:\n%s", screen)
	}
	s.Send("q")
	s.Wait(t, wait)
}

func TestB09FakeServer(t *testing.T) {
	s := inspect(t, 120, 30, "--", fake.Binary(t), "--scenario", "b09")
	screen := s.WaitFor(t, wait, "exited with code 2")
	if !strings.Contains(screen, "DEMO_API_KEY is not set") {
		t.Errorf("stderr missing:\n%s", screen)
	}
	s.Send("q")
	s.Wait(t, wait)
}

func TestB01ViolationsCountedSessionAlive(t *testing.T) {
	s := inspect(t, 140, 35, "--", fake.Binary(t), "--scenario", "b01")
	screen := s.WaitFor(t, wait, "connected")
	s.WaitFor(t, wait, "echo")
	screen = callTool(t, s, "echo", []string{"still alive"}, "still alive")
	if m := regexp.MustCompile(`(\d+) violations`).FindStringSubmatch(screen); m == nil || m[1] == "0" {
		t.Errorf("the stray stdout lines must be counted as violations:\n%s", screen)
	}
	s.Send("3")
	s.Send("f") // messages
	s.Send("f") // problems
	screen = s.WaitFor(t, wait, "not JSON")
	s.Send("q")
	s.Wait(t, wait)
}

func TestUsageErrors(t *testing.T) {
	s := inspect(t, 100, 20)
	screen := s.WaitFor(t, wait, "no server command given")
	if st := s.Wait(t, wait); st.Code != 2 {
		t.Errorf("exit %v, want 2\n%s", st, screen)
	}
	// A command that cannot be spawned opens the UI on the dead-server panel (so E can fix a
	// typo); quitting there exits 3, saying why.
	s = inspect(t, 100, 20, "--", "/nonexistent/server")
	s.WaitFor(t, wait, "could not be started")
	s.Send("q")
	if st := s.Wait(t, wait); st.Code != 3 {
		t.Errorf("exit %v, want 3", st)
	}
	if screen := s.Screen(); !strings.Contains(screen, "/nonexistent/server") {
		t.Errorf("after quitting, the reason should name the command:\n%s", screen)
	}
}

func TestServerEverythingSamplingDialog(t *testing.T) {
	// Issue 3: a server→client request answered by the user in the real binary.
	argv := testservers.ServerEverything(t)
	s := inspect(t, 150, 45, append([]string{"--root", "/tmp", "--"}, argv...)...)
	s.WaitFor(t, wait, "roots/list: sent the 1 configured root(s) without asking")
	s.WaitFor(t, wait, "trigger-sampling-request")
	s.Send("1")
	s.Send("/")
	s.SendText("trigger-sampling")
	s.Send("Enter")
	s.Send("Enter")
	s.WaitFor(t, wait, "call trigger-sampling-request")
	s.SendText("What is MCP?")
	s.Send("C-s")
	s.WaitFor(t, wait, "server request: sampling/createMessage")
	s.WaitFor(t, wait, "What is MCP?")
	time.Sleep(500 * time.Millisecond)
	s.SendText("A protocol.")
	s.Send("C-s")
	screen := s.WaitFor(t, wait, `"text": "A protocol."`)
	if !strings.Contains(screen, "mcp-inspect-user") {
		t.Errorf("the sampling result should name the model the reply came from:\n%s", screen)
	}
	s.Send("q")
	s.Wait(t, wait)
}
