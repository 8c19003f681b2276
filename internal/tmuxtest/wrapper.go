//go:build unix

package tmuxtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
)

// wrapperEnv, set in the pane's environment, makes a test binary that
// imports this package act as the wrapper: its value is the directory to
// write the program's pid and exit status in.
const wrapperEnv = "MCP_INSPECT_TMUXTEST_WRAPPER"

// Files the wrapper writes in its directory, each atomically.
const (
	pidFile    = "pid"    // the program's pid, decimal
	statusFile = "status" // "exit N" or "signal N"
)

// The pane does not run the program directly: tmux 3.3 can lose the last
// output of a program that exits at once, and sometimes never learns its
// exit status. So the pane runs the test binary itself as a wrapper (this
// init takes it over before any test runs), which runs the program on the
// pane's terminal, records its pid and how it ended, and then holds the
// terminal open so that tmux reads every byte and the screen stays as the
// program left it.
func init() {
	if dir := os.Getenv(wrapperEnv); dir != "" {
		os.Exit(wrap(dir, os.Args[1:]))
	}
}

// wrap runs argv on this process's terminal and records it in dir. It returns
// only on a failure to record; otherwise it sleeps until killed.
func wrap(dir string, argv []string) int {
	os.Unsetenv(wrapperEnv)
	// The program shares the wrapper's process group, the terminal's
	// foreground group, so C-c and C-\ reach both: the wrapper survives them
	// by catching them (a caught signal, unlike an ignored one, is reset to
	// its default in the program).
	signal.Notify(make(chan os.Signal, 1), platformtest.SIGINT, platformtest.SIGQUIT, platformtest.SIGTSTP)

	status := "exit 127"
	if len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "tmuxtest: no command")
	} else {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		if err := cmd.Start(); err != nil {
			fmt.Fprintf(os.Stderr, "tmuxtest: %v\n", err)
		} else {
			if err := writeAtomic(dir, pidFile, strconv.Itoa(cmd.Process.Pid)); err != nil {
				fmt.Fprintf(os.Stderr, "tmuxtest: %v\n", err)
				return 1
			}
			err := cmd.Wait()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				fmt.Fprintf(os.Stderr, "tmuxtest: %v\n", err)
			}
			if sig := platformtest.WaitSignal(cmd.ProcessState); sig != 0 {
				status = "signal " + strconv.Itoa(int(sig))
			} else {
				status = "exit " + strconv.Itoa(cmd.ProcessState.ExitCode())
			}
		}
	}
	if err := writeAtomic(dir, statusFile, status); err != nil {
		fmt.Fprintf(os.Stderr, "tmuxtest: %v\n", err)
		return 1
	}
	for {
		time.Sleep(time.Hour)
	}
}

// writeAtomic writes data to dir/name through a temporary file and a rename,
// so a reader sees all of it or nothing.
func writeAtomic(dir, name, data string) error {
	tmp := filepath.Join(dir, "."+name+".tmp")
	if err := os.WriteFile(tmp, []byte(data), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, name))
}
