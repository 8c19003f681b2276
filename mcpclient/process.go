package mcpclient

// Spawning the server, noticing its end, and shutting it down.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

func (c *Client) spawn() error {
	if strings.ContainsRune(c.cfg.Command, '/') || strings.ContainsRune(c.cfg.Command, filepath.Separator) {
		if st, err := os.Stat(c.cfg.Command); err == nil && st.IsDir() {
			return &SpawnError{Argv: c.argv, Err: fmt.Errorf("%s is a directory, not an executable", c.cfg.Command)}
		}
	}
	cmd := exec.Command(c.cfg.Command, c.cfg.Args...)
	cmd.Env = append(os.Environ(), c.cfg.Env...)
	cmd.Dir = c.cfg.Dir
	inR, inW, err := os.Pipe()
	if err != nil {
		return &SpawnError{Argv: c.argv, Err: err}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return &SpawnError{Argv: c.argv, Err: err}
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return &SpawnError{Argv: c.argv, Err: err}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	tree, err := platform.Start(cmd)
	if err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW, errR, errW} {
			f.Close()
		}
		return &SpawnError{Argv: c.argv, Err: err}
	}
	inR.Close()
	outW.Close()
	errW.Close()
	c.cmd = cmd
	c.tree = tree
	c.pid = tree.PID()
	c.writer = newLineWriter(inW, c.onWriteError)
	c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeStarted, PID: c.pid, Text: fmt.Sprintf("started pid %d", c.pid)}})
	if w := tree.Warning(); w != "" {
		c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeNote, PID: c.pid, Text: w}})
	}
	if c.cfg.CallerReads && platform.PollSupported {
		c.lr = newLeaderReader(c, outR)
	} else {
		go c.readStdout(outR)
	}
	go c.readStderr(errR)
	go func() {
		ex := platform.ExitOf(cmd, cmd.Wait())
		c.exitCode, c.exitSignal = ex.Code, ex.Signal
		close(c.waitDone)
		// What is left in the pipes is bounded by their buffers now, and the readers must
		// reach EOF whether or not anyone still receives events.
		c.releaseQueues()
	}()
	go c.supervise()
	return nil
}

func (c *Client) closeQueues() {
	c.q.close()
	if c.obs != nil {
		c.obs.close()
	}
}

// supervise notices the end of the server: process exit, or stdout closed while the process
// lives. It fails pending requests at once with the cause (cases B09, B10).
func (c *Client) supervise() {
	select {
	case <-c.waitDone:
		// Let the last stdout frames and stderr lines arrive before reporting.
		waitAny(c.stdoutEOF, 500*time.Millisecond)
	case <-c.stdoutEOF:
		if !waitAny(c.waitDone, 250*time.Millisecond) {
			c.mu.Lock()
			e := &ExitError{PID: c.pid, ExitCode: -1, StdoutClosed: true}
			c.emitLocked(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeStdoutClosed, PID: c.pid, Text: "server closed its stdout but is still running"}})
			c.failAllLocked(e)
			c.mu.Unlock()
			<-c.waitDone
		}
	}
	waitAny(c.stderrEOF, 500*time.Millisecond)
	c.mu.Lock()
	e := &ExitError{PID: c.pid, ExitCode: c.exitCode, Signal: c.exitSignal, Stderr: c.stderrTail.Lines(c.cfg.StderrTail)}
	text := "server " + e.How()
	exited := Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeExited, PID: c.pid, ExitCode: c.exitCode, Signal: c.exitSignal, Text: text}}
	// The Pairer sees the exit as it does in a recording: frames a child of the server
	// writes afterwards carry an after-exit note (CodeAfterExit).
	c.pairer.Add(&exited)
	c.emitLocked(exited)
	c.failAllLocked(e)
	c.writer.close()
	c.mu.Unlock()
	if !c.tree.Alive() {
		c.tree.Release()
	}
	// Readers may still be blocked if a grandchild holds the pipes open; the queue closes
	// when they finish or when Close kills the group.
	go func() {
		<-c.stdoutEOF
		<-c.stderrEOF
		c.closeQueues()
	}()
	close(c.exitDone)
}

func waitAny(ch <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}

// failAllLocked marks the session dead with e and fails every pending request, each with its
// own copy naming it.
func (c *Client) failAllLocked(e *ExitError) {
	if c.state != StateClosed {
		c.state = StateDead
	}
	if c.dead == nil || c.dead.StdoutClosed {
		c.dead = e
	}
	for _, p := range c.pending {
		pe := *e
		pe.Pending = p.label()
		p.ch <- reqOutcome{err: &pe}
		c.dropLocked(p)
	}
}

// dropLocked forgets a request's waiter (the Pairer keeps its own history).
func (c *Client) dropLocked(p *pendingReq) {
	delete(c.pending, p.id)
}

func (c *Client) onWriteError(err error) {
	c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeNote, Err: err, Text: "writing to the server's stdin failed: " + err.Error()}})
}

// Shutdown steps of ShutdownReport.Step.
const (
	// ShutdownStdin: the server exited once its stdin was closed, as MCP asks.
	ShutdownStdin = "stdin closed"
	// ShutdownTerminate: it was still running ShutdownGrace after stdin closed; the
	// polite signal to its process tree ended it: "SIGTERM" (Unix) or "CTRL_BREAK"
	// (Windows).
	ShutdownTerminate = platform.TerminateStep
	// ShutdownKill: it outlived that by ShutdownGrace too; killing the tree ended it:
	// "SIGKILL" (Unix) or "TerminateJobObject" (Windows).
	ShutdownKill = platform.KillStep
)

// ShutdownReport says how Close ended a stdio server (MCP 2025-11-25 basic/lifecycle
// §Shutdown: close stdin, then SIGTERM, then SIGKILL; on Windows CTRL_BREAK, then the
// job object terminated).
type ShutdownReport struct {
	// Step is the step that ended it (ShutdownStdin, ShutdownTerminate, ShutdownKill), ""
	// before Close, for a remote server, or when the server had exited before Close.
	Step string
	// After is the time from closing its stdin to its exit.
	After time.Duration
}

// Lingered reports whether the server did not leave on closed stdin (a signal ended it).
func (r ShutdownReport) Lingered() bool {
	return r.Step == ShutdownTerminate || r.Step == ShutdownKill
}

// Shutdown is how Close ended the server; the zero report until Close returned.
func (c *Client) Shutdown() ShutdownReport {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.shutdown
}

// Close shuts the server down the way MCP 2025-11-25 basic/lifecycle §Shutdown says: close
// its stdin, wait ShutdownGrace (or Hasten's grace), terminate the process tree (SIGTERM
// to the group; CTRL_BREAK on Windows), wait, kill the tree (SIGKILL to the group; the job
// object terminated on Windows). The tree is ended even when the main process exited, so
// forked children do not outlive the session. Close returns when the process is gone; it is idempotent.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		if c.tr != nil {
			c.closeHTTP()
			return
		}
		if c.cmd == nil {
			return
		}
		for deadline := time.Now().Add(c.stepGrace()); c.answering.Load() > 0 && time.Now().Before(deadline); {
			time.Sleep(2 * time.Millisecond)
		}
		c.mu.Lock()
		c.state = StateClosed
		c.mu.Unlock()
		exited := func() bool {
			select {
			case <-c.waitDone:
				return true
			default:
				return false
			}
		}
		if !exited() {
			c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeShutdown, PID: c.pid, Text: "closing the server's stdin"}})
		}
		c.mu.Lock()
		c.stdinClosed = true
		c.mu.Unlock()
		step, closed := ShutdownStdin, time.Now()
		if exited() {
			step = ""
		}
		c.writer.close()
		if !c.waitStep(c.waitDone) {
			step = ShutdownTerminate
			c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeShutdown, PID: c.pid, Text: platform.TerminateAction}})
			// A polite step that could not be sent (Windows: no console to share with the
			// server) is not waited for.
			terr := c.tree.Terminate()
			if terr != nil {
				c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeNote, PID: c.pid, Err: terr, Text: platform.TerminateStep + " could not be sent (" + terr.Error() + "): going on at once"}})
			}
			if terr != nil || !c.waitStep(c.waitDone) {
				step = ShutdownKill
				c.emit(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeShutdown, PID: c.pid, Text: platform.KillAction}})
				_ = c.tree.Kill()
				<-c.waitDone
			}
		}
		c.mu.Lock()
		c.shutdown = ShutdownReport{Step: step, After: time.Since(closed)}
		c.mu.Unlock()
		// Whatever is left in the tree (forked children) goes too.
		if c.tree.Alive() {
			if c.tree.Terminate() != nil || !c.tree.WaitGone(c.stepGrace()) {
				_ = c.tree.Kill()
				c.tree.WaitGone(time.Second)
			}
		}
		<-c.exitDone
		if !c.tree.Alive() {
			c.tree.Release()
		}
		if c.obs != nil {
			waitAny(c.obs.done, 2*time.Second)
		}
	})
	return nil
}
