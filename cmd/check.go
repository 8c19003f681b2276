package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// checkFlags are check's own flags, beside the session flags every headless command has.
type checkFlags struct {
	skip              []string
	calls             []string
	args              []string
	callReadOnly      bool
	junit             string
	junitWarningsFail bool
	maxReads          int
	rules             bool
}

// Exit codes of check (beside exitUsage and exitNoServer).
const exitCheckFailed = 1

const checkLong = `check runs a fixed battery of protocol rules against one MCP server and reports by rule:
the lifecycle (initialize in time; version negotiation asking for the newest revision, an
unknown future one and the oldest; capabilities and serverInfo; nothing but ping and logging
before initialized; server/discover where offered; exit within a few seconds of stdin
closing), stdout hygiene, every listing of every declared capability (pages, duplicates,
tool names, schemas compiled as JSON Schema, RFC 6570 templates, annotations, the steering
lint), reads that change nothing (resources/read, prompts/get without required arguments,
completion/complete, logging/setLevel, ping) and robustness (an unknown method and tool, a
line that is not JSON, a string id and id 0, a notification, a cancellation of an unknown
request, a final ping).

It changes nothing on the server by default: tools are called only with --call TOOL (with
the matching --args JSON, paired in order; {} when missing) or --call-read-only (each tool
annotated readOnlyHint: true, with arguments built from its inputSchema).

The server is started up to five times: the main session runs the battery; short sessions
beside it test version negotiation and server/discover (cited as version-future#N,
version-oldest#N, discover#N). Each session's trace is kept (--record FILE: FILE and
FILE.version-future.jsonl, …; else the session store; --no-save: none), the report names
the file beside the events it cites, and its last line is the "mcp-inspect open TRACE --at N"
that shows the first cited event's exact bytes. A server that cannot run a second copy
beside the main one (a lock, a fixed port) gets those rules as not applicable, with why.

The report groups MUST failures, SHOULD warnings and passes, each rule with the spec
section it comes from. --json prints it as one document; --junit FILE writes JUnit XML for
CI. --skip RULE or --skip RULE=REASON leaves a rule out, and the report says so. --rules
lists the rules. docs/check.md describes each.

Exit codes:
  0  no MUST rule failed
  1  a MUST rule failed
  2  usage: bad flags or arguments, an unknown rule
  3  the server could not start, or exited before it answered initialize
  130 interrupted (SIGINT/SIGTERM)`

// newCheckCmd is `mcp-inspect check`.
func newCheckCmd() *cobra.Command {
	var flags headlessFlags
	var cf checkFlags
	c := &cobra.Command{
		Use:   "check [flags] (-- COMMAND [ARGS...] | URL)",
		Short: "Check a server against the protocol's rules, for a person or for CI",
		Long:  checkLong,
		Example: `  mcp-inspect check -- npx -y @modelcontextprotocol/server-everything
  mcp-inspect check --json --junit check.xml -- ./my-server
  mcp-inspect check --call-read-only --record check.jsonl -- python server.py
  mcp-inspect check --call add --args '{"a":1,"b":2}' --skip steering=known -- ./my-server
  mcp-inspect check http://127.0.0.1:3000/mcp`,
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cf.rules {
				printRules(cmd)
				return nil
			}
			return runCheck(cmd, &flags, &cf, args)
		},
	}
	flags.register(c)
	fl := c.Flags()
	fl.StringArrayVar(&cf.skip, "skip", nil, "leave out rule `RULE[=REASON]` (repeatable; --rules lists them)")
	fl.StringArrayVar(&cf.calls, "call", nil, "call tool `TOOL` and check its result (repeatable; pairs with --args in order)")
	fl.StringArrayVar(&cf.args, "args", nil, "the `JSON` arguments of the matching --call (default {})")
	fl.BoolVar(&cf.callReadOnly, "call-read-only", false, "call every tool annotated readOnlyHint: true, with arguments built from its inputSchema")
	fl.StringVar(&cf.junit, "junit", "", "write a JUnit XML report to `FILE` (one test case per rule; SHOULD warnings are cases named \"WARNING: …\")")
	fl.BoolVar(&cf.junitWarningsFail, "junit-warnings-fail", false, "in --junit, write SHOULD warnings as failures too (for a CI that must stop on them; the exit code is unchanged)")
	fl.IntVar(&cf.maxReads, "max-reads", 20, "read at most `N` listed resources")
	fl.BoolVar(&cf.rules, "rules", false, "list the rules (id, level, group, the revisions each judges, source) and exit")
	return c
}

// printRules writes the rule table.
func printRules(cmd *cobra.Command) {
	w := cmd.OutOrStdout()
	for _, r := range check.Rules() {
		fmt.Fprintf(w, "%-22s %-6s %-10s %-25s %s\n", r.ID, r.Level, r.Group, r.Eras, r.Source)
	}
}

// checkOptions turns the flags into check options; errors are usage errors.
func (cf *checkFlags) options() (check.Options, error) {
	opt := check.Options{Skip: map[string]string{}, CallReadOnly: cf.callReadOnly, MaxReads: cf.maxReads}
	for _, s := range cf.skip {
		id, why, _ := strings.Cut(s, "=")
		if !check.KnownRule(id) {
			return opt, fmt.Errorf("--skip %q: no such rule (--rules lists them)", id)
		}
		if why == "" {
			why = "no reason given"
		}
		opt.Skip[id] = why
	}
	if len(cf.args) > len(cf.calls) {
		return opt, fmt.Errorf("%d --args for %d --call (they pair in order)", len(cf.args), len(cf.calls))
	}
	for i, tool := range cf.calls {
		call := check.Call{Tool: tool}
		if i < len(cf.args) {
			if err := argsObject(cf.args[i]); err != nil {
				shown := "'" + cf.args[i] + "'"
				if strings.ContainsAny(cf.args[i], "'\n") {
					shown = fmt.Sprintf("%q", cf.args[i])
				}
				return opt, fmt.Errorf("--args %s (for --call %s) %v: give the tool's arguments as one JSON object of name: value, quoted for the shell, e.g. --args '{\"a\": 1}'", shown, tool, err)
			}
			call.Args = json.RawMessage(cf.args[i])
		}
		opt.Calls = append(opt.Calls, call)
	}
	if cf.maxReads < 0 {
		return opt, fmt.Errorf("--max-reads %d: must not be negative", cf.maxReads)
	}
	return opt, nil
}

// argsObject says what is wrong with an --args value that is not a JSON object: "is not
// valid JSON (…)", "is an array, not a JSON object".
func argsObject(raw string) error {
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("is not valid JSON (%s, at byte %d)", strings.TrimPrefix(se.Error(), "json: "), se.Offset)
		}
		return fmt.Errorf("is not valid JSON (%s)", strings.TrimPrefix(err.Error(), "json: "))
	}
	kind := ""
	switch v.(type) {
	case map[string]any:
		return nil
	case []any:
		kind = "an array"
	case string:
		kind = "a string"
	case float64:
		kind = "a number"
	case bool:
		kind = "a boolean"
	default:
		kind = "null"
	}
	return fmt.Errorf("is %s, not a JSON object", kind)
}

// jsonCheck is what check --json prints: the report, the exit code, and the error that
// stopped the check early.
type jsonCheck struct {
	*check.Report
	Error    string `json:"error,omitempty"`
	ExitCode int    `json:"exitCode"`
}

func runCheck(cmd *cobra.Command, flags *headlessFlags, cf *checkFlags, args []string) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	argv := args
	if dash := cmd.ArgsLenAtDash(); dash > 0 {
		return &codeError{exitUsage, fmt.Sprintf("check: unexpected arguments before --: %q", args[:dash])}
	}
	opt, err := cf.options()
	if err != nil {
		return &codeError{exitUsage, err.Error()}
	}
	// The JUnit file (new, 0600, renamed over FILE: never through a symlink) is opened first:
	// a path that cannot be written is a usage error at once, not a report lost after the run.
	var junit *os.File
	if cf.junit != "" {
		if junit, err = platform.CreatePrivate(cf.junit, true); err != nil {
			return &codeError{exitUsage, "check: --junit: " + err.Error()}
		}
		defer junit.Close()
	}
	h := newHeadless(cmd, flags, "check")
	cfg, target, err := flags.src.resolve(&flags.session, argv, h.noteWriter())
	if err != nil {
		return &codeError{exitUsage, err.Error()}
	}
	logger, closeLog := openLog(flags.session.logFile, flags.session.debug)
	defer closeLog()
	// Every check keeps its traces (in the session store unless --record FILE or --no-save),
	// so the events its report cites can be opened afterwards.
	if err := shortTracesFree(&flags.session.rec, h.noteWriter()); err != nil {
		return &codeError{exitUsage, err.Error()}
	}
	rec, err := flags.session.rec.start(&cfg, logger, h.noteWriter())
	if err != nil {
		return &codeError{exitUsage, err.Error()}
	}
	opt.Server, opt.Target = cfg, target
	if rec.path() != "" {
		opt.Trace = rec.path()
		opt.Record = func(name string, scfg *mcpclient.Config) (string, func()) {
			rf := flags.session.rec
			rf.file = shortTrace(rec.path(), name)
			sr, err := rf.start(scfg, logger, io.Discard) // --no-redact was warned about once
			if err != nil || sr.path() == "" {
				fmt.Fprintf(h.noteWriter(), "mcp-inspect: warning: the %s session is not recorded: %v\n", name, err)
				return "", nil
			}
			return sr.path(), func() { sr.close(logger, h.noteWriter()) }
		}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), platform.StopSignals()...)
	defer stop()
	rep, err := check.Run(ctx, opt)
	rec.close(logger, h.noteWriter())
	code := exitOK
	var se *check.StartError
	switch {
	case errors.As(err, &se):
		code = exitNoServer
	case err != nil && errors.Is(err, context.Canceled):
		code = exitInterrupted
	case rep.Failed():
		code = exitCheckFailed
	}
	if junit != nil {
		if jerr := writeJUnit(junit, rep, cf.junitWarningsFail); jerr != nil {
			fmt.Fprintln(stderr, "mcp-inspect check: --junit:", jerr)
			if code == exitOK || code == exitCheckFailed {
				code = exitUsage // the report CI reads is missing: never a pass
			}
		}
	}
	if flags.json {
		doc := jsonCheck{Report: rep, ExitCode: code}
		if err != nil {
			doc.Error = err.Error()
		}
		if werr := writeJSON(stdout, doc); werr != nil {
			return werr
		}
	} else {
		// The report is for reading, wherever it goes (a CI log, `| tee`, a file shown
		// later): server text in it is escaped always; --json carries the exact strings.
		rep.Human(stdout, func(s string) string { return sanitize.String(s, sanitize.Text) })
		if line := evidence(rep, rec.path()); line != "" {
			fmt.Fprintln(stdout, line)
		}
	}
	switch code {
	case exitOK:
		return nil
	case exitCheckFailed:
		return &codeError{code, ""}
	case exitInterrupted:
		return &codeError{code, "check interrupted; the report above is partial"}
	}
	if err == nil {
		return &codeError{code, ""} // said above (the JUnit file)
	}
	return &codeError{code, stderrSafe(stderr)(err.Error())}
}

// evidence is the report's last line: where the events it cites can be opened, as the
// command that shows the first event a failure (else a warning) cites, or the main
// session's trace when nothing failed; "" when no trace was kept (--no-save).
func evidence(rep *check.Report, mainTrace string) string {
	if mainTrace == "" {
		return ""
	}
	q := lineQuoting()
	for _, st := range []check.Status{check.StatusFail, check.StatusWarn} {
		for _, res := range rep.Results {
			if res.Status != st {
				continue
			}
			for _, f := range res.Findings {
				for _, ev := range f.Events {
					if ev.Trace != "" {
						return fmt.Sprintf("evidence: %s shows %s's first cited event (%s); each session's trace is kept beside %s",
							q.Join([]string{"mcp-inspect", "open", ev.Trace, "--at", strconv.FormatUint(ev.Seq, 10)}), res.ID, ev, filepath.Base(mainTrace))
					}
				}
			}
		}
	}
	return "traces kept: " + q.Join([]string{"mcp-inspect", "open", mainTrace}) + " (each session's beside it)"
}

// shortTrace is the trace file of short session name beside the --record FILE:
// check.jsonl → check.version-future.jsonl.
func shortTrace(file, name string) string {
	ext := filepath.Ext(file)
	return strings.TrimSuffix(file, ext) + "." + name + ext
}

// shortTracesFree refuses, before the check starts, a --record FILE that exists or whose
// short-session siblings exist (without --overwrite): they are created on the way, and the
// run should not stop there. The refusal names FILE first when it exists, then the others.
// With --overwrite, siblings left by an earlier run are removed (regular files with the
// names check writes, nothing else), so that none of them is taken for this run's; they are
// named in one line on notes (stderr unless --quiet).
func shortTracesFree(r *recordFlags, notes io.Writer) error {
	if err := r.check(); err != nil {
		return err
	}
	if r.file == "" {
		return nil
	}
	var siblings []string
	for _, name := range check.ShortSessions() {
		if p := shortTrace(r.file, name); pathExists(p) {
			siblings = append(siblings, p)
		}
	}
	if r.overwrite {
		var removed []string
		for _, p := range siblings {
			if st, err := os.Lstat(p); err != nil || !st.Mode().IsRegular() {
				continue // a link or a directory is not a trace this command wrote
			}
			if err := os.Remove(p); err != nil {
				return fmt.Errorf("--record %s --overwrite: cannot remove %s, an earlier check's trace: %v", r.file, p, err)
			}
			removed = append(removed, p)
		}
		if len(removed) > 0 {
			fmt.Fprintf(notes, "mcp-inspect: note: --overwrite: removed the traces an earlier check left beside %s (%s); this run writes its own\n", r.file, strings.Join(removed, ", "))
		}
		return nil
	}
	there := siblings
	if pathExists(r.file) {
		there = append([]string{r.file}, siblings...)
	}
	switch len(there) {
	case 0:
		return nil
	case 1:
		return existsErr(there[0])
	}
	return fmt.Errorf("--record %s: the file exists, and so do %s (check writes its short sessions beside FILE); they are left as they are; record to another name, remove them first, or add --overwrite to replace them", there[0], strings.Join(there[1:], ", "))
}

// pathExists reports whether anything (a file, a link) is at p.
func pathExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// writeJUnit writes rep as JUnit XML to f and closes it.
func writeJUnit(f *os.File, rep *check.Report, warningsFail bool) error {
	if err := rep.JUnit(f, check.JUnitOptions{WarningsFail: warningsFail}); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
