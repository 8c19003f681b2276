//go:build unix

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/tmuxtest"
)

// floodWait is generous: the floods take seconds on a loaded machine, and a key's effect is
// only asserted to come, not timed (the 100 ms target is BenchmarkKeyUnderFlood's).
const floodWait = 90 * time.Second

// traceCount counts the trace's lines that contain s.
func traceCount(t *testing.T, path, s string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), s)
}

var (
	wireTitle   = regexp.MustCompile(`wire · all · (\d+)/(\d+)`)
	logsCount   = regexp.MustCompile(`logs & notifications \(\d+\)`)
	stderrCount = regexp.MustCompile(`stderr \(\d+ lines`)
)

// wireTotal reads the wire pane's event count from its title.
func wireTotal(t *testing.T, s *tmuxtest.Session) int {
	t.Helper()
	screen := s.WaitForFunc(t, floodWait, "the wire pane's title", func(screen string) bool { return wireTitle.MatchString(screen) })
	n, _ := strconv.Atoi(wireTitle.FindStringSubmatch(screen)[2])
	return n
}

// TestFloodNotifyInTheTUI: 100,000 notifications as fast as the server can write them. Keys
// pressed while they pour in take effect, the Logs pane bounds itself and says so, the
// wire pane counts every message, and the recording holds every one.
func TestFloodNotifyInTheTUI(t *testing.T) {
	const n = 100_000
	trace := filepath.Join(t.TempDir(), "flood.jsonl")
	s := inspect(t, 160, 40, "--record", trace, "-e", fmt.Sprintf("FAKE_COUNT=%d", n), "--", fake.Binary(t), "--scenario", "flood-notify")
	s.WaitFor(t, floodWait, "connected")
	// During the flood: switch to Logs, then to Wire; each switch shows. How far the flood
	// had come when each key took effect is logged (a fast machine may be done already).
	s.Send("7")
	screen := s.WaitFor(t, floodWait, "logs & notifications (")
	t.Logf("Logs shown with %s", logsCount.FindString(screen))
	s.Send("3")
	t.Logf("Wire shown with %s", wireTitle.FindString(s.WaitFor(t, floodWait, "wire · all")))
	// FAKE_COUNT's value is an -e value, masked on screen as in the trace wherever the
	// server writes it ("flood done ***"): X shows it, and with it the count.
	s.Send("7")
	s.WaitFor(t, floodWait, "flood done ***")
	s.Send("X")
	screen = s.WaitFor(t, floodWait, fmt.Sprintf("flood done %d", n))
	if !strings.Contains(screen, "older entries dropped from view") {
		t.Errorf("the Logs pane should say it dropped older entries:\n%s", screen)
	}
	s.Send("3")
	if got := wireTotal(t, s); got < n+1 {
		t.Errorf("the wire pane counts %d events, fewer than the %d notifications", got, n+1)
	}
	s.Send("q")
	if st := s.Wait(t, floodWait); st.Code != 0 {
		t.Fatalf("exit %v", st)
	}
	// Counted by level and logger, not by number: the trace redacts -e values wherever they
	// appear (case B25), and FAKE_COUNT's value is also the last notification's number.
	if got := traceCount(t, trace, `\"level\":\"info\",\"logger\":\"flood\"`); got != n {
		t.Fatalf("the recording holds %d of the %d notifications", got, n)
	}
}

// TestFloodStderrInTheTUI: stderr at 10,000 lines per second. A key pressed during the flood
// takes effect; the status bar counts every line; the recording holds every one.
func TestFloodStderrInTheTUI(t *testing.T) {
	const n = 30_000
	trace := filepath.Join(t.TempDir(), "flood.jsonl")
	s := inspect(t, 160, 40, "--record", trace, "-e", fmt.Sprintf("FAKE_COUNT=%d", n), "--", fake.Binary(t), "--scenario", "flood-stderr")
	s.WaitFor(t, floodWait, "connected")
	s.Send("4")
	t.Logf("Server pane shown with %s", stderrCount.FindString(s.WaitFor(t, floodWait, "stderr (")))
	s.Send("3")
	t.Logf("Wire shown with %s", wireTitle.FindString(s.WaitFor(t, floodWait, "wire · all")))
	s.WaitFor(t, floodWait, fmt.Sprintf("%d stderr", n+1))
	s.WaitFor(t, floodWait, fmt.Sprintf("flood done %d", n)) // the wire follows the last line
	s.Send("q")
	if st := s.Wait(t, floodWait); st.Code != 0 {
		t.Fatalf("exit %v", st)
	}
	if got := traceCount(t, trace, "a line of server stderr"); got != n {
		t.Fatalf("the recording holds %d of the %d stderr lines", got, n)
	}
}

// TestMaxMessageInTheTUI: --max-message 1048576 and a 3 MiB tools/call response: the call
// fails at once naming the limit, the status bar counts the violation, the wire pane shows
// the oversize frame, and the trace keeps its head with the full size.
func TestMaxMessageInTheTUI(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "big.jsonl")
	s := inspect(t, 160, 40, "--record", trace, "--max-message", "1048576", "--", fake.Binary(t), "--scenario", "b03")
	s.WaitFor(t, wait, "connected")
	s.WaitFor(t, wait, "big")
	s.Send("1")
	s.Send("/")
	s.SendText("big")
	s.Send("Enter")
	s.Send("Enter")
	s.WaitFor(t, wait, "call big")
	s.SendText("3145728")
	s.Send("C-s")
	s.WaitFor(t, wait, "over the 1048576-byte limit")
	s.WaitFor(t, wait, "1 violation ·")
	s.Send("3")
	s.WaitFor(t, wait, "← oversize")
	s.Send("q")
	if st := s.Wait(t, wait); st.Code != 0 {
		t.Fatalf("exit %v", st)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`"size":314\d{4},"trunc":true`).Match(b) {
		t.Fatal("the trace lacks the oversize frame with its full size and trunc")
	}
	if len(b) > 1<<20 {
		t.Fatalf("the trace is %d bytes: more than the kept head of the frame", len(b))
	}
}
