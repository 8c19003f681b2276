//go:build unix

package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/internal/tmuxtest"
)

// TestOpenReadsFramesBack: open keeps a summary per event and reads a frame's bytes back
// from the trace when it is selected; the arguments of the recorded call, which no row
// shows, appear in the detail of its request and in the Call tab's past call.
func TestOpenReadsFramesBack(t *testing.T) {
	bin := testservers.BuildInspector(t)
	state := t.TempDir()
	trace := filepath.Join(t.TempDir(), "session.jsonl")
	r := traceRun(t, state, nil, "call", "echo", "--args", `{"text":"lazy-marker"}`, "--record", trace, "--", fake.Binary(t), "--scenario", "minimal")
	wantCode(t, r, 0)
	s := tmuxtest.Start(t, 160, 40, []string{"XDG_STATE_HOME=" + state, "NO_COLOR=1"}, bin, "open", trace)
	s.WaitFor(t, 20*time.Second, "trace session.jsonl")
	s.Send("3")
	s.WaitFor(t, 10*time.Second, "tools/call")
	s.Send("g")
	s.WaitFor(t, 5*time.Second, "│#1 ")
	found := false
	for n := 2; n <= 9 && !found; n++ {
		s.Send("j")
		// The detail's title names the selected event; its bytes follow once read back.
		screen := s.WaitForFunc(t, 5*time.Second, fmt.Sprintf("event #%d drawn", n), func(screen string) bool {
			return strings.Contains(screen, fmt.Sprintf("│#%d ", n)) && !strings.Contains(screen, "loading the frame's bytes")
		})
		found = strings.Contains(screen, `"text": "lazy-marker"`) // the parsed view
	}
	if !found {
		t.Fatalf("the request's bytes never showed:\n%s", s.Screen())
	}
	s.Send("2")
	s.WaitFor(t, 10*time.Second, `arguments: {"text":"lazy-marker"}`)
	s.Send("q")
	if st := s.Wait(t, 10*time.Second); st.Code != 0 {
		t.Fatalf("open exited with %v", st)
	}
}

// TestOpenSavesFramesToStateDir: w on a frame of an opened trace saves it to frames/ in
// the state directory, as a live session does, not to the working directory.
func TestOpenSavesFramesToStateDir(t *testing.T) {
	bin := testservers.BuildInspector(t)
	state := t.TempDir()
	trace := filepath.Join(t.TempDir(), "session.jsonl")
	r := traceRun(t, state, nil, "call", "echo", "--args", `{"text":"x"}`, "--record", trace, "--", fake.Binary(t), "--scenario", "minimal")
	wantCode(t, r, 0)
	s := tmuxtest.Start(t, 160, 40, []string{"XDG_STATE_HOME=" + state, "NO_COLOR=1"}, bin, "open", trace)
	s.WaitFor(t, 20*time.Second, "trace session.jsonl")
	s.Send("3")
	s.WaitFor(t, 10*time.Second, "tools/call")
	s.Send("g")
	s.WaitFor(t, 5*time.Second, "│#1 ")
	s.Send("j")
	s.WaitFor(t, 5*time.Second, "│#2 ")
	s.Send("w")
	s.WaitFor(t, 10*time.Second, "frame #2 saved to "+filepath.Join(state, "mcp-inspect", "frames", "frame-2.jsonl")[:30])
	if _, err := os.Stat(filepath.Join(state, "mcp-inspect", "frames", "frame-2.jsonl")); err != nil {
		t.Fatalf("frame not in the state directory: %v\n%s", err, s.Screen())
	}
	s.Send("q")
	s.Wait(t, 10*time.Second)
}
