package platform

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// helperEnv selects what the test binary does when a test starts it as a child process.
const helperEnv = "PLATFORM_TEST_HELPER"

// TestMain lets the test binary be the processes the tree tests start, so they need no
// shell or other program and run the same on every system.
func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode))
	}
	os.Exit(m.Run())
}

// helper is the child process: "sleep" waits to be ended; "parent" starts a "sleep"
// grandchild, prints its pid and waits; "ignore-term" survives Terminate; "exit3" exits
// with code 3. Each prints "ready" (after the pid, for parent) once set up.
func helper(mode string) int {
	switch mode {
	case "sleep":
	case "parent":
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), helperEnv+"=sleep")
		if err := c.Start(); err != nil {
			fmt.Println("error", err)
			return 1
		}
		fmt.Println(c.Process.Pid)
	case "ignore-term":
		IgnoreTerminate()
	case "exit3":
		return 3
	default:
		return 2
	}
	fmt.Println("ready")
	time.Sleep(time.Hour)
	return 0
}

// child starts the test binary as helper mode in a new tree, reads its output up to
// "ready", and returns the tree, the command and the lines before "ready". The tree is
// killed and released when the test ends.
func child(t *testing.T, mode string) (*Tree, *exec.Cmd, []string) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"="+mode)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = tree.Kill()
		tree.WaitGone(5 * time.Second)
		tree.Release()
	})
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var before []string
	deadline := time.After(20 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("helper %s ended before it was ready (%q)", mode, before)
			}
			if l == "ready" {
				go func() {
					for range lines {
					}
				}()
				return tree, cmd, before
			}
			before = append(before, l)
		case <-deadline:
			t.Fatalf("helper %s not ready after 20s (%q)", mode, before)
		}
	}
}

// waitExit waits for cmd to end, at most d, and returns how it ended.
func waitExit(t *testing.T, cmd *exec.Cmd, d time.Duration) Exit {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return ExitOf(cmd, err)
	case <-time.After(d):
		t.Fatalf("pid %d still running after %v", cmd.Process.Pid, d)
	}
	return Exit{}
}

// pidOf parses the grandchild pid a "parent" helper printed.
func pidOf(t *testing.T, lines []string) int {
	t.Helper()
	if len(lines) != 1 {
		t.Fatalf("want one pid line, got %q", lines)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil {
		t.Fatalf("pid line %q: %v", lines[0], err)
	}
	return pid
}

// tempDir is t.TempDir, removed entry by entry with os.Remove: Go 1.26's os.RemoveAll on
// Windows deletes through FileDispositionInfoEx, which wine 8 (the Windows smoke test) does
// not have, so t.TempDir's cleanup fails there.
func tempDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "platform-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		var paths []string
		_ = filepath.WalkDir(d, func(p string, _ fs.DirEntry, err error) error {
			if err == nil {
				paths = append(paths, p)
			}
			return nil
		})
		for i := len(paths) - 1; i >= 0; i-- {
			if err := os.Remove(paths[i]); err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("cleanup: %v", err)
			}
		}
	})
	return d
}
