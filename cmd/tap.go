package cmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/internal/settings"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/tap"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// tapProcs is the tap's least GOMAXPROCS: its three forward loops and the trace.
const tapProcs = 4

// tapPrefix starts everything the tap itself writes to stderr (stdout belongs to the host).
const tapPrefix = "mcp-inspect tap: "

// tapLong is tap's help text.
const tapLong = `tap is a transparent pass-through for a host (Claude Desktop, VS Code, Cursor, any stdio
MCP client). Put it in front of the server's command in the host's config (or let
` + "`mcp-inspect config wrap`" + ` do it): the tap starts COMMAND exactly as given, copies the host's
stdin to it and its stdout back byte for byte as the bytes arrive (nothing reframed, added or
dropped, also bytes that are not JSON), and its stderr to the tap's stderr. The server's exit
code passes through (128+N when signal N ended it); SIGTERM, SIGINT and SIGHUP are forwarded
to the server's process group; when the host closes stdin the server is shut down: stdin
closed, then SIGTERM, then SIGKILL to its group (on Windows: ctrl+c and a closed console
are forwarded as CTRL_BREAK, and the last steps are CTRL_BREAK, then its job object is
terminated).

Every message both ways is recorded as a trace (open, replay and mock read it): to FILE with
--record, else under the state directory (taps/NAME/, kept 30 days, at most 1 GiB:
sessions_max_size in the settings file). While it runs,
` + "`mcp-inspect attach NAME`" + ` shows the traffic live in the TUI, history first.

The tap writes nothing to stdout but the server's bytes. Its own log goes to the log file;
only its errors go to stderr, prefixed "mcp-inspect tap:".

For a remote server, --listen 127.0.0.1:PORT --upstream URL makes the tap an HTTP reverse
proxy on that loopback address: point the host at http://127.0.0.1:PORT with the upstream
URL's path. Every request goes to the upstream as sent (only Host is set to the
upstream's), every response comes back as sent, event streams frame by frame as they
arrive. The trace holds the same http>/http< and message lines a client trace of the server
has; the host's own credentials (Authorization, API keys, cookies) pass through and are
redacted in the trace. Only loopback addresses are accepted, and only requests whose Host
(and Origin, when sent) is that address, localhost, 127.0.0.1 or [::1] on its port: others
get 403 and never reach the upstream (DNS rebinding protection). Each run makes a token,
printed with the URL on stderr (http://127.0.0.1:PORT/PATH?token=TOKEN) and kept in
taps/NAME/url in the state directory (mode 0600); a request must carry it as ?token=TOKEN,
as the header Mcp-Inspect-Token: TOKEN or as Authorization: Bearer TOKEN, else it gets 401.
The tap takes its token out before forwarding; the host's own Authorization for the
upstream passes untouched (send the token in the header or the URL then). --no-token
serves without one. Refusals are noted in the trace.

--inject 'FILTER => ACTION' injects faults, for repeatable tests of a host (repeatable; the
first rule that matches a message acts on it). FILTER is the wire filter language (the
Wire pane's F, see mcp-inspect(1) FILTER EXPRESSIONS), matched against every JSON-RPC
message both ways; ACTION is drop, delay DURATION, error CODE MESSAGE (a request is
answered with this error and never forwarded; a response is replaced by it), replace JSON,
truncate N (the first N bytes, then the line's end) or corrupt (the first byte that is not
a space becomes '!'). Each application is a note in the trace and on attach's wire, and
the trace keeps the original and what was forwarded; a rule that matched nothing is
reported on stderr at the end. With rules a stdio tap forwards whole lines. Without
--inject, the settings file's [taps.NAME] inject = [...] for the tap's name applies.`

func newTapCmd() *cobra.Command {
	var rec tapRecordFlags
	var name, logFile string
	var debug bool
	var maxMessage int
	var listen, upstream string
	var noToken bool
	c := &cobra.Command{
		Use:   "tap [--record FILE] [--name NAME] -- COMMAND [ARGS...]\n  mcp-inspect tap --listen 127.0.0.1:PORT --upstream URL [--record FILE] [--name NAME] [--no-token]",
		Short: "Sit between a real host and a server: forward every byte, record it, let `attach` watch",
		Long:  tapLong,
		Example: `  mcp-inspect tap --name fs -- npx -y @modelcontextprotocol/server-filesystem ~/src
  mcp-inspect tap --record /tmp/everything.jsonl -- node dist/index.js
  mcp-inspect tap --listen 127.0.0.1:8931 --upstream https://mcp.example.com/mcp --name remote
  mcp-inspect attach fs
  mcp-inspect tap --inject 'method:tools/call => delay 2s' -- node dist/index.js
  mcp-inspect tap --inject 'tool:delete_* => error -32000 not today' --inject 'dir:in method:tools/list => corrupt' -- node dist/index.js`,
		Args: func(cmd *cobra.Command, args []string) error {
			if listen != "" || upstream != "" {
				if listen == "" || upstream == "" || len(args) > 0 {
					return &codeError{exitUsage, "an HTTP tap takes --listen 127.0.0.1:PORT and --upstream URL, and no command"}
				}
				return nil
			}
			if noToken {
				return &codeError{exitUsage, "--no-token goes with --listen (an HTTP tap)"}
			}
			return cobra.MinimumNArgs(1)(cmd, args)
		},
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			set := settingsOf(cmd)
			rec.maxStore = set.SessionsMaxSize
			tapName := name
			if tapName == "" && listen != "" {
				tapName = tap.DefaultName([]string{upstream})
			} else if tapName == "" {
				tapName = tap.DefaultName(args)
			}
			if err := rec.injectRules(set, tapName); err != nil {
				return err
			}
			if listen != "" {
				return runHTTPTap(cmd.Context(), httpTapAddrs{listen, upstream, noToken}, name, &rec, logFile, debug, maxMessage)
			}
			if _, err := mcpclient.ParseFraming(rec.framing); err != nil {
				return &codeError{exitUsage, "--framing: " + err.Error()}
			}
			return runTap(cmd.Context(), args, name, &rec, logFile, debug, maxMessage)
		},
	}
	c.Flags().SetInterspersed(false)
	fl := c.Flags()
	fl.StringVar(&name, "name", "", "the `NAME` that mcp-inspect attach finds the tap by (default: from the server command)")
	fl.StringVar(&logFile, "log-file", "", "write the tap's own log to `FILE` (default: the user state directory)")
	fl.BoolVar(&debug, "debug", false, "log at debug level")
	fl.IntVar(&maxMessage, "max-message", mcpclient.DefaultMaxMessage, "longest message recorded whole, in bytes (all bytes are forwarded anyway)")
	fl.StringVar(&listen, "listen", "", "be an HTTP tap on the loopback `ADDR` (127.0.0.1:PORT; port 0 picks one), with --upstream")
	fl.StringVar(&upstream, "upstream", "", "the remote server's `URL` an HTTP tap forwards to")
	fl.BoolVar(&noToken, "no-token", false, "HTTP tap: serve without the per-run token (any program on this machine may connect; Host and Origin are still checked)")
	fl.StringVar(&rec.file, "record", "", "write the trace to `FILE` (default: each tap's sessions are kept 30 days, at most 1 GiB, in the user state directory)")
	fl.StringArrayVar(&rec.redact, "redact", nil, "also scrub what `REGEX` matches from the recorded bytes (repeatable; RE2 syntax); the forwarded bytes are never changed")
	fl.BoolVar(&rec.noRedact, "no-redact", false, "record env values and tokens in clear (for local use only)")
	fl.BoolVar(&rec.noSave, "no-save", false, "keep no trace in the state directory (--record still writes FILE; attach then gets the newest 64 MiB of the history from memory)")
	fl.StringVar(&rec.framing, "framing", string(mcpclient.FramingNewline), "the stdio framing host and server speak, kept in the trace's header for replay and mock: newline, content-length or auto (bytes are forwarded unchanged, and Content-Length frames are recorded whole either way)")
	rec.otlp.add(fl)
	fl.StringArrayVar(&rec.inject, "inject", nil, "fault injection: a `RULE` 'FILTER => ACTION' (repeatable; the first matching rule acts): FILTER is the wire filter language, ACTION drop, delay DURATION, error CODE MESSAGE, replace JSON, truncate N or corrupt (docs/reference.md, Injecting faults); replaces the settings file's [taps.NAME] inject")
	fl.BoolVar(&rec.overwrite, "overwrite", false, "let --record replace FILE when it exists, with a new file of mode 0600 (a symlink is replaced, never followed; default: refuse; config wrap --record sets it, as the host starts the tap again on every launch)")
	return c
}

// tapRecordFlags are the tap's trace flags (the same names as the other commands').
type tapRecordFlags struct {
	file     string
	redact   []string
	noRedact bool
	noSave   bool
	// overwrite lets --record replace an existing FILE (O_EXCL otherwise).
	overwrite bool
	// framing is --framing: what host and server speak, for the trace's header.
	framing string
	// maxStore caps the bytes of the tap's kept sessions (the settings file's
	// sessions_max_size; 0: trace.DefaultMaxBytes).
	maxStore int64
	// otlp is where the spans of what the tap sees go besides the trace (--otlp).
	otlp otlpFlags
	// inject are the --inject rules as given; rules the parsed ones (injectRules), from
	// the flags or else the settings file's [taps.NAME] inject.
	inject []string
	rules  []tap.Rule
}

// injectRules parses the --inject rules, or, when there are none, takes those of the
// settings file's tap profile called name (checked when the file was read).
func (r *tapRecordFlags) injectRules(set *settings.Settings, name string) error {
	srcs, from := r.inject, "--inject"
	if len(srcs) == 0 {
		if p := set.TapProfile(name); p != nil {
			srcs, from = p.Inject, fmt.Sprintf("[taps.%s] in %s", name, set.Path)
		}
	}
	r.rules = r.rules[:0]
	for _, src := range srcs {
		rule, err := tap.ParseRule(src)
		if err != nil {
			if from != "--inject" {
				return &codeError{exitUsage, from + ": " + err.Error()}
			}
			return &codeError{exitUsage, err.Error()}
		}
		r.rules = append(r.rules, rule)
	}
	return nil
}

// store watches the tap's directory of kept sessions while the tap records path into it
// (nil when the trace is not an automatic one). The notice that the running session alone
// passes the cap goes to stderr at once (the host's log) and to the log.
func (r *tapRecordFlags) store(path string, auto bool, logger *slog.Logger) *sessionStore {
	if !auto {
		return nil
	}
	s := newSessionStore(filepath.Dir(path), path, r.maxStore, logger, func(text string) {
		fmt.Fprintf(humanStderr(), "%s%s\n", tapPrefix, text)
	})
	s.watch()
	return s
}

// redactor scrubs, from the trace only, the secrets of the environment the host gave the
// tap, token-looking arguments and the --redact patterns (nil with --no-redact).
// bodyRedactor masks the bodies --otlp-bodies sends, with or without --no-redact.
func (r *tapRecordFlags) bodyRedactor(argv []string) *trace.Redactor {
	red, _ := trace.NewRedactor(r.redactConfig(argv))
	return red
}

func (r *tapRecordFlags) redactor(argv []string) (*trace.Redactor, error) {
	if r.noRedact {
		return nil, nil
	}
	return trace.NewRedactor(r.redactConfig(argv))
}

// redactConfig is what the tap's secrets are: its argv and the --redact patterns.
func (r *tapRecordFlags) redactConfig(argv []string) trace.RedactConfig {
	return trace.RedactConfig{Inherited: os.Environ(), Argv: argv, Patterns: r.redact}
}

// tracePath picks the trace file (--record FILE, else one in the tap's state directory,
// unless --no-save) and creates it, so that a file that cannot be written is known now.
func (r *tapRecordFlags) tracePath(name string, logger *slog.Logger) (path string, auto bool, err error) {
	rec := r
	if rec.file == "-" {
		// A stdio tap's stdout is the host's side of the wire: a trace there would corrupt it.
		fmt.Fprintf(humanStderr(), "%s%v\n", tapPrefix, errRecordStdout)
		return "", false, &codeError{exitUsage, ""}
	}
	path, auto = rec.file, false
	if path == "" && !rec.noSave {
		// The state directory's taps/NAME/, private (stateSubdir says so on stderr, the
		// host's log, if it had to tighten it).
		dir, err := stateSubdir(logger, humanStderr(), "taps", safeFileName(name))
		if err != nil {
			logger.Warn("cannot keep the session: no state directory", "err", err)
		} else {
			path, auto = trace.SessionPath(dir, time.Now(), os.Getpid()), true
		}
	}
	if path != "" {
		// Find out now whether the trace can be written: an automatic one that cannot is
		// only logged, a --record FILE that cannot is an error. The file is created here with
		// O_EXCL unless --overwrite: an existing file is never replaced by surprise, and with
		// --overwrite it is replaced by a new file (mode 0600), never written through a
		// symlink (trace.CreateFile).
		f, err := trace.CreateFile(path, rec.overwrite && !auto)
		switch {
		case err == nil:
			f.Close()
		case auto:
			logger.Warn("cannot keep the session", "path", path, "err", err)
			path, auto = "", false
		case errors.Is(err, fs.ErrExist):
			fmt.Fprintf(humanStderr(), "%s%v\n", tapPrefix, existsErr(path))
			return "", false, &codeError{exitUsage, ""}
		default:
			fmt.Fprintf(humanStderr(), "%s--record: %v\n", tapPrefix, err)
			return "", false, &codeError{exitUsage, ""}
		}
	}
	return path, auto, nil
}

// noFileReason says why the tap keeps no trace file (for attach, whose history is then
// the newest events kept in memory), "" when it keeps one.
func (r *tapRecordFlags) noFileReason(path string) string {
	switch {
	case path != "":
		return ""
	case r.noSave:
		return "--no-save keeps no file"
	}
	return "the tap keeps no trace file"
}

// tapsDir is the state directory's taps/NAME/, where a tap keeps its sessions and its URL.
func tapsDir(name string) string {
	return filepath.Join(stateDir(), "taps", safeFileName(name))
}

// safeFileName turns a tap name into one path element.
func safeFileName(name string) string {
	name = strings.Map(func(r rune) rune {
		switch {
		case r == '/' || r == '\\' || r == 0 || r < 0x20:
			return '_'
		}
		return r
	}, name)
	if name == "" || name == "." || name == ".." {
		return "tap"
	}
	return name
}

func runTap(ctx context.Context, argv []string, name string, rec *tapRecordFlags, logFile string, debug bool, maxMessage int) error {
	if ctx == nil {
		ctx = context.Background()
	}
	logger, closeLog := openLog(logFile, debug)
	defer closeLog()
	logger = logger.With("tap", os.Getpid())
	if name == "" {
		name = tap.DefaultName(argv)
	}
	red, err := rec.redactor(argv)
	if err != nil {
		fmt.Fprintln(humanStderr(), tapPrefix+err.Error())
		return &codeError{exitUsage, ""}
	}
	path, auto, err := rec.tracePath(name, logger)
	if err != nil {
		return err
	}
	if rec.noRedact && path != "" {
		logger.Warn("recording without redaction", "path", path)
	}
	opt := tap.Options{
		Argv:      argv,
		Name:      name,
		TracePath: path,
		Header: trace.Header{
			Tool:        "mcp-inspect",
			ToolVersion: Version(),
			Framing:     traceFraming(mcpclient.Framing(rec.framing)),
		},
		Redactor:     red,
		MaxMessage:   maxMessage,
		Logger:       logger,
		NoFileReason: rec.noFileReason(path),
		Inject:       rec.rules,
	}
	logger.Info("tap starting", "name", name, "argv", red.Argv(argv), "trace", path)
	// The forward loops wait in blocking read(2)s (cheaper than the poller where system
	// calls are dear), and a thread in a system call may hold its P for a while: with more
	// Ps than loops, the recorder and the other loops always find one free. GOMAXPROCS in
	// the environment wins.
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(max(tapProcs, runtime.NumCPU()))
	}
	x, err := rec.otlp.start(ctx, "pipe", true, logger, rec.bodyRedactor(argv))
	if err != nil {
		return err
	}
	if x != nil {
		opt.Observe = x.Observe
	}
	store := rec.store(path, auto, logger)
	res, err := tap.Run(ctx, opt)
	store.end()
	finishOTLP(x, rec.otlp.url, humanStderr(), tapPrefix)
	if err != nil {
		fmt.Fprintln(humanStderr(), tapPrefix+err.Error())
		logger.Error("tap failed", "err", err)
		var se *tap.SpawnError
		if errors.As(err, &se) {
			return &codeError{se.Code(), ""}
		}
		return &codeError{exitUsage, ""}
	}
	logger.Info("tap ended", "exit", res.ExitCode, "signal", res.Signal, "events", res.Events, "trace", path)
	if res.Signal != "" {
		fmt.Fprintf(humanStderr(), "%sserver (pid %d) was killed by signal %d (SIG%s)\n", tapPrefix, res.ServerPID, platform.SignalNumberOf(res.Signal), res.Signal)
	}
	if code := res.Code(); code != 0 {
		return &codeError{code, ""}
	}
	return nil
}

// httpTapAddrs are where an HTTP tap listens (--listen 127.0.0.1:PORT), the server it
// forwards to (--upstream URL), and whether it serves without a token (--no-token).
type httpTapAddrs struct {
	listen, upstream string
	noToken          bool
}

// runHTTPTap runs the HTTP tap until SIGINT or SIGTERM.
func runHTTPTap(ctx context.Context, addrs httpTapAddrs, name string, rec *tapRecordFlags, logFile string, debug bool, maxMessage int) error {
	if ctx == nil {
		ctx = context.Background()
	}
	listen, upstream := addrs.listen, addrs.upstream
	u, err := url.Parse(upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &codeError{exitUsage, fmt.Sprintf("--upstream %s: not an http:// or https:// URL", upstream)}
	}
	logger, closeLog := openLog(logFile, debug)
	defer closeLog()
	logger = logger.With("tap", os.Getpid())
	if name == "" {
		name = tap.DefaultName([]string{upstream})
	}
	argv := []string{upstream}
	red, err := rec.redactor(argv)
	if err != nil {
		return &codeError{exitUsage, err.Error()}
	}
	ln, err := loopbackListen(listen)
	if err != nil {
		return err
	}
	defer ln.Close()
	path, auto, err := rec.tracePath(name, logger)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, platform.StopSignals()...)
	defer stop()
	store := rec.store(path, auto, logger)
	defer store.end()
	base := "http://" + ln.Addr().String() + u.EscapedPath()
	acc, err := newListenAccess("mcp-inspect tap", ln, addrs.noToken, tapsDir(name), base, logger)
	if err != nil {
		return &codeError{exitUsage, err.Error()}
	}
	defer acc.end()
	x, err := rec.otlp.start(ctx, "tcp", true, logger, rec.bodyRedactor(argv))
	if err != nil {
		return err
	}
	defer finishOTLP(x, rec.otlp.url, humanStderr(), tapPrefix)
	var observe func(mcpclient.Event)
	if x != nil {
		observe = x.Observe
	}
	res, err := tap.RunHTTP(ctx, tap.HTTPOptions{
		Listener:  ln,
		Upstream:  u,
		Name:      name,
		TracePath: path,
		Header: trace.Header{
			Tool:        "mcp-inspect",
			ToolVersion: Version(),
			Framing:     trace.FramingNewline,
			Argv:        red.Argv(argv),
			URL:         red.Argv(argv)[0],
		},
		Redactor:     red,
		MaxMessage:   maxMessage,
		Logger:       logger,
		NoFileReason: rec.noFileReason(path),
		OnStart: func(string) {
			acc.announce(humanStderr(), tapPrefix, base)
		},
		Guard:   acc.guard,
		Observe: observe,
		Inject:  rec.rules,
	})
	if err != nil {
		return &codeError{exitUsage, err.Error()}
	}
	logger.Info("http tap ended", "events", res.Events, "trace", path)
	return nil
}
