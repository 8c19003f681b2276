// Package cmd holds mcp-inspect's command line: one file per subcommand, cobra only here.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/internal/logfile"
	"github.com/mcp-inspect/mcp-inspect/internal/settings"
	"github.com/mcp-inspect/mcp-inspect/internal/shellwords"
	"github.com/mcp-inspect/mcp-inspect/internal/termout"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/tap"
	"github.com/mcp-inspect/mcp-inspect/themes"
	"github.com/mcp-inspect/mcp-inspect/ui"
)

// Exit codes shared by every subcommand.
const (
	exitOK       = 0
	exitUsage    = 2
	exitNoServer = 3
)

// sessionFlags are the flags every command that spawns a server takes.
type sessionFlags struct {
	env     []string
	cwd     string
	timeout time.Duration
	// silence is --silence (mcpclient.Config.Silence; 0 turns the watch off).
	silence time.Duration
	// profileTimeout is where timeout came from when a settings profile gave it ("profile
	// NAME in FILE"), "" otherwise.
	profileTimeout  string
	firstID         int
	protocolVersion string
	era             string
	framing         string
	maxMessage      int
	theme           string
	// themeFrom is what chose theme ("--theme" or MCP_INSPECT_THEME), for errors.
	themeFrom string
	logFile   string
	debug     bool
	strict    bool
	features  session.ClientFeatures
	roots     []string
	rec       recordFlags
	headers   []string
	bearerEnv string
	transport string
	oauth     oauthFlags
	use       flagUse
	// cmd is the command the flags belong to: which were given (Changed), and the
	// settings loaded for it (settingsOf).
	cmd *cobra.Command
}

// flagUse says which client-feature flags a command takes: the TUI answers sampling,
// elicitation and roots through its dialogs; a headless command answers only roots/list (with
// --root); replay answers the server with the recorded client's answers and takes none.
type flagUse int

const (
	forTUI flagUse = iota
	forHeadless
	forReplay
)

func (f *sessionFlags) register(cmd *cobra.Command, use flagUse) {
	f.use, f.cmd = use, cmd
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.env, "env", "e", nil, "set `KEY=VALUE` in the server's environment, over the inherited one (repeatable)")
	fl.StringVar(&f.cwd, "cwd", "", "run the server in `DIR`")
	fl.DurationVar(&f.timeout, "timeout", 60*time.Second, "per-request timeout, reset by progress notifications")
	fl.IntVar(&f.firstID, "first-id", 1, "number requests from `N`, 0 or 1 (some servers drop a request with id 0)")
	fl.StringVar(&f.protocolVersion, "protocol-version", mcpclient.LatestProtocolVersion, "protocol version to request in initialize")
	fl.StringVar(&f.era, "era", string(mcpclient.EraLegacy), "protocol era: legacy (initialize), modern (2026-07-28 server/discover) or auto (probe, fall back to legacy)")
	fl.IntVar(&f.maxMessage, "max-message", mcpclient.DefaultMaxMessage, "longest server message kept whole, in bytes")
	f.registerFraming(cmd, use)
	fl.StringVar(&f.theme, "theme", "", themeUsage())
	fl.StringVar(&f.logFile, "log-file", "", "write the inspector's own log to `FILE` (default: the user state directory)")
	fl.BoolVar(&f.debug, "debug", false, "log at debug level")
	switch use {
	case forTUI:
		fl.StringArrayVar(&f.roots, "root", nil, "answer roots/list with `PATH` (or a file:// URI) at once, without a dialog (repeatable; R edits the roots)")
		fl.BoolVar(&f.features.NoSampling, "no-sampling", false, "do not advertise sampling: sampling/createMessage is answered -32601")
		fl.BoolVar(&f.features.NoElicitation, "no-elicitation", false, "do not advertise elicitation: elicitation/create is answered -32601")
		fl.BoolVar(&f.features.NoElicitationURL, "no-elicitation-url", false, "advertise form-mode elicitation only (URL mode is refused)")
		fl.BoolVar(&f.features.NoRoots, "no-roots", false, "do not advertise roots: roots/list is answered -32601")
	case forHeadless:
		// Nobody is there to answer sampling or elicitation: they are never advertised.
		fl.StringArrayVar(&f.roots, "root", nil, "advertise roots and answer roots/list with `PATH` (or a file:// URI) (repeatable; without it no roots are advertised)")
	}
	fl.BoolVar(&f.features.NoTasks, "no-tasks", false, "modern era: do not declare the io.modelcontextprotocol/tasks extension, so tools/call is never answered with a task")
	fl.StringArrayVarP(&f.headers, "header", "H", nil, "remote server: send the HTTP header `\"Name: value\"` on every request (repeatable); credential headers are redacted in traces")
	fl.StringVar(&f.bearerEnv, "bearer-env", "", "remote server: send `VAR`'s value as Authorization: Bearer (the token stays out of argv and traces)")
	f.oauth.register(fl)
	fl.StringVar(&f.transport, "transport", "auto", "remote server: http (Streamable HTTP), sse (HTTP+SSE, 2024-11-05) or auto (Streamable HTTP, falling back to HTTP+SSE)")
	fl.BoolVar(&f.strict, "strict", false, "stop at the server's first protocol violation and say which rule it broke (default: keep going and count)")
	f.rec.register(fl)
}

func (f *sessionFlags) config(argv []string) (mcpclient.Config, error) {
	if err := f.rec.check(); err != nil {
		return mcpclient.Config{}, err
	}
	for _, kv := range f.env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return mcpclient.Config{}, fmt.Errorf("-e %q: want KEY=VALUE", kv)
		}
	}
	if f.cwd != "" {
		if st, err := os.Stat(f.cwd); err != nil || !st.IsDir() {
			return mcpclient.Config{}, fmt.Errorf("--cwd %s is not a directory", sanitize.QuotePath(f.cwd))
		}
	}
	switch {
	case f.timeout <= 0:
		return mcpclient.Config{}, fmt.Errorf("--timeout %s: must be positive", f.timeout)
	case f.firstID != 0 && f.firstID != 1:
		return mcpclient.Config{}, fmt.Errorf("--first-id %d: give 0 or 1", f.firstID)
	case f.maxMessage <= 0:
		return mcpclient.Config{}, fmt.Errorf("--max-message %d: must be a positive number of bytes", f.maxMessage)
	case f.protocolVersion == "":
		return mcpclient.Config{}, fmt.Errorf("--protocol-version: give a revision such as %s", mcpclient.LatestProtocolVersion)
	}
	if f.themeFrom == "" {
		f.themeFrom = "--theme"
	}
	if err := checkTheme(f.theme, f.themeFrom); err != nil {
		return mcpclient.Config{}, err
	}
	era, err := mcpclient.ParseEra(f.era)
	if err != nil {
		return mcpclient.Config{}, fmt.Errorf("--era: %w", err)
	}
	framing, err := mcpclient.ParseFraming(f.framing)
	if err != nil {
		return mcpclient.Config{}, fmt.Errorf("--framing: %w", err)
	}
	if len(argv) == 1 && isServerURL(argv[0]) {
		if framing != mcpclient.FramingNewline {
			return mcpclient.Config{}, fmt.Errorf("--framing is for a stdio server; %q is a URL (HTTP carries one message per body)", argv[0])
		}
		return f.remoteConfig(argv[0], era)
	}
	if len(f.headers) > 0 || f.bearerEnv != "" || f.oauth.given() || (f.transport != "" && f.transport != "auto") {
		return mcpclient.Config{}, fmt.Errorf("-H, --bearer-env, --client-*, --oauth-* and --transport are for a remote server (an http:// or https:// URL); %q is a command", argv[0])
	}
	return mcpclient.Config{
		Command:         argv[0],
		Args:            argv[1:],
		Env:             f.env,
		Dir:             f.cwd,
		ProtocolVersion: f.protocolVersion,
		ClientInfo:      mcpclient.Implementation{Name: "mcp-inspect", Version: Version()},
		Timeout:         f.timeout,
		TimeoutFrom:     f.timeoutFrom(),
		MaxMessage:      f.maxMessage,
		Era:             era,
		Framing:         framing,
		Silence:         f.silenceConfig(),
		Strict:          f.strict,
		FirstIDZero:     f.firstID == 0,
		// Headless commands follow a task to its end (CallTool); --no-tasks applies to them too.
		NoTasksExtension: f.features.NoTasks,
	}, nil
}

// Execute runs the command line and returns the process exit code.
func Execute(args []string) int {
	// Every human-readable line reaches the terminal through termout (issue 15).
	stdout, stderr := termout.New(os.Stdout), termout.New(os.Stderr)
	defer stdout.Flush()
	defer stderr.Flush()
	root := newRootCmd()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ce *codeError
	if errors.As(err, &ce) {
		if ce.msg != "" {
			fmt.Fprintln(stderr, "mcp-inspect: "+logfile.Truncate(ce.msg, maxMessage))
		}
		return ce.code
	}
	fmt.Fprintln(stderr, "mcp-inspect: "+logfile.Truncate(err.Error(), maxMessage))
	return exitUsage
}

// maxMessage bounds an error message (8 KiB): one that quotes a 300 MB argument shows its
// start and its length.
const maxMessage = 8 << 10

// codeError carries an exit code through cobra.
type codeError struct {
	code int
	msg  string
}

func (e *codeError) Error() string { return e.msg }

func newRootCmd() *cobra.Command {
	var flags sessionFlags
	var src serverSource
	root := &cobra.Command{
		Use:   "mcp-inspect [flags] ([--] COMMAND [ARGS...] | URL)",
		Short: "A terminal debugger for MCP servers",
		Long: `mcp-inspect spawns a stdio MCP server and opens a terminal UI on it: the raw byte
stream beside the parsed JSON-RPC messages, the server's tools with forms generated from
their input schemas, and every result. COMMAND and ARGS go to the server exactly as given.

Given an http:// or https:// URL instead, it connects to a remote server over Streamable
HTTP (falling back to the older HTTP+SSE transport; --transport picks one) and shows the
exact HTTP requests, response heads and SSE frames. -H "Name: value" and --bearer-env VAR
add headers; credentials are redacted in traces. Every headless command, bench, replay and
--config entries with a url take a URL the same way.

Try it on the embedded demo server:  mcp-inspect demo`,
		Example: `  mcp-inspect -- node build/index.js
  mcp-inspect --config ~/.cursor/mcp.json --server postgres
  mcp-inspect -e API_KEY=test --cwd ./srv -- python -m my_server --verbose
  mcp-inspect -- npx -y @modelcontextprotocol/server-everything
  mcp-inspect https://example.com/mcp --bearer-env MY_TOKEN`,
		Version:       Version(),
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && src.file == "" && src.name == "" {
				return &codeError{exitUsage, "no server command given\n\nUsage: mcp-inspect [flags] [--] COMMAND [ARGS...]\n       mcp-inspect [flags] URL\n       mcp-inspect --config FILE --server NAME\nTry:   mcp-inspect demo"}
			}
			args, err := urlThenFlags(cmd, args)
			if err != nil {
				return &codeError{exitUsage, err.Error()}
			}
			flags.theme, flags.themeFrom = chosenTheme(cmd.Flags(), flags.theme)
			cfg, title, err := src.resolve(&flags, args, cmd.ErrOrStderr())
			if err != nil {
				return &codeError{exitUsage, err.Error()}
			}
			return runTUI(cmd.Context(), cfg, &flags, title)
		},
	}
	root.Flags().SetInterspersed(false)
	flags.register(root, forTUI)
	src.register(root.Flags())
	root.AddCommand(newDemoCmd(), newDemoServerCmd())
	root.AddCommand(headlessCommands()...)
	root.AddCommand(newOpenCmd(), newReplayCmd(), newMockCmd(), newTraceCmd())
	root.AddCommand(newTapCmd(), newAttachCmd(), newConfigCmd(), newConformanceClientCmd())
	checks := settingsChecks()
	root.AddCommand(newSettingsCmd(checks), newVersionCmd())
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error { return applySettings(cmd, checks) }
	registerCompletions(root)
	return root
}

// withSettings adds the settings file's key overrides and mouse switch to a TUI's options.
func withSettings(o ui.Options, s *settings.Settings) ui.Options {
	o.Quoting = lineQuoting()
	if platform.HasSystemClipboard() {
		o.SystemClipboard = platform.SystemClipboard
	}
	o.Keys = s.Keys
	o.Mouse = mouseOn(s)
	o.Split = s.Split
	o.Warnings = s.Warnings
	o.ImageProtocol, o.ImagePreview = imageProtocols()
	return o
}

// lineQuoting is the shell syntax command lines are printed, copied and edited in on this
// OS: sh's, or cmd.exe's on Windows (shellwords.For).
func lineQuoting() shellwords.Quoting { return shellwords.For(runtime.GOOS) }

// mouseOn is whether the TUI takes the mouse: on unless the settings file says mouse =
// false (the one place of the default; settings show prints it too).
func mouseOn(s *settings.Settings) bool { return s.Mouse == nil || *s.Mouse }

// settingsChecks check the settings file's theme against the themes.
func settingsChecks() settings.Checks {
	return settings.Checks{
		Theme: func(name string) error {
			_, err := themes.Load(name, userThemeDir(), false)
			return err
		},
		Inject: func(rule string) error {
			_, err := tap.ParseRule(rule)
			return err
		},
	}
}

// needTerminal is the check of every command that opens the TUI (bubbletea needs a
// terminal on stdin and stdout): without one it is a usage error (exit 2) whose message ends
// with hint, what to run in a script instead.
func needTerminal(hint string) error {
	if !term.IsTerminal(os.Stdin.Fd()) || !term.IsTerminal(os.Stdout.Fd()) {
		return &codeError{exitUsage, "the TUI needs a terminal on stdin and stdout; " + hint}
	}
	return nil
}

// runTUI spawns the server, runs the UI until the user quits or a signal arrives, and then
// shuts the server down (close stdin, SIGTERM, SIGKILL to its group). The E key in the UI
// restarts: this session ends as on quit (its trace closed), and a new one starts on the
// command line the user left in the prompt, recorded to a trace of its own.
func runTUI(ctx context.Context, cfg mcpclient.Config, flags *sessionFlags, title string) error {
	logger, closeLog := openLog(flags.logFile, flags.debug)
	defer closeLog()
	if ctx == nil {
		ctx = context.Background()
	}
	if err := needTerminal("in scripts use the headless commands (mcp-inspect tools|call|read|prompt|ping ... -- COMMAND), see mcp-inspect --help"); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, platform.StopSignals()...)
	defer signal.Stop(sigs)
	// uiEnded is set once the UI has given the terminal back: a signal after that (ctrl+c
	// while the server shuts down) only hastens the shutdown; the user's quit stands.
	var uiEnded atomic.Bool
	gotSig := make(chan caughtSignal, 1)
	go func() {
		select {
		case s := <-sigs:
			gotSig <- caughtSignal{sig: s, afterUI: uiEnded.Load()}
			cancel()
		case <-ctx.Done():
		}
	}()

	for n := 0; ; n++ {
		uiEnded.Store(false)
		end, err := runTUISession(ctx, tuiSession{cfg: cfg, flags: flags, title: title, logger: logger, uiEnded: &uiEnded}, n)
		if err != nil {
			return err
		}
		select {
		case c := <-gotSig:
			sig := c.sig
			if c.afterUI && end.restart == nil {
				fmt.Fprintf(humanStderr(), "mcp-inspect: %s came while the server was shutting down: its shutdown was cut short (%v per step); you had quit\n", signalName(sig), check.InterruptGrace)
				break
			}
			// Stopped by a signal: the server is shut down (deferred), then exit 128+n like a shell.
			return &codeError{platform.SignalExitCode(sig), ""}
		default:
		}
		next := end.restart
		if end.open != "" {
			// K picked a kept session: this one is over (its server stopped); open that.
			o := openFlags{theme: flags.theme, logFile: flags.logFile, debug: flags.debug}
			return o.openLoop(flags.cmd, end.open)
		}
		if next == nil {
			if end.spawnErr != nil {
				// Quit without fixing the command: the server was never started.
				return &codeError{exitNoServer, end.spawnErr.Error()}
			}
			return nil
		}
		if next.Command != cfg.Command || !slices.Equal(next.Args, cfg.Args) {
			title = "" // the UI derives it from the new command line
		}
		logger.Info("restarting the server", "restart", n+1)
		cfg, flags.roots = *next, end.roots
	}
}

// tuiSession is what one session of the TUI starts from.
type tuiSession struct {
	cfg    mcpclient.Config
	flags  *sessionFlags
	title  string // "" lets the UI derive it from the command line
	logger *slog.Logger
	// uiEnded, when set, is stored true once the UI has returned (before the server's stop).
	uiEnded *atomic.Bool
}

// caughtSignal is a signal runTUI caught, and whether the UI had already ended then.
type caughtSignal struct {
	sig     os.Signal
	afterUI bool
}

// tuiSessionEnd says how a session of the TUI ended without an error of its own.
type tuiSessionEnd struct {
	// restart is the configuration to start next when the user asked for a restart; nil
	// when they quit.
	restart *mcpclient.Config
	// roots are the roots the UI offered when the restart was asked for (edited with R):
	// the next session offers them.
	roots []string
	// spawnErr is why the server could not be started (the UI showed it); nil when it was.
	spawnErr error
	// open is the kept session the user picked with K, to open once this one is over.
	open string
}

// runTUISession runs one session of the TUI: record, spawn, UI, stop. n counts restarts (0
// for the first session). A command that cannot be spawned still opens the UI, on the
// dead-server panel ("could not be started: …") with its E offer to edit the command;
// the end's spawnErr is then that failure, and a kept session's trace (which would hold
// nothing but the failure) is removed. err is a *codeError.
func runTUISession(ctx context.Context, s tuiSession, n int) (tuiSessionEnd, error) {
	cfg, flags, title, logger := s.cfg, s.flags, s.title, s.logger
	base := cfg // before the recorder and the UI add their hooks
	flags.rec.maxStore = settingsOf(flags.cmd).SessionsMaxSize
	rec, err := flags.rec.startNth(&cfg, logger, humanStderr(), n)
	if err != nil {
		return tuiSessionEnd{}, &codeError{exitUsage, err.Error()}
	}
	defer rec.close(logger, humanStderr()) // after client.Close: every event is in the trace
	logger = rec.logger(logger)            // the server's words reach the log only scrubbed
	shown := rec.argv(&cfg)
	logger.Info("starting server", "argv", shown, "env_keys", envKeys(cfg.Env))
	opts := withSettings(ui.Options{Title: title, Argv: shown, EnvKeys: envKeys(cfg.Env), Headers: repeatHeaders(cfg.Header, flags.bearerEnv), Timeout: cfg.Timeout, Theme: flags.theme, ThemeDir: userThemeDir(), Logger: logger, HistoryDir: usableStateDir(), Features: flags.features, Roots: flags.roots, DefaultRoot: defaultRoot(cfg), Restartable: true, ShowCredentials: flags.rec.noRedact}, settingsOf(flags.cmd))
	// The first prune ran before the screen: the young sessions it removed go in the notes.
	opts.Warnings = append(opts.Warnings, rec.storeNotices()...)
	// Capabilities match what the UI answers; server requests reach its dialogs.
	opts.ConfigureClient(&cfg)
	// A flood's bytes stay on disk: the UI keeps the latest and reads older ones back.
	opts.ReadBack = rec.readBack()
	opts.ListSessions = keptSessionRows // K: pick a kept session to open once this one ends
	if opts.ReadBack == nil {
		// No file to read older frames back from: keep the newest frames' bytes only.
		opts.NoFile = "this session is not recorded"
		if flags.rec.noSave {
			opts.NoFile = "--no-save keeps no file"
		}
	}
	// Breakpoints on what the server sends (b): the client shows each message to holds first.
	holds := session.NewLocalHolds(0)
	cfg.Intercept = holds
	opts.Breakpoints = holds
	var spawnErr error
	client, err := mcpclient.Start(cfg)
	if err != nil {
		if client == nil {
			return tuiSessionEnd{}, &codeError{exitNoServer, err.Error()}
		}
		// The client is dead and its events say why (LifeSpawnFailed): the UI shows it.
		logger.Warn("the server could not be started", "err", err)
		spawnErr = err
		rec.discardKept(logger)
	}
	if p := rec.path(); p != "" {
		opts.SessionPath, opts.SaveSession = p, rec.saveAs
	}
	if red := rec.red; red != nil {
		opts.Redact = func(b []byte) []byte { out, _ := red.Bytes(b); return out }
	}
	opts.Client = client
	defer stopServer(ctx, client, humanStderr())
	if title == strings.Join(append([]string{cfg.Command}, cfg.Args...), " ") {
		opts.Title = "" // the UI derives it from the redacted argv, so a token in argv stays off screen
	}
	res, err := ui.Run(ctx, opts)
	holds.End() // what is held goes on, before the client is stopped
	if s.uiEnded != nil {
		s.uiEnded.Store(true)
	}
	if err == nil && res.Restart != nil {
		argv := unredactArgv(res.Restart, shown, append([]string{base.Command}, base.Args...))
		base.Command, base.Args = argv[0], argv[1:]
		if res.Framing != "" {
			base.Framing = res.Framing
		}
		base.Env = append(base.Env, res.Env...)
		return tuiSessionEnd{restart: &base, roots: res.Roots}, nil
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return tuiSessionEnd{spawnErr: spawnErr}, &codeError{1, err.Error()}
	}
	return tuiSessionEnd{spawnErr: spawnErr, open: res.Open}, nil
}

// unredactArgv maps the words of an edited command line back to the real values where the
// user kept a redacted word as shown: the UI only ever sees the redacted argv, so a token in
// argv survives a restart without reaching the screen.
func unredactArgv(edited, shown, real []string) []string {
	out := make([]string, len(edited))
	for i, w := range edited {
		out[i] = w
		for j := range shown {
			if j < len(real) && shown[j] == w && real[j] != w {
				out[i] = real[j]
				break
			}
		}
	}
	return out
}

// stopServer shuts the server down (close stdin, SIGTERM, SIGKILL to its group) and says so
// on stderr when that takes long enough to notice, so the terminal is never silently stuck.
//
// Once ctx ends (ctrl+c or SIGTERM after the UI quit, or the signal that stopped it) each
// remaining step waits only check.InterruptGrace: the user asked not to wait.
func stopServer(ctx context.Context, c *mcpclient.Client, stderr io.Writer) {
	done := make(chan struct{})
	go func() {
		c.Close()
		close(done)
	}()
	go func() {
		select {
		case <-ctx.Done():
			c.Hasten(check.InterruptGrace)
		case <-done:
		}
	}()
	select {
	case <-done:
	case <-time.After(400 * time.Millisecond):
		fmt.Fprintf(stderr, "mcp-inspect: stopping the server (pid %d): %s (ctrl+c cuts it short)…\n", c.PID(), platform.ShutdownLadder)
		<-done
	}
	if line := shutdownLine(c); line != "" {
		fmt.Fprintln(stderr, "mcp-inspect: "+line)
	}
}

func envKeys(env []string) []string {
	keys := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		keys = append(keys, k)
	}
	return keys
}

// stateDir is where mcp-inspect keeps logs and sessions (platform.StateDir:
// $XDG_STATE_HOME/mcp-inspect, else ~/.local/state/mcp-inspect on Linux, ~/Library/
// Application Support/mcp-inspect on macOS, %LOCALAPPDATA%\mcp-inspect on Windows); the
// temporary directory when no home directory is known.
func stateDir() string {
	if d, err := platform.StateDir(); err == nil {
		return d
	}
	return filepath.Join(os.TempDir(), platform.AppName)
}

// openLog opens the inspector's own log file; logs never go to the terminal the UI draws on.
// Every command runs it first, so it is where the state directory is checked and made
// private, whether the log goes there or not (checkStateDir), and where what that found is
// said, on stderr and in the log.
func openLog(path string, debug bool) (*slog.Logger, func()) {
	stderr := humanStderr()
	dir, dirNote := checkStateDir(stderr)
	if path == "" && dir != "" {
		path = filepath.Join(dir, "mcp-inspect.log")
	}
	level := slog.LevelInfo
	if debug {
		level = slog.LevelDebug
	}
	if path == "" {
		return slog.New(slog.NewTextHandler(io.Discard, nil)), func() {}
	}
	// The log rotates at logfile.MaxSize and cuts huge values (issue 15); a symlink planted
	// where it goes is refused, never followed, and the run goes on without a log.
	f, err := logfile.Open(path, logfile.MaxSize)
	if err != nil {
		fmt.Fprintf(stderr, "mcp-inspect: warning: no log: %v\n", err)
		return slog.New(slog.NewTextHandler(io.Discard, nil)), func() {}
	}
	logger := slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level, ReplaceAttr: logfile.ReplaceAttr}))
	if dirNote != "" {
		logger.Warn(dirNote)
	}
	return logger, func() { f.Close() }
}

// urlThenFlags parses what follows a server URL as flags (mcp-inspect URL --timeout 20s):
// flags stop at the first argument so that a stdio server's own flags reach it, but a URL
// takes no arguments. Anything left that is not a flag is a usage error.
func urlThenFlags(cmd *cobra.Command, args []string) ([]string, error) {
	if len(args) < 2 || !isServerURL(args[0]) || cmd.ArgsLenAtDash() >= 0 {
		return args, nil
	}
	if err := cmd.Flags().Parse(args[1:]); err != nil {
		return nil, fmt.Errorf("after the URL: %w", err)
	}
	if rest := cmd.Flags().Args(); len(rest) > 0 {
		return nil, fmt.Errorf("a server URL takes no arguments (got %q after %s); a stdio server's command goes after --", strings.Join(rest, " "), args[0])
	}
	return args[:1], nil
}
