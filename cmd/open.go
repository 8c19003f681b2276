package cmd

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	rtdebug "runtime/debug"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/trace"
	"github.com/mcp-inspect/mcp-inspect/ui"
)

// exitBadTrace is the exit code of the trace commands when the trace cannot be read.
const exitBadTrace = 2

func newOpenCmd() *cobra.Command {
	var o openFlags
	c := &cobra.Command{
		Use:   "open [TRACE]",
		Short: "Open a recorded session in the TUI, offline",
		Long: `open shows a trace recorded with --record (or kept in the state directory) in the same
TUI, without a server: the wire pane with raw bytes and parsed messages, stderr, lifecycle
events and timings. Events are read from the file as they are shown; the file is indexed,
never loaded whole.

Without TRACE, open lists the kept sessions (the state directory's sessions/, newest first:
start time, duration, size, tools/call requests, violations, server; counts past the first
2 MiB of a trace end in +): a picker in a terminal (type to filter, enter opens), else one
line per session on stdout, the path first and a tab. --last opens the newest one. K in
the TUI opens the same picker.`,
		Example: `  mcp-inspect open session.jsonl
  mcp-inspect open            # pick a kept session
  mcp-inspect open --last     # the newest kept session
  mcp-inspect open | cut -f1  # their paths, newest first
  ssh host cat trace.jsonl | mcp-inspect open -`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			theme, from := chosenTheme(cmd.Flags(), o.theme)
			if err := checkTheme(theme, from); err != nil {
				return &codeError{exitUsage, err.Error()}
			}
			o.theme = theme
			path := ""
			switch {
			case len(args) == 1 && o.last:
				return &codeError{exitUsage, "open: --last opens the newest kept session: give no TRACE with it"}
			case len(args) == 1:
				path = args[0]
			default:
				p, err := o.pick(cmd)
				if err != nil || p == "" {
					return err
				}
				path = p
			}
			return o.openLoop(cmd, path)
		},
	}
	c.Flags().StringVar(&o.theme, "theme", "", themeUsage())
	c.Flags().StringVar(&o.logFile, "log-file", "", "write the inspector's own log to `FILE` (default: the user state directory)")
	c.Flags().BoolVar(&o.debug, "debug", false, "log at debug level")
	c.Flags().Uint64Var(&o.at, "at", 0, "show event `N` first: the Wire pane, with it selected (check's report cites events by number)")
	c.Flags().BoolVar(&o.last, "last", false, "open the newest kept session (no TRACE)")
	return c
}

// openFlags are open's flags.
type openFlags struct {
	theme, logFile string
	debug, last    bool
	at             uint64
}

// openLoop opens the trace at path, then each kept session the user picks with K (that
// TUI ends and the chosen one opens), until the user quits.
func (o *openFlags) openLoop(cmd *cobra.Command, path string) error {
	for {
		next, err := o.open(cmd, path)
		if err != nil || next == "" {
			return err
		}
		path, o.at = next, 0
	}
}

// open shows the trace at path in the TUI until the user quits; next is the kept session
// the user picked there (K), "" when none.
func (o *openFlags) open(cmd *cobra.Command, path string) (next string, err error) {
	// "-": the trace comes from stdin and the keys from the terminal.
	input, err := ttyInput(path == "-")
	if err != nil {
		return "", err
	}
	if input != nil {
		defer input.Close()
	}
	if err := needTerminal("in scripts use mcp-inspect trace cat TRACE (or trace stats TRACE), see mcp-inspect --help"); input == nil && err != nil {
		return "", err
	}
	logger, closeLog := openLog(o.logFile, o.debug)
	defer closeLog()
	tr, err := openTraceWarn(path, cmd.ErrOrStderr(), "mcp-inspect", logger)
	if err != nil {
		return "", err
	}
	defer tr.Close()
	ctx, stop := signal.NotifyContext(cmd.Context(), platform.StopSignals()...)
	defer stop()
	events := make(chan mcpclient.Event, 1024)
	go func() {
		defer close(events)
		// Reading the trace makes garbage in proportion to its size (every event
		// decoded and classified once); the UI keeps a summary of each. Give the
		// garbage back to the system once the last event is in.
		defer rtdebug.FreeOSMemory()
		feedTrace(ctx, tr, events, logger)
	}()
	title := "trace " + filepath.Base(path)
	if len(tr.Header.Argv) > 0 {
		title += ": " + lineQuoting().Join(tr.Header.Argv)
	}
	var list func() ([]ui.SessionRow, error)
	if input == nil {
		list = keptSessionRows
	}
	res, err := ui.Run(ctx, withSettings(ui.Options{Events: events, Title: title, Argv: tr.Header.Argv, Theme: o.theme, ThemeDir: userThemeDir(), Logger: logger,
		// w saves frames to the state directory, as a live session does.
		HistoryDir: usableStateDir(),
		// The UI keeps a summary per event and reads the ones it shows back
		// through the index, so a trace of any length opens in bounded memory.
		LoadEvent: tr.EventBySeq, TraceLen: tr.Len(), TraceWarnings: tr.Warnings, FromTrace: true, Input: input, At: o.at,
		ListSessions: list}, settingsOf(cmd)))
	if err != nil && !errors.Is(err, context.Canceled) {
		return "", &codeError{1, err.Error()}
	}
	return res.Open, nil
}

// feedTrace sends the trace's events to events in order until the end or ctx ends. An
// unreadable line is logged and left out, and the next event carries a note saying so
// (session.MarkLostLines).
func feedTrace(ctx context.Context, tr *trace.Trace, events chan<- mcpclient.Event, logger *slog.Logger) {
	var lost []string
	afterLoss := false
	for ev, err := range tr.Events() {
		if err != nil {
			logger.Warn("trace line skipped", "err", err)
			why := err.Error()
			if le, ok := errors.AsType[*trace.LineError](err); ok {
				// Index is 0-based and not the event's Seq: say where in the file instead.
				why = fmt.Sprintf("the line at byte %d: %v", le.Offset, le.Err)
			}
			lost = append(lost, why)
			continue
		}
		if len(lost) > 0 || afterLoss {
			session.MarkLostLines(&ev, lost)
			lost, afterLoss = lost[:0], true
		}
		select {
		case events <- ev:
		case <-ctx.Done():
			return
		}
	}
}

// openTrace opens a trace for a subcommand; failures become exit code 2.
func openTrace(path string) (*trace.Trace, error) {
	if path == "-" {
		tr, err := trace.OpenStream(os.Stdin)
		if err != nil {
			return nil, &codeError{exitBadTrace, "cannot read trace from stdin: " + err.Error()}
		}
		return tr, nil
	}
	tr, err := trace.Open(path)
	if err != nil {
		return nil, &codeError{exitBadTrace, "cannot read trace: " + err.Error()}
	}
	return tr, nil
}

// ttyInput opens the terminal for the TUI's keys when the trace comes from a piped stdin
// (stdin "-" that is not a terminal); nil otherwise. Without a terminal to open, or with
// stdout not a terminal, it is a usage error, as for any TUI command.
func ttyInput(fromStdin bool) (*os.File, error) {
	if !fromStdin || term.IsTerminal(os.Stdin.Fd()) {
		return nil, nil
	}
	tty, err := platform.OpenTerminal()
	if err != nil || !term.IsTerminal(tty.Fd()) || !term.IsTerminal(os.Stdout.Fd()) {
		if tty != nil {
			tty.Close()
		}
		return nil, &codeError{exitUsage, "open -: the TUI needs a terminal for keys and on stdout; in scripts use mcp-inspect trace cat -"}
	}
	return tty, nil
}
