package cmd

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/listenguard"
	"github.com/mcp-inspect/mcp-inspect/internal/platform"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

func newMockCmd() *cobra.Command {
	var logFile, listen, framing string
	var debug, noToken bool
	c := &cobra.Command{
		Use:   "mock TRACE",
		Short: "Be the server a trace recorded, on stdio",
		Long: `mock is a stdio MCP server that answers as the recorded server did. A request is
matched on its method and params, ignoring _meta and ids (a tool call on its name and
arguments); the response carries the caller's id. What the server sent during the request
(progress, with the caller's token, log messages) comes before the response, the
notifications that followed it after. Notifications get no reply. A request the recording
cannot answer gets a JSON-RPC error naming the closest recorded request. When the recorded
server died during a request, the mock dies the same way. A server recorded speaking
Content-Length framing (--framing content-length) is mocked speaking it too.

Any MCP client can connect, mcp-inspect included:  mcp-inspect -- mcp-inspect mock trace.jsonl

With --listen 127.0.0.1:PORT the mock is a Streamable HTTP server on that loopback address
instead (any path): each POSTed request is answered as the recorded server answered that
exchange, with an event stream or one JSON body; notifications get 202; a session id is
issued when the recorded server issued one (DELETE ends it); GET opens a stream only when
the recording had one, else 405. Only loopback addresses are accepted, and only requests
whose Host (and Origin, when sent) is that address, localhost, 127.0.0.1 or [::1] on its
port: others get 403 (DNS rebinding protection). Each run makes a token, printed with the
URL on stderr (http://127.0.0.1:PORT/mcp?token=TOKEN) and kept in mocks/NAME/url in the
state directory (mode 0600); a request must carry it as ?token=TOKEN, as the header
Mcp-Inspect-Token: TOKEN or as Authorization: Bearer TOKEN, else it gets 401. --no-token
serves without one.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			logger, closeLog := openLog(logFile, debug)
			defer closeLog()
			tr, err := openTraceWarn(args[0], cmd.ErrOrStderr(), "mcp-inspect mock", logger)
			if err != nil {
				return err
			}
			defer tr.Close()
			m, err := trace.NewMock(tr)
			if err != nil {
				return &codeError{exitBadTrace, err.Error()}
			}
			switch framing {
			case "":
			case string(mcpclient.FramingNewline), string(mcpclient.FramingContentLength):
				m.ContentLength = framing == string(mcpclient.FramingContentLength)
			default:
				return &codeError{exitUsage, fmt.Sprintf("--framing %q: want newline or content-length", framing)}
			}
			logger.Info("mock serving", "trace", args[0], "requests", m.Requests())
			ctx, stop := signal.NotifyContext(cmd.Context(), platform.StopSignals()...)
			defer stop()
			if noToken && listen == "" {
				return &codeError{exitUsage, "--no-token goes with --listen"}
			}
			if listen != "" {
				err = serveMockHTTP(ctx, m, mockListen{addr: listen, noToken: noToken, name: mockName(args[0])}, logger)
			} else {
				err = m.Serve(ctx, os.Stdin, os.Stdout)
			}
			var ex *trace.MockExit
			var ce *codeError
			switch {
			case errors.As(err, &ce):
				return ce
			case errors.As(err, &ex):
				logger.Info("mock ends as the recorded server did", "how", ex.Text)
				tr.Close()
				closeLog()
				code := ex.Code
				if ex.Signal != "" {
					// Die by the same signal where signals exist; else (Windows) exit as
					// a shell reports that death: 128+n.
					platform.RaiseSignal(ex.Signal)
					code = platform.SignalExitCodeOf(ex.Signal)
				}
				return &codeError{code, ""}
			case err == nil, errors.Is(err, context.Canceled):
				return nil
			}
			return &codeError{1, "mock: " + err.Error()}
		},
	}
	c.Flags().StringVar(&logFile, "log-file", "", "write the inspector's own log to `FILE` (default: the user state directory)")
	c.Flags().BoolVar(&debug, "debug", false, "log at debug level")
	c.Flags().StringVar(&framing, "framing", "", "stdio framing the mock writes: newline or content-length (default: as the recorded server wrote; it reads either)")
	c.Flags().StringVar(&listen, "listen", "", "serve over Streamable HTTP on the loopback `ADDR` (127.0.0.1:PORT; port 0 picks one)")
	c.Flags().BoolVar(&noToken, "no-token", false, "with --listen: serve without the per-run token (any program on this machine may connect; Host and Origin are still checked)")
	return c
}

// loopbackListen listens on addr, which must name a loopback IP (127.0.0.0/8, ::1) or
// localhost: the mock and the tap serve recorded or live sessions with no authentication.
func loopbackListen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, &codeError{exitUsage, fmt.Sprintf("--listen %s: %v (want 127.0.0.1:PORT)", addr, err)}
	}
	ip := net.ParseIP(host)
	if host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, &codeError{exitUsage, fmt.Sprintf("--listen %s: not a loopback address; only 127.0.0.1, ::1 or localhost are served (mcp-inspect serves this machine only)", addr)}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, &codeError{1, "--listen: " + err.Error()}
	}
	return ln, nil
}

// mockListen is how mock --listen serves: the address, whether without a token, and the
// name of its session directory (mocks/NAME, where the URL with the token is kept).
type mockListen struct {
	addr    string
	noToken bool
	name    string
}

// mockName names the session directory of a mock of the trace at path: its file name
// without .jsonl.
func mockName(path string) string {
	if path == "-" {
		return "stdin"
	}
	return safeFileName(strings.TrimSuffix(filepath.Base(path), ".jsonl"))
}

// serveMockHTTP serves m over Streamable HTTP on l.addr until ctx ends or the recorded
// server dies during a request (a *trace.MockExit). Requests pass the listener's guard
// first (Host, Origin, the per-run token).
func serveMockHTTP(ctx context.Context, m *trace.Mock, l mockListen, logger *slog.Logger) error {
	ln, err := loopbackListen(l.addr)
	if err != nil {
		return err
	}
	h := trace.NewHTTPMock(m)
	base := "http://" + ln.Addr().String() + "/mcp"
	acc, err := newListenAccess("mcp-inspect mock", ln, l.noToken, filepath.Join(stateDir(), "mocks", l.name), base, logger)
	if err != nil {
		ln.Close()
		return &codeError{1, "--listen: " + err.Error()}
	}
	defer acc.end()
	srv := &http.Server{Handler: acc.guard.Handler(h, func(r *http.Request, ref *listenguard.Refusal) {
		logger.Info("mock refused a request", "method", r.Method, "path", r.URL.Path, "status", ref.Status, "why", ref.Reason)
	}), ReadHeaderTimeout: 10 * time.Second}
	acc.announce(humanStderr(), "mcp-inspect mock: ", base)
	logger.Info("mock listening", "addr", ln.Addr().String(), "sessionful", h.Sessionful(), "token", acc.guard.TokenRequired(), "url_file", acc.file)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	var result error
	select {
	case <-ctx.Done():
		result = ctx.Err()
	case ex := <-h.Exit():
		result = ex
	case err := <-done:
		return err
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	return result
}
