package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/settings"
	"github.com/mcp-inspect/mcp-inspect/internal/termout"
	"github.com/mcp-inspect/mcp-inspect/internal/wirefilter"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/tap"
	"github.com/mcp-inspect/mcp-inspect/ui"
)

func newAttachCmd() *cobra.Command {
	var theme, logFile string
	var debug, list, raw bool
	var breaks []string
	var holdTimeout time.Duration
	c := &cobra.Command{
		Use:   "attach [NAME]",
		Short: "Watch a running tap live in the TUI: its history, then the traffic as it happens",
		Long: `attach opens the TUI on a running ` + "`mcp-inspect tap`" + `: every message the host and
the server exchanged so far, then the live traffic. Quitting the TUI detaches; the tap, the
host and the server go on undisturbed (a viewer that falls far behind is dropped, never
waited for).

Breakpoints (--break, or the breakpoints key in the TUI) are wire filters: a message one
matches is held in the tap until you forward it, edit and send it, drop it or answer it. A
held message goes on unchanged after --hold-timeout, or when you detach.

NAME is the tap's --name (or its pid). Without NAME, attach lists the running taps (name,
command, host pid, start time, messages) and asks which one; with no terminal to ask on it
prints the list. Taps publish on Unix sockets (mode 0600) in $XDG_RUNTIME_DIR/mcp-inspect,
/run/user/UID/mcp-inspect or /tmp/mcp-inspect-UID.`,
		Example: `  mcp-inspect attach
  mcp-inspect attach everything
  mcp-inspect attach everything --break 'method:tools/call tool:delete_*'
  mcp-inspect attach --list
  mcp-inspect attach everything --raw > live.jsonl`,
		Args:          cobra.MaximumNArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkBreaks(breaks, holdTimeout, raw); err != nil {
				return err
			}
			logger, closeLog := openLog(logFile, debug)
			defer closeLog()
			taps, err := tap.List()
			if err != nil {
				logger.Warn("listing taps", "err", err)
			}
			out := cmd.OutOrStdout()
			if list {
				if len(taps) == 0 {
					fmt.Fprintln(cmd.ErrOrStderr(), "mcp-inspect: no taps are running")
					return nil
				}
				writeTaps(out, taps, false)
				return nil
			}
			var pick []tap.Info
			if len(args) == 1 {
				pick = tap.Find(taps, args[0])
				if len(pick) == 0 {
					return &codeError{exitNoServer, noTapMessage(args[0], taps)}
				}
			} else {
				pick = taps
				if len(pick) == 0 {
					return &codeError{exitNoServer, "no taps are running (start one with: mcp-inspect tap --name NAME -- COMMAND [ARGS...])"}
				}
			}
			chosen := pick[0]
			if len(pick) > 1 || len(args) == 0 {
				if !isTerminal(os.Stdin) || !isTerminal(os.Stdout) {
					writeTaps(out, pick, false)
					return &codeError{exitUsage, "say which tap: mcp-inspect attach NAME (or PID)"}
				}
				i, err := promptTap(os.Stdin, out, pick)
				if err != nil {
					return &codeError{exitUsage, err.Error()}
				}
				chosen = pick[i]
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), platform.StopSignals()...)
			defer stop()
			if raw {
				return attachRaw(ctx, chosen, termout.JSONOf(out), cmd.ErrOrStderr())
			}
			if err := needTerminal("in scripts use mcp-inspect attach NAME --raw (the trace as JSON Lines on stdout)"); err != nil {
				return err
			}
			theme, from := chosenTheme(cmd.Flags(), theme)
			if err := checkTheme(theme, from); err != nil {
				return &codeError{exitUsage, err.Error()}
			}
			return attachTUI(ctx, chosen, attachTUIOptions{theme: theme, breaks: breaks, holdTimeout: holdTimeout}, logger, settingsOf(cmd))
		},
	}
	c.Flags().StringArrayVar(&breaks, "break", nil, "hold each message the wire `FILTER` matches until you decide in the TUI (repeatable)")
	c.Flags().DurationVar(&holdTimeout, "hold-timeout", tap.DefaultHoldTimeout, "a held message goes on unchanged after this long without a decision")
	c.Flags().BoolVar(&list, "list", false, "print the running taps and exit")
	c.Flags().BoolVar(&raw, "raw", false, "write the tap's trace (JSON Lines: history, then live) to stdout instead of opening the TUI")
	c.Flags().StringVar(&theme, "theme", "", themeUsage())
	c.Flags().StringVar(&logFile, "log-file", "", "write the inspector's own log to `FILE` (default: the user state directory)")
	c.Flags().BoolVar(&debug, "debug", false, "log at debug level")
	return c
}

func noTapMessage(name string, taps []tap.Info) string {
	if len(taps) == 0 {
		return fmt.Sprintf("no tap %q is running; no taps are running at all", name)
	}
	names := make([]string, len(taps))
	for i, t := range taps {
		names[i] = t.Name
	}
	return fmt.Sprintf("no tap %q is running; running: %s", name, strings.Join(names, ", "))
}

// writeTaps prints the taps as a table, numbered when numbered is set.
func writeTaps(w io.Writer, taps []tap.Info, numbered bool) {
	safe := terminalSafe(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if numbered {
		fmt.Fprint(tw, "#\t")
	}
	fmt.Fprintln(tw, "NAME\tTAP PID\tHOST PID\tSTARTED\tMESSAGES\tCOMMAND")
	for i, t := range taps {
		if numbered {
			fmt.Fprintf(tw, "%d\t", i+1)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%s\n", safe(t.Name), t.PID, t.HostPID, startedAt(t.Start), t.Messages, safe(lineQuoting().Join(t.Argv)))
	}
	_ = tw.Flush()
}

// startedAt shows a start time: the clock time today, else the date too.
func startedAt(t time.Time) string {
	t = t.Local()
	if y, m, d := t.Date(); y == time.Now().Year() && m == time.Now().Month() && d == time.Now().Day() {
		return t.Format("15:04:05")
	}
	return t.Format("2006-01-02 15:04")
}

// promptTap asks on the terminal which tap to attach to; Enter picks the first.
func promptTap(in io.Reader, out io.Writer, taps []tap.Info) (int, error) {
	writeTaps(out, taps, true)
	br := bufio.NewReader(in)
	for {
		fmt.Fprintf(out, "attach to which tap? [1-%d, Enter = 1, q = quit] ", len(taps))
		line, err := br.ReadString('\n')
		line = strings.TrimSpace(line)
		if line == "" && err == nil {
			return 0, nil
		}
		if line == "q" || (err != nil && line == "") {
			return 0, errors.New("no tap chosen")
		}
		if n, convErr := strconv.Atoi(line); convErr == nil && n >= 1 && n <= len(taps) {
			return n - 1, nil
		}
		for i, t := range taps {
			if t.Name == line {
				return i, nil
			}
		}
		if err != nil {
			return 0, errors.New("no tap chosen")
		}
		fmt.Fprintf(out, "%q is not one of them\n", line)
	}
}

// attachTUI shows the tap's traffic in the TUI until the user quits; breakpoints hold what
// they match until the user decides.
// attachTUIOptions are attach's choices for the TUI.
type attachTUIOptions struct {
	theme       string
	breaks      []string      // --break filters, set as the TUI opens
	holdTimeout time.Duration // --hold-timeout
}

// checkBreaks refuses --break filters that do not parse (naming the column), a hold timeout
// that is not positive, and --break with --raw (nothing could decide).
func checkBreaks(breaks []string, timeout time.Duration, raw bool) error {
	if timeout <= 0 {
		return &codeError{exitUsage, fmt.Sprintf("--hold-timeout %s: want a positive duration such as 30s or 5m", timeout)}
	}
	if len(breaks) > 0 && raw {
		return &codeError{exitUsage, "--break needs the TUI to decide what it holds; --raw cannot (drop one of them)"}
	}
	for _, b := range breaks {
		if strings.TrimSpace(b) == "" {
			return &codeError{exitUsage, "--break '': an empty filter would hold every message; say which, e.g. --break 'method:tools/call tool:delete_*'"}
		}
		if _, err := wirefilter.Parse(b); err != nil {
			return &codeError{exitUsage, fmt.Sprintf("--break %q: %v (example: --break 'method:tools/call tool:delete_*')", b, err)}
		}
	}
	return nil
}

func attachTUI(ctx context.Context, info tap.Info, o attachTUIOptions, logger *slog.Logger, set *settings.Settings) error {
	theme := o.theme
	st, err := tap.Attach(info.Socket)
	if err != nil {
		return &codeError{exitNoServer, fmt.Sprintf("cannot attach to tap %q: %v", info.Name, err)}
	}
	defer st.Close()
	logger.Info("attached", "tap", info.Name, "pid", info.PID, "socket", info.Socket)
	// The breakpoint updates are read with the stream, so asked for before it is read.
	st.Updates()
	if len(o.breaks) > 0 || o.holdTimeout != tap.DefaultHoldTimeout {
		// The tap answers on the updates; the TUI shows what is in force (or the refusal).
		if err := st.Set(session.BreakpointSet{Filters: o.breaks, Timeout: o.holdTimeout}); err != nil {
			return &codeError{exitNoServer, fmt.Sprintf("cannot set breakpoints on tap %q: %v", info.Name, err)}
		}
	}
	events := make(chan mcpclient.Event, 1024)
	uiCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		defer close(events)
		var last uint64
		for {
			ev, err := st.Next()
			if err != nil {
				var de *tap.DroppedError
				if errors.As(err, &de) {
					logger.Warn("dropped by the tap", "reason", de.Reason)
					note := mcpclient.Event{Seq: last + 1, Time: time.Now(), Dir: mcpclient.Lifecycle, Kind: mcpclient.KindLifecycle,
						Life: &mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: "this viewer was " + de.Error() + " (the tap goes on)"}}
					select {
					case events <- note:
					case <-uiCtx.Done():
					}
				} else if !errors.Is(err, io.EOF) && uiCtx.Err() == nil {
					logger.Warn("attach stream ended", "err", err)
				}
				return
			}
			last = ev.Seq
			select {
			case events <- ev:
			case <-uiCtx.Done():
				return
			}
		}
	}()
	title := "attach " + info.Title()
	_, err = ui.Run(ctx, withSettings(ui.Options{Events: events, Title: title, Argv: st.Header.Argv, Theme: theme, ThemeDir: userThemeDir(), Logger: logger, HistoryDir: usableStateDir(),
		Breakpoints: st}, set))
	cancel()
	st.Close()
	if err != nil && !errors.Is(err, context.Canceled) {
		return &codeError{1, err.Error()}
	}
	return nil
}

// attachRaw copies the tap's trace lines to w until the session ends or ctx is done.
func attachRaw(ctx context.Context, info tap.Info, w, stderr io.Writer) error {
	st, err := tap.Attach(info.Socket)
	if err != nil {
		return &codeError{exitNoServer, fmt.Sprintf("cannot attach to tap %q: %v", info.Name, err)}
	}
	defer st.Close()
	st.OnNote = func(reason string) { fmt.Fprintf(stderr, "mcp-inspect attach: %s\n", stderrSafe(stderr)(reason)) }
	go func() {
		<-ctx.Done()
		st.Close()
	}()
	if _, err := w.Write(st.HeaderLine); err != nil {
		return nil
	}
	for {
		line, err := st.NextLine()
		if err != nil {
			var de *tap.DroppedError
			if errors.As(err, &de) {
				return &codeError{1, de.Error()}
			}
			return nil
		}
		if _, err := w.Write(line); err != nil {
			return nil
		}
	}
}
