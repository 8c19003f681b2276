package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/findings"
	"github.com/mcp-inspect/mcp-inspect/internal/logfile"
	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// Exit codes of the headless commands, beyond exitOK, exitUsage and exitNoServer (root.go).
const (
	// exitToolError: the tool ran and returned isError (call), or some calls did (bench).
	exitToolError = 1
	// exitProtocol: a JSON-RPC error response, or a result that does not decode.
	exitProtocol = 4
	// exitTimeout: no response within --timeout.
	exitTimeout = 5
	// exitInterrupted: SIGINT or SIGTERM ended the run (128 + SIGINT, as shells report it).
	exitInterrupted = 130
)

// exitCodesHelp documents the exit codes in every headless command's --help.
const exitCodesHelp = `
Exit codes:
  0  ok
  1  the tool returned a result with isError: true
  2  usage: bad flags or arguments, unreadable --config
  3  the server failed to start, or exited or closed its stdout before answering;
     a remote server could not be reached, or its session expired
  4  protocol error: a JSON-RPC error response, or a result that does not decode, or
     a server framed otherwise than --framing says (Content-Length vs newline JSON);
     an HTTP status the client cannot use (401/403 included), or a failed OAuth authorization;
     with --strict, a finding that breaks a MUST (structuredContent against the outputSchema,
     a schema whose root is not an object)
  5  timeout: no response within --timeout
  130 interrupted (SIGINT/SIGTERM) before the result was known; one during the server's
      shutdown cuts the shutdown short and the result's own code stands

Output: human-readable by default. --json prints one JSON document on stdout and nothing
else: {"method", "server", "result" (the MCP result as received), "error", "warnings",
"findings" (the advisories among the warnings, by code), "modelText" (tools and prompts: the
text written for a model, in full, with its length and steering marks), "shutdown" (when
SIGTERM or SIGKILL had to end the server), "timing" (milliseconds), "exitCode"}. The server's stderr goes to stderr unless --quiet.

Server requests: nobody is there to answer them, so sampling and elicitation are not
advertised, and a server that asks anyway gets -32601 (and a warning). With --root PATH the
roots capability is advertised and roots/list is answered with the given roots.`

// headlessFlags are the flags of every headless command: the session flags, --config and
// --server, --json and --quiet.
type headlessFlags struct {
	session sessionFlags
	src     serverSource
	json    bool
	quiet   bool
	// reinit: when the server drops the session, initialize a new one and send the
	// command's requests again, once.
	reinit bool
}

func (h *headlessFlags) register(cmd *cobra.Command) {
	h.session.register(cmd, forHeadless)
	h.src.register(cmd.Flags())
	cmd.Flags().BoolVar(&h.json, "json", false, "print one JSON document on stdout (the MCP result as received, plus timing) and nothing else")
	cmd.Flags().BoolVarP(&h.quiet, "quiet", "q", false, "do not copy the server's stderr, log messages and warnings to stderr")
	cmd.Flags().BoolVar(&h.reinit, "reinit", false, "a remote server that drops the session (404, or a 400/401/200 that says so): initialize a new session and send the requests again, once")
	_ = cmd.Flags().MarkHidden("theme")
}

// headlessCommands are the commands for scripts and CI, plus servers, bench and man.
func headlessCommands() []*cobra.Command {
	var cmds []*cobra.Command
	for _, k := range listKinds() {
		cmds = append(cmds, newListCmd(k))
	}
	return append(cmds,
		newCallCmd(), newReadCmd(), newPromptCmd(), newCompleteCmd(), newPingCmd(), newDiscoverCmd(),
		newServersCmd(), newBenchCmd(), newManCmd(), newCheckCmd(),
	)
}

// headlessUsage is a headless command's help: its cobra Use, Short, Long (the exit codes
// are added) and Example.
type headlessUsage struct {
	use, short, long, example string
}

// headlessCommand is the cobra frame every headless command shares: its help, the session
// flags, and the split of its own nOwn positional arguments (what names them in the usage
// error) from the server's COMMAND [ARGS...]. A bad split exits 2 before anything starts.
func headlessCommand(flags *headlessFlags, u headlessUsage, nOwn int, what string, run func(cmd *cobra.Command, own, argv []string) error) *cobra.Command {
	c := &cobra.Command{
		Use:           u.use,
		Short:         u.short,
		Long:          u.long + exitCodesHelp,
		Example:       u.example,
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			own, argv, err := splitArgs(cmd, args, nOwn, what)
			if err != nil {
				return &codeError{exitUsage, err.Error()}
			}
			return run(cmd, own, argv)
		},
	}
	flags.register(c)
	return c
}

// splitArgs separates a command's own positional arguments (the first own of them) from the
// server's COMMAND [ARGS...]. With "--" the split is exactly there; without it the first own
// arguments are the command's.
func splitArgs(cmd *cobra.Command, args []string, own int, what string) ([]string, []string, error) {
	if dash := cmd.ArgsLenAtDash(); dash >= 0 {
		if dash != own {
			return nil, nil, fmt.Errorf("%s: want %d argument(s) before --, got %d: %q", cmd.Name(), own, dash, args[:dash])
		}
		return args[:dash], args[dash:], nil
	}
	if len(args) < own {
		return nil, nil, fmt.Errorf("%s needs %s", cmd.Name(), what)
	}
	return args[:own], args[own:], nil
}

// headless is one run of a headless command: it owns the output streams, the session and
// the document printed with --json.
type headless struct {
	flags  *headlessFlags
	stdout io.Writer
	stderr io.Writer
	logger *slog.Logger

	doc      jsonDoc
	start    time.Time
	client   *mcpclient.Client
	init     *mcpclient.InitializeResult
	drain    *drain
	warnMu   sync.Mutex
	warnings []string
	// shutdownNoted is set once noteShutdown ran.
	shutdownNoted bool
	// signalled is set when a stop signal (SIGINT, SIGTERM, SIGHUP) came: the requests it
	// cancelled are the user's doing, and so are responses that come after their cancel.
	signalled atomic.Bool
	// tools is the tool list once a call listed it (for -a or the outputSchema check).
	tools []mcpclient.Tool
	// configure, when set, adjusts the session's client config before the server starts
	// (bench call: mcpclient.Config.CallerReads).
	configure func(*mcpclient.Config)
}

// jsonDoc is what --json prints.
type jsonDoc struct {
	Method   string          `json:"method,omitempty"`
	Server   *jsonServer     `json:"server,omitempty"`
	Result   json.RawMessage `json:"result,omitempty"`
	Error    *jsonError      `json:"error,omitempty"`
	Warnings []string        `json:"warnings"`
	Pages    *jsonPages      `json:"pages,omitempty"`
	// Findings are the advisories among the warnings, by code (internal/findings).
	Findings []findings.Finding `json:"findings,omitempty"`
	// ModelText is the text the server wrote for a model, in full with its length and lint
	// (tools: descriptions and parameter descriptions; prompts; instructions).
	ModelText []findings.ModelText `json:"modelText,omitempty"`
	Bench     *benchStats          `json:"bench,omitempty"`
	// OAuth are the steps of an authorization the run went through ("OAuth step N: …",
	// oauth.StepNote), in order.
	OAuth []string `json:"oauth,omitempty"`
	// Shutdown is set when the server did not exit on closed stdin (see jsonShutdown).
	Shutdown *jsonShutdown `json:"shutdown,omitempty"`
	Timing   jsonTiming    `json:"timing"`
	ExitCode int           `json:"exitCode"`
}

type jsonServer struct {
	Name            string `json:"name"`
	Version         string `json:"version"`
	ProtocolVersion string `json:"protocolVersion"`
	// RequestedProtocolVersion is the version initialize asked for, when the server
	// negotiated another (absent when they agree).
	RequestedProtocolVersion string `json:"requestedProtocolVersion,omitempty"`
	Era                      string `json:"era"`
	PID                      int    `json:"pid"`
}

// jsonError says why a run failed. Kind is one of spawn, exited, rpc, timeout, protocol,
// input, interrupted, and for remote servers connect (no answer), http (an HTTP status;
// Code holds it), unauthorized (401 or 403), session-expired, redirect (a redirect not
// followed: a 301/302/303 to a POST, a loop; Code holds its status).
type jsonError struct {
	Kind           string          `json:"kind"`
	Message        string          `json:"message"`
	Code           *int64          `json:"code,omitempty"`
	Data           json.RawMessage `json:"data,omitempty"`
	ServerExitCode *int            `json:"serverExitCode,omitempty"`
	Signal         string          `json:"signal,omitempty"`
	Stderr         []string        `json:"stderr,omitempty"`
}

// jsonTiming is in milliseconds: connect is spawn to the end of the handshake, request the
// command's own requests (every page of a list), total the whole run up to the server's exit.
type jsonTiming struct {
	ConnectMs float64 `json:"connectMs"`
	RequestMs float64 `json:"requestMs"`
	TotalMs   float64 `json:"totalMs"`
}

func ms(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}

// outcome is what a headless action produced: the raw result, how to show it to a person,
// and the exit code it implies (0, or exitToolError for isError).
type outcome struct {
	result json.RawMessage
	human  func(w io.Writer, safe func(string) string)
	code   int
	// partial: show human even when the action also returns an error (bench's numbers so far).
	partial bool
}

// action runs a command's requests on a connected session.
type action func(ctx context.Context, h *headless) (*outcome, error)

// newHeadless prepares a run of cmd.
func newHeadless(cmd *cobra.Command, flags *headlessFlags, method string) *headless {
	return &headless{flags: flags, stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr(), doc: jsonDoc{Method: method, Warnings: []string{}}}
}

// warn records a warning for the document and, unless --quiet, writes it to stderr.
func (h *headless) warn(format string, args ...any) {
	msg := logfile.Truncate(fmt.Sprintf(format, args...), maxMessage)
	h.warnMu.Lock()
	defer h.warnMu.Unlock()
	if len(h.warnings) == maxWarnings {
		msg = "more warnings follow; see the log file"
	} else if len(h.warnings) > maxWarnings {
		return
	}
	h.warnings = append(h.warnings, msg)
	if !h.flags.quiet {
		fmt.Fprintln(h.stderr, "mcp-inspect: warning: "+stderrSafe(h.stderr)(msg))
	}
	if h.logger != nil {
		h.logger.Warn(msg)
	}
}

// maxWarnings caps the warnings kept for the document.
const maxWarnings = 50

// run resolves the server, starts it, connects, runs act and prints the outcome. It returns
// a *codeError for every exit code but 0.
func (h *headless) run(ctx context.Context, argv []string, act action) error {
	h.start = time.Now()
	cfg, _, err := h.flags.src.resolve(&h.flags.session, argv, h.noteWriter())
	if err != nil {
		return &codeError{exitUsage, err.Error()}
	}
	logger, closeLog := openLog(h.flags.session.logFile, h.flags.session.debug)
	defer closeLog()
	h.logger = logger
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, platform.StopSignals()...) // a closed terminal stops the run in order too
	defer signal.Stop(sigs)
	go func() {
		select {
		case s := <-sigs:
			h.signalled.Store(true)
			cancel(&interruptError{sig: s})
		case <-ctx.Done():
		}
	}()
	err = h.session(ctx, cfg, act)
	return h.finish(h.interrupted(ctx, err))
}

// interrupted turns the context.Canceled of a run a signal stopped into an *interruptError
// that says what happened, not "context canceled"; other errors pass through.
func (h *headless) interrupted(ctx context.Context, err error) error {
	var ie *interruptError
	if err != nil && errors.Is(err, context.Canceled) && errors.As(context.Cause(ctx), &ie) {
		ne := &interruptError{sig: ie.sig, method: h.doc.Method, connected: h.init != nil}
		errors.As(err, &ne.task)
		return ne
	}
	return err
}

// sayNow writes a failed run's message on stderr at once, before the server's shutdown
// (which a lingering server stretches), and returns the exit code alone for Execute. With
// --json nothing is written early: the document waits for the shutdown it reports.
func (h *headless) sayNow(ctx context.Context, err error) error {
	var ce *codeError
	if !errors.As(h.finish(h.interrupted(ctx, err)), &ce) {
		return err
	}
	if ce.msg != "" {
		fmt.Fprintln(h.stderr, "mcp-inspect: "+logfile.Truncate(ce.msg, maxMessage))
	}
	return &codeError{ce.code, ""}
}

// interruptError is a headless run stopped by SIGINT, SIGTERM or SIGHUP; it is a context.Canceled
// for classify (kind "interrupted", exit 130).
type interruptError struct {
	sig       os.Signal
	method    string // the command's request, e.g. tools/call
	connected bool   // the handshake had finished
	// task is the modern task the call was following, nil when none: it was sent
	// tasks/cancel before the run ended.
	task *mcpclient.TaskStoppedError
}

// signalName is the usual name of sig: SIGINT, SIGTERM, SIGHUP (CTRL_C, CTRL_CLOSE on
// Windows).
func signalName(sig os.Signal) string { return platform.SignalName(sig) }

func (e *interruptError) Error() string {
	name := signalName(e.sig)
	if !e.connected {
		return "interrupted by " + name + " before the server finished the handshake"
	}
	if t := e.task; t != nil {
		s := "interrupted by " + name + " before the " + e.method + " result arrived: task " + t.TaskID + " was still " + t.Status
		if t.CancelErr != nil {
			return s + "; tasks/cancel failed: " + t.CancelErr.Error()
		}
		return s + "; tasks/cancel sent"
	}
	return "interrupted by " + name + " before the " + e.method + " response arrived"
}

func (e *interruptError) Unwrap() error { return context.Canceled }

// noteWriter is where notes about a --config entry go: stderr, unless --quiet.
func (h *headless) noteWriter() io.Writer {
	if h.flags.quiet {
		return io.Discard
	}
	return h.stderr
}

// session starts the server, connects, runs act and shuts the server down.
func (h *headless) session(ctx context.Context, cfg mcpclient.Config, act action) (err error) {
	h.answerServerRequests(&cfg)
	if h.logger == nil || !h.logger.Enabled(ctx, slog.LevelDebug) {
		cfg.EventFilter = drainWants // at debug level the drain logs every event
	}
	if h.configure != nil {
		h.configure(&cfg)
	}
	h.flags.session.rec.noSave = true // a headless run is kept only with --record
	rec, err := h.flags.session.rec.start(&cfg, h.logger, h.noteWriter())
	if err != nil {
		return usageErr("%v", err)
	}
	defer rec.close(h.logger, h.noteWriter()) // runs after client.Close below: every event is in
	h.logger = rec.logger(h.logger)           // the server's words reach the log only scrubbed
	h.logger.Info("headless: starting server", "method", h.doc.Method, "argv", rec.argv(&cfg), "env_keys", envKeys(cfg.Env), "era", cfg.Era)
	client, err := mcpclient.Start(cfg)
	if err != nil {
		return err
	}
	h.client = client
	go hastenOnInterrupt(ctx, client)
	h.drain = startDrain(client, h)
	defer func() {
		if err != nil && !h.flags.json {
			err = h.sayNow(ctx, err) // before the shutdown, not after it
		}
		client.Close()
		h.drain.wait()
		h.noteShutdown()
	}()
	init, err := client.Connect(ctx)
	h.doc.Timing.ConnectMs = ms(time.Since(h.start))
	if err != nil {
		return err
	}
	h.connected(init, client.PID())
	t0 := time.Now()
	out, err := h.act(ctx, act)
	h.doc.Timing.RequestMs = ms(time.Since(t0))
	if out != nil {
		h.doc.Result = out.result
		h.doc.ExitCode = out.code
	}
	if err == nil {
		err = h.strictFindings()
	}
	if err != nil {
		if out != nil && out.partial && out.human != nil && !h.flags.json {
			out.human(h.stdout, terminalSafe(h.stdout))
		}
		return err
	}
	// The human result is known now: show it before the server's shutdown, which a server
	// that ignores its stdin's end can stretch to 2×ShutdownGrace. --json waits, as its
	// document reports the shutdown and the total time.
	if !h.flags.json && out != nil && out.human != nil {
		out.human(h.stdout, terminalSafe(h.stdout))
	}
	client.Close()
	h.drain.wait()
	h.noteShutdown()
	h.noteInterruptedClose(ctx)
	h.doc.Timing.TotalMs = ms(time.Since(h.start))
	h.doc.Warnings = h.takeWarnings()
	if h.flags.json {
		if err := writeDoc(h.stdout, &h.doc); err != nil {
			return err
		}
	}
	if out != nil && out.code != 0 {
		return &codeError{out.code, ""}
	}
	return nil
}

// answerServerRequests sets cfg up for server requests: nobody is there to ask, so the one
// policy (session.Decide) answers what it can at once (roots/list, when --root or the
// settings file gave roots: then roots are advertised without listChanged, the list never
// changes) and every other request -32601.
func (h *headless) answerServerRequests(cfg *mcpclient.Config) {
	var roots []mcpclient.Root
	features := session.ClientFeatures{NoSampling: true, NoElicitation: true, NoRoots: true, FixedRoots: true}
	if paths := h.flags.session.roots; len(paths) > 0 {
		var problems []string
		roots, problems = session.RootsFromPaths(paths)
		for _, p := range problems {
			h.warn("%s: %s", rootsSource(&h.flags.session), p)
		}
		features.NoRoots = false
		cfg.Capabilities = features.Capabilities()
	}
	cfg.OnServerRequest = func(r *mcpclient.ServerRequest) { h.serverRequest(r, features, roots) }
}

// connected records the handshake's answer in the document and says its warnings, its
// notes and (unless a listing will show them in full) the server's instructions.
func (h *headless) connected(init *mcpclient.InitializeResult, pid int) {
	h.init = init
	h.doc.Server = &jsonServer{Name: init.ServerInfo.Name, Version: init.ServerInfo.Version, ProtocolVersion: init.ProtocolVersion, Era: string(init.Era), PID: pid}
	if init.Requested != init.ProtocolVersion {
		h.doc.Server.RequestedProtocolVersion = init.Requested
	}
	for _, w := range init.Warnings {
		h.warn("%s", w)
	}
	for _, n := range init.Notes {
		if !h.flags.quiet {
			fmt.Fprintln(h.stderr, "mcp-inspect: note: "+stderrSafe(h.stderr)(n))
		}
	}
	if m := h.doc.Method; m != "tools/list" && m != "prompts/list" {
		h.instructionsText(false) // the listings show them in full
	}
}

func (h *headless) takeWarnings() []string {
	h.warnMu.Lock()
	defer h.warnMu.Unlock()
	return append([]string{}, h.warnings...)
}

// finish turns an error of the session into its exit code, the JSON document and a message
// on stderr. A nil error, or one that already carries its code, passes through.
func (h *headless) finish(err error) error {
	if err == nil {
		return nil
	}
	var ce *codeError
	if errors.As(err, &ce) {
		return err
	}
	code, je := classify(err)
	h.doc.Error = je
	h.doc.ExitCode = code
	if h.doc.Timing.TotalMs == 0 {
		h.doc.Timing.TotalMs = ms(time.Since(h.start))
	}
	h.doc.Warnings = h.takeWarnings()
	if h.flags.json {
		_ = writeDoc(h.stdout, &h.doc)
	}
	if h.logger != nil {
		h.logger.Error("headless: failed", "method", h.doc.Method, "err", err, "exit", code)
	}
	return &codeError{code, stderrSafe(h.stderr)(err.Error())}
}

// classify maps an error of mcpclient to an exit code and its JSON form.
func classify(err error) (int, *jsonError) {
	je := &jsonError{Message: err.Error()}
	var spawn *mcpclient.SpawnError
	var exit *mcpclient.ExitError
	var rpc *mcpclient.RPCError
	var timeout *mcpclient.TimeoutError
	var input *mcpclient.InputError
	var conn *mcpclient.ConnectError
	var status *mcpclient.HTTPStatusError
	var expired *mcpclient.SessionExpiredError
	var authFail mcpclient.AuthFailure
	var framing *mcpclient.FramingError
	var mismatch *mcpclient.IDTypeMismatchError
	var redirect *mcpclient.RedirectError
	switch {
	case errors.As(err, &redirect):
		// Like any HTTP status the transport cannot use: the server answered.
		je.Kind = "redirect"
		c := int64(redirect.StatusCode)
		je.Code = &c
		return exitProtocol, je
	case errors.As(err, &framing):
		je.Kind = "framing"
		return exitProtocol, je
	case errors.As(err, &mismatch):
		je.Kind = "protocol"
		return exitProtocol, je
	case errors.As(err, &authFail):
		je.Kind = "unauthorized"
		return exitProtocol, je
	case errors.As(err, &conn):
		je.Kind = "connect"
		return exitNoServer, je
	case errors.As(err, &expired):
		je.Kind = "session-expired"
		return exitNoServer, je
	case errors.As(err, &status):
		je.Kind = "http"
		if status.Unauthorized() {
			je.Kind = "unauthorized"
		}
		c := int64(status.StatusCode)
		je.Code = &c
		return exitProtocol, je
	case errors.As(err, &spawn):
		je.Kind = "spawn"
		return exitNoServer, je
	case errors.As(err, &exit):
		je.Kind = "exited"
		if !exit.StdoutClosed && exit.Signal == "" {
			c := exit.ExitCode
			je.ServerExitCode = &c
		}
		je.Signal = exit.Signal
		je.Stderr = exit.Stderr
		return exitNoServer, je
	case errors.As(err, &timeout):
		je.Kind = "timeout"
		return exitTimeout, je
	case errors.As(err, &rpc):
		je.Kind = "rpc"
		c := rpc.Code
		je.Code = &c
		je.Data = rpc.Data
		return exitProtocol, je
	case errors.As(err, &input):
		je.Kind = "input"
		return exitProtocol, je
	case errors.Is(err, context.Canceled):
		je.Kind = "interrupted"
		return exitInterrupted, je
	case errors.Is(err, errUsage):
		je.Kind = "usage"
		return exitUsage, je
	}
	je.Kind = "protocol"
	return exitProtocol, je
}

// errUsage marks a usage problem found after the server started (an unknown argument for
// the tool's schema, ping in the modern era).
var errUsage = errors.New("usage")

// usageErr wraps a message as a usage error for classify.
func usageErr(format string, args ...any) error {
	return fmt.Errorf("%s%w", fmt.Sprintf(format, args...), errSilent{errUsage})
}

// errSilent wraps an error so that it is found by errors.Is but adds nothing to the message.
type errSilent struct{ error }

func (errSilent) Error() string   { return "" }
func (e errSilent) Unwrap() error { return e.error }

// logLine renders a notifications/message as "server log [level] logger: data".
func logLine(params json.RawMessage) string {
	var p struct {
		Level  string          `json:"level"`
		Logger string          `json:"logger"`
		Data   json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(params, &p)
	data := string(p.Data)
	var s string
	if json.Unmarshal(p.Data, &s) == nil {
		data = s
	}
	who := "server log [" + p.Level + "]"
	if p.Logger != "" {
		who += " " + p.Logger
	}
	return who + ": " + data
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// terminalSafe returns how to print a server's text on w: escaped (case B23) when w is a
// terminal *os.File, unchanged otherwise. The writers Execute gives commands are termout
// writers, which escape on a terminal themselves (issue 15), so this is the identity there;
// it stays for a command run with a bare *os.File.
func terminalSafe(w io.Writer) func(string) string {
	if isTerminal(w) {
		return func(s string) string { return sanitize.String(s, sanitize.Text) }
	}
	return func(s string) string { return s }
}

// stderrSafe is terminalSafe for the stderr stream.
func stderrSafe(w io.Writer) func(string) string { return terminalSafe(w) }

// serverRequest answers a server request of a headless run by the one policy
// (ClientFeatures.Decide): roots/list with the configured roots, anything else -32601, since
// there is nobody to ask.
func (h *headless) serverRequest(r *mcpclient.ServerRequest, f session.ClientFeatures, roots []mcpclient.Root) {
	d := f.Decide(r.Method, r.Params, roots, roots != nil)
	if d.Err == nil && !d.Ask {
		h.logger.Info("headless: answering roots/list", "roots", len(d.Roots))
		if err := r.Respond(mcpclient.RootsResult(d.Roots)); err != nil {
			h.warn("the server asked for roots/list; the answer could not be sent: %v", err)
		}
		return
	}
	e := d.Err
	if e == nil {
		e = &mcpclient.RPCError{Code: -32601, Message: "mcp-inspect headless mode does not handle " + r.Method}
	}
	if err := r.Fail(e); err != nil {
		h.warn("the server asked for %s; headless commands answer only roots/list (with --root); the %d could not be sent: %v", r.Method, e.Code, err)
		return
	}
	h.warn("the server asked for %s; headless commands answer only roots/list (with --root); sent %d", r.Method, e.Code)
}
