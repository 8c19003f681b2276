package cmd

import (
	"context"
	"errors"
	"fmt"
	"os/signal"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
	"github.com/mcp-inspect/mcp-inspect/ui"
)

// keptSessionsDir is where the automatic recordings are kept (as recordFlags writes them).
func keptSessionsDir() string { return filepath.Join(stateDir(), "sessions") }

// keptSessionRows are the kept sessions, newest first, as the picker shows them: each read
// within trace.SummaryBudget. A file that is not a readable trace is left out.
func keptSessionRows() ([]ui.SessionRow, error) {
	paths, err := trace.ListSessions(keptSessionsDir())
	if err != nil {
		return nil, err
	}
	rows := make([]ui.SessionRow, 0, len(paths))
	for _, p := range paths {
		s, err := trace.Summarize(p, 0)
		if err != nil {
			continue
		}
		server := s.Header.URL
		if server == "" {
			server = lineQuoting().Join(s.Header.Argv)
		}
		rows = append(rows, ui.SessionRow{Path: p, Server: server, Start: s.Header.Start, Duration: s.Duration,
			Size: s.Size, Calls: s.Calls, Violations: s.Violations, Partial: s.Partial})
	}
	return rows, nil
}

// pick chooses the kept session to open without a TRACE: the newest with --last; else the
// picker in a terminal, or the list on stdout without one ("": nothing to open).
func (o *openFlags) pick(cmd *cobra.Command) (string, error) {
	noTerminal := needTerminal("") != nil
	if o.last || noTerminal {
		rows, err := keptSessionRows()
		if err != nil {
			return "", &codeError{exitBadTrace, "cannot read the kept sessions: " + err.Error()}
		}
		if o.last {
			if len(rows) == 0 {
				return "", &codeError{exitBadTrace, "open --last: no kept session in " + keptSessionsDir()}
			}
			return rows[0].Path, nil
		}
		out := cmd.OutOrStdout()
		for _, r := range rows {
			fmt.Fprintf(out, "%s\t%s\n", r.Path, r.Line())
		}
		if len(rows) == 0 {
			fmt.Fprintf(cmd.ErrOrStderr(), "mcp-inspect: no kept session in %s\n", keptSessionsDir())
		}
		return "", nil
	}
	logger, closeLog := openLog(o.logFile, o.debug)
	defer closeLog()
	ctx, stop := signal.NotifyContext(cmd.Context(), platform.StopSignals()...)
	defer stop()
	events := make(chan mcpclient.Event)
	close(events) // nothing behind the picker
	res, err := ui.Run(ctx, withSettings(ui.Options{Events: events, Title: "kept sessions in " + keptSessionsDir(), Theme: o.theme, ThemeDir: userThemeDir(), Logger: logger,
		FromTrace: true, PickSession: true, ListSessions: keptSessionRows}, settingsOf(cmd)))
	if err != nil && !errors.Is(err, context.Canceled) {
		return "", &codeError{1, err.Error()}
	}
	return res.Open, nil
}
