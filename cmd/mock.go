package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/recorder"
)

func newMockCmd() *cobra.Command {
	var logFile string
	var debug bool
	c := &cobra.Command{
		Use:   "mock TRACE",
		Short: "Be the server a trace recorded, on stdio",
		Long: `mock is a stdio MCP server that answers as the recorded server did. A request is
matched on its method and params, ignoring _meta and ids (a tool call on its name and
arguments); the response carries the caller's id. What the server sent during the request
(progress, with the caller's token, log messages) comes before the response, the
notifications that followed it after. Notifications get no reply. A request the recording
cannot answer gets a JSON-RPC error naming the closest recorded request. When the recorded
server died during a request, the mock dies the same way.

Any MCP client can connect, mcp-inspect included:  mcp-inspect -- mcp-inspect mock trace.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			logger, closeLog := openLog(logFile, debug)
			defer closeLog()
			tr, err := openTrace(args[0])
			if err != nil {
				return err
			}
			defer tr.Close()
			for _, w := range tr.Warnings {
				fmt.Fprintf(os.Stderr, "mcp-inspect mock: %s: %s\n", args[0], w)
			}
			m, err := recorder.NewMock(tr)
			if err != nil {
				return &codeError{exitBadTrace, err.Error()}
			}
			logger.Info("mock serving", "trace", args[0], "requests", m.Requests())
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			err = m.Serve(ctx, os.Stdin, os.Stdout)
			var ex *recorder.MockExit
			switch {
			case errors.As(err, &ex):
				logger.Info("mock ends as the recorded server did", "how", ex.Text)
				tr.Close()
				closeLog()
				if sig := signalNamed(ex.Signal); sig != 0 {
					_ = syscall.Kill(os.Getpid(), sig)
				}
				return &codeError{ex.Code, ""}
			case err == nil, errors.Is(err, context.Canceled):
				return nil
			}
			return &codeError{1, "mock: " + err.Error()}
		},
	}
	c.Flags().StringVar(&logFile, "log-file", "", "write the inspector's own log to `FILE` (default: the user state directory)")
	c.Flags().BoolVar(&debug, "debug", false, "log at debug level")
	return c
}

// signalNamed maps mcpclient's signal names ("KILL", "TERM") back to signals.
func signalNamed(name string) syscall.Signal {
	switch name {
	case "KILL":
		return syscall.SIGKILL
	case "TERM":
		return syscall.SIGTERM
	case "INT":
		return syscall.SIGINT
	case "HUP":
		return syscall.SIGHUP
	case "SEGV":
		return syscall.SIGSEGV
	case "ABRT":
		return syscall.SIGABRT
	case "PIPE":
		return syscall.SIGPIPE
	case "QUIT":
		return syscall.SIGQUIT
	case "BUS":
		return syscall.SIGBUS
	}
	return 0
}
