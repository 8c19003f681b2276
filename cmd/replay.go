package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/termout"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// Exit codes of replay.
const (
	exitReplaySame    = 0
	exitReplayDiffers = 1
	exitReplayError   = 2
)

// replayFlags are replay's flags; run is the command.
type replayFlags struct {
	session                 sessionFlags
	ignore                  []string
	asJSON, update, verbose bool
	grace                   time.Duration
}

func newReplayCmd() *cobra.Command {
	var f replayFlags
	c := &cobra.Command{
		Use:   "replay TRACE [flags] [-- COMMAND [ARGS...] | URL]",
		Short: "Re-send a recorded session to a server and diff the responses",
		Long: `replay starts COMMAND as a stdio MCP server and sends it what the recorded client sent,
in the recorded order: requests get new ids (the responses are matched back), the server's own
requests (sampling, roots, elicitation) get the recorded answers, notifications go out as
recorded, and a recorded cancellation cancels the replayed request. Each response is compared
structurally with the recorded one: member order and number spelling do not matter, JSON held
in text content is compared as JSON, ids and _meta progress tokens are ignored, and --ignore
leaves out more (JSONPath: $.result.serverInfo.version, $..timestamp, $.result.content[*].text;
prefix METHOD: to limit one to a method, as in tools/call:$.result.content[0].text).

Without COMMAND or URL it replays against the server the trace recorded (its URL, or its
command line run in the recorded directory unless --cwd is given), saying which on stderr;
a trace that recorded none, or recorded it with values masked, needs one given.

Exit status: 0 every response matches, 1 something differs, 2 the replay could not run.`,
		Example: `  mcp-inspect replay session.jsonl -- node build/index.js
  mcp-inspect replay session.jsonl                          # against the server it recorded
  mcp-inspect replay --ignore '$.result.serverInfo.version' --json session.jsonl -- ./server
  mcp-inspect replay --update session.jsonl -- ./server     # accept the new responses`,
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE:          func(cmd *cobra.Command, args []string) error { return f.run(cmd, args) },
	}
	c.Flags().SetInterspersed(true)
	f.session.register(c, forReplay)
	_ = c.Flags().MarkHidden("theme") // replay draws nothing: like the headless commands (usesTheme)
	c.Flags().StringArrayVar(&f.ignore, "ignore", nil, "leave `JSONPATH` out of the comparison (repeatable)")
	c.Flags().BoolVar(&f.asJSON, "json", false, "print the report as JSON")
	c.Flags().BoolVar(&f.update, "update", false, "rewrite TRACE with the new session (its responses become the expected ones); exit 0 unless the replay fails")
	c.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "list every comparison, not only the differing ones")
	c.Flags().DurationVar(&f.grace, "grace", 2*time.Second, "how long to wait for a response the recording does not have")
	return c
}

// run replays TRACE against the server command of args; its error is a *codeError
// carrying replay's exit status.
func (f *replayFlags) run(cmd *cobra.Command, args []string) error {
	flags := &f.session
	tracePath, argv, err := splitReplayArgs(cmd, args)
	if err != nil {
		return &codeError{exitReplayError, err.Error()}
	}
	paths, err := ignorePaths(f.ignore)
	if err != nil {
		return err
	}
	var tr *trace.Trace
	defer func() {
		if tr != nil {
			tr.Close()
		}
	}()
	if argv == nil { // no COMMAND or URL: the one the trace recorded
		if tr, err = openTraceWarn(tracePath, cmd.ErrOrStderr(), "mcp-inspect", nil); err != nil {
			return err
		}
		if argv, err = flags.recordedServer(&tr.Header, tracePath, cmd.ErrOrStderr()); err != nil {
			return &codeError{exitReplayError, err.Error()}
		}
	}
	cfg, err := flags.config(argv)
	if err != nil {
		return &codeError{exitReplayError, err.Error()}
	}
	if sameFile(flags.rec.file, tracePath) {
		return &codeError{exitReplayError, fmt.Sprintf("--record %s names the trace being replayed: recording there would destroy it before it is read; record to another file, or use --update to rewrite the trace with the new session", flags.rec.file)}
	}
	logger, closeLog := openLog(flags.logFile, flags.debug)
	defer closeLog()
	if tr == nil {
		if tr, err = openTraceWarn(tracePath, cmd.ErrOrStderr(), "mcp-inspect", logger); err != nil {
			return err
		}
	}
	if flags.framing == "" && cfg.URL == "" {
		// Re-run as recorded: a Content-Length server needs the framing it was recorded with.
		if cfg.Framing, err = mcpclient.ParseFraming(trace.ResolvedFraming(tr)); err != nil {
			return &codeError{exitReplayError, fmt.Sprintf("the trace's framing: %v; give --framing", err)}
		}
	}

	flags.rec.noSave = true // a replay is kept only when asked: --record or --update
	rec, err := flags.rec.start(&cfg, logger, cmd.ErrOrStderr())
	if err != nil {
		return &codeError{exitReplayError, err.Error()}
	}
	var upd *trace.Writer
	var updPath string
	if f.update {
		upd, updPath, err = startUpdate(tracePath, &tr.Header, &cfg, rec)
		if err != nil {
			rec.close(logger, cmd.ErrOrStderr())
			return &codeError{exitReplayError, "--update: " + err.Error()}
		}
		defer os.Remove(updPath) // gone after the rename; cleans up on failure
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), platform.StopSignals()...)
	defer stop()
	logger.Info("replay", "trace", tracePath, "argv", rec.argv(&cfg))
	rep, err := trace.Replay(ctx, tr, trace.ReplayOptions{Config: cfg, Ignore: paths, Grace: f.grace})
	rec.close(logger, cmd.ErrOrStderr())
	if err != nil {
		if upd != nil {
			upd.Close()
		}
		return &codeError{exitReplayError, "replay: " + err.Error()}
	}
	rep.Trace = tracePath
	if len(rep.Items) == 0 {
		// A replay that compared nothing proves nothing: it must not pass (nor, with
		// --update, replace the trace).
		if upd != nil {
			upd.Close()
		}
		return &codeError{exitReplayError, fmt.Sprintf("nothing to compare: %s holds no messages from the client (a header only, or a session that never sent a request)", tracePath)}
	}
	// The trace is read: close it now, for --update's rename over it (Windows cannot
	// replace a file that is open).
	tr.Close()
	return f.report(rep, upd, updPath, cmd.OutOrStdout(), cmd.ErrOrStderr())
}

// ignorePaths parses the --ignore values.
func ignorePaths(ignore []string) ([]*trace.JSONPath, error) {
	var paths []*trace.JSONPath
	for _, s := range ignore {
		p, err := trace.ParseJSONPath(s)
		if err != nil {
			return nil, &codeError{exitReplayError, "--ignore: " + err.Error()}
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// report prints the replay's report and, with --update (upd set), replaces the trace with
// the new session recorded at updPath.
func (f *replayFlags) report(rep *trace.ReplayReport, upd *trace.Writer, updPath string, stdout, stderr io.Writer) error {
	if f.asJSON {
		if err := rep.WriteJSON(termout.JSONOf(stdout)); err != nil {
			return &codeError{exitReplayError, err.Error()}
		}
	} else if err := rep.WriteText(stdout, f.verbose); err != nil {
		return &codeError{exitReplayError, err.Error()}
	}
	if upd != nil {
		if err := upd.Close(); err != nil {
			return &codeError{exitReplayError, "--update: " + err.Error()}
		}
		if err := os.Rename(updPath, rep.Trace); err != nil {
			return &codeError{exitReplayError, "--update: " + err.Error()}
		}
		fmt.Fprintf(stderr, "mcp-inspect: %s rewritten with the new session\n", rep.Trace)
		return nil
	}
	if !rep.OK() {
		return &codeError{exitReplayDiffers, ""}
	}
	return nil
}

// splitReplayArgs takes TRACE and the server command from "TRACE -- COMMAND ARGS..." or
// "TRACE URL"; the command is nil for TRACE alone (replay against the recorded server).
func splitReplayArgs(cmd *cobra.Command, args []string) (string, []string, error) {
	dash := cmd.ArgsLenAtDash()
	var before, after []string
	if dash >= 0 {
		before, after = args[:dash], args[dash:]
	} else if len(args) > 0 {
		before, after = args[:1], args[1:]
	}
	if len(before) != 1 {
		return "", nil, errors.New("want exactly one TRACE before --\n" + replayUsage)
	}
	if len(after) == 0 && dash >= 0 {
		return "", nil, errors.New("no server command after -- (leave out -- to replay against the server the trace recorded)\n" + replayUsage)
	}
	if len(after) == 0 {
		return before[0], nil, nil
	}
	return before[0], after, nil
}

// sameFile reports whether a and b name one existing file, through symlinks and
// relative paths; "" is never the same file.
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(sa, sb)
}

// startUpdate records the replayed session to a temporary file beside the trace, which
// replaces the trace when the replay succeeds.
func startUpdate(tracePath string, old *trace.Header, cfg *mcpclient.Config, rec *recording) (*trace.Writer, string, error) {
	f, err := os.CreateTemp(filepath.Dir(tracePath), "."+filepath.Base(tracePath)+".update-*")
	if err != nil {
		return nil, "", err
	}
	path := f.Name()
	f.Close()
	cwd := cfg.Dir
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	h := trace.Header{
		Tool:            "mcp-inspect",
		ToolVersion:     Version(),
		Argv:            append([]string{cfg.Command}, cfg.Args...),
		Cwd:             cwd,
		Env:             cfg.Env,
		Era:             old.Era,
		Framing:         traceFraming(cfg.Framing),
		ProtocolVersion: old.ProtocolVersion,
		Note:            fmt.Sprintf("updated by mcp-inspect replay from the recording of %s", old.Start.Format(time.RFC3339)),
	}
	w, err := trace.Create(path, h, rec.red)
	if err != nil {
		os.Remove(path)
		return nil, "", err
	}
	prev := cfg.OnEvent
	cfg.OnEvent = func(ev mcpclient.Event) {
		w.Observe(ev)
		if prev != nil {
			prev(ev)
		}
	}
	return w, path, nil
}
