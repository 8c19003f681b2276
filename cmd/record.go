package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/mcp-inspect/mcp-inspect/internal/otlpexport"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// recordFlags are the trace flags of every command that spawns a server.
type recordFlags struct {
	file     string
	redact   []string
	noRedact bool
	noSave   bool
	// overwrite lets --record replace an existing FILE; without it the file is created
	// with O_EXCL and an existing one is an error.
	overwrite bool
	// maxStore caps the bytes of the sessions kept in the state directory (the settings
	// file's sessions_max_size; 0: trace.DefaultMaxBytes). --record FILE is never capped.
	maxStore int64
	// otlp sends the session's spans and metrics to an OpenTelemetry receiver (--otlp).
	otlp otlpFlags
}

func (r *recordFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&r.file, "record", "", "write the session's trace to `FILE` (default: sessions are kept 30 days, at most 1 GiB, in the user state directory)")
	fl.StringArrayVar(&r.redact, "redact", nil, "also scrub what `REGEX` matches from the recorded bytes (repeatable; RE2 syntax)")
	fl.BoolVar(&r.noRedact, "no-redact", false, "record env values, tokens and --redact matches in clear (for local use only)")
	fl.BoolVar(&r.noSave, "no-save", false, "do not keep this session in the user state directory (--record still writes FILE; without it the TUI holds the newest 32 MiB of frames)")
	fl.BoolVar(&r.overwrite, "overwrite", false, "let --record replace FILE when it exists, with a new file of mode 0600 (a symlink is replaced, never followed; default: refuse, and leave the file as it is)")
	r.otlp.add(fl)
}

// existsErr is the message for a --record FILE that exists.
func existsErr(path string) error {
	return fmt.Errorf("--record %s: the file exists and is left as it is; record to another name, remove it first, or add --overwrite to replace it", path)
}

// errRecordStdout refuses --record -: a trace is a file (check writes siblings beside it,
// the TUI reads a flood's bytes back from it), and stdout carries the command's output.
var errRecordStdout = errors.New("--record -: traces are written to files, not to stdout (which carries the command's output); give a file name, e.g. --record trace.jsonl, and follow it while it grows with tail -f trace.jsonl")

// check refuses a --record value that cannot name a trace file ("-"), before anything starts.
func (r *recordFlags) check() error {
	if r.file == "-" {
		return errRecordStdout
	}
	return nil
}

// recording is one session's trace being written.
type recording struct {
	w    *trace.Writer
	red  *trace.Redactor
	auto bool // in the state directory, not a --record file
	// store keeps the state directory's sessions within their bounds (auto only).
	store *sessionStore
	// log is the session's logger (where saveAs says it tightened saved/).
	log *slog.Logger
	// otlp exports the session's events (--otlp; nil without), flushed by close.
	otlp    *otlpexport.Exporter
	otlpURL string
}

// redactor builds the session's redactor (nil with --no-redact).
func (r *recordFlags) redactor(cfg *mcpclient.Config) (*trace.Redactor, error) {
	if r.noRedact {
		return nil, nil
	}
	return trace.NewRedactor(r.redactConfig(cfg))
}

// redactConfig is what the session's secrets are: its -e values, argv, headers and the
// --redact patterns.
func (r *recordFlags) redactConfig(cfg *mcpclient.Config) trace.RedactConfig {
	return trace.RedactConfig{
		Env:       cfg.Env,
		Inherited: os.Environ(),
		Argv:      serverArgv(cfg),
		Patterns:  r.redact,
		Headers:   headerLines(cfg.Header),
	}
}

// start opens the session's trace and hooks it to cfg.OnEvents (any OnEvents already set
// is still called). The trace is the --record file, or a new file in the state directory's
// sessions/, kept 30 days and within the size cap. A --record file that cannot be created or a
// bad --redact pattern is an error; trouble with the state directory is only logged: the
// session goes on unrecorded. The kept sessions are also capped in size (maxStore), the
// oldest pruned first, never a running one. It returns a recording even then, for its redactor.
func (r *recordFlags) start(cfg *mcpclient.Config, logger *slog.Logger, stderr io.Writer) (*recording, error) {
	return r.startNth(cfg, logger, stderr, 0)
}

// startNth is start for the n-th restart of a TUI session (0: the first session). A
// restarted session never overwrites a trace, this run's or an earlier one's: --record
// FILE.jsonl becomes the first free name of FILE-restartN.jsonl, FILE-restartN-2.jsonl, …,
// created with O_EXCL whatever --overwrite says (it is for FILE itself). Kept sessions have
// a new name anyway.
func (r *recordFlags) startNth(cfg *mcpclient.Config, logger *slog.Logger, stderr io.Writer, n int) (*recording, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	red, err := r.redactor(cfg)
	if err != nil {
		return nil, err
	}
	rec := &recording{red: red, log: logger}
	if err := rec.startOTLP(cfg, r, logger); err != nil {
		return nil, err
	}
	path := r.file
	restart := path != "" && n > 0
	if path == "" {
		if r.noSave {
			return rec, nil
		}
		// The state directory's sessions/, private (stateSubdir says so if it had to
		// tighten it).
		dir, err := stateSubdir(logger, stderr, "sessions")
		if err != nil {
			logger.Warn("cannot keep the session: no state directory", "err", err)
			return rec, nil
		}
		path = trace.SessionPath(dir, time.Now(), os.Getpid())
		rec.auto = true
	}
	cwd := cfg.Dir
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	era := string(cfg.Era)
	if era == "" {
		era = string(mcpclient.EraLegacy)
	}
	h := trace.Header{
		Tool:            "mcp-inspect",
		ToolVersion:     Version(),
		Argv:            serverArgv(cfg),
		Cwd:             cwd,
		Env:             cfg.Env,
		Era:             era,
		Framing:         traceFraming(cfg.Framing),
		ProtocolVersion: cfg.ProtocolVersion,
	}
	if cfg.URL != "" {
		h.Transport, h.URL = string(cfg.Transport), cfg.URL
		if h.Transport == "" {
			h.Transport = string(mcpclient.TransportHTTP)
		}
	}
	var w *trace.Writer
	switch {
	case restart:
		w, path, err = createRestart(path, n, h, red)
	case r.overwrite && !rec.auto:
		w, err = trace.Create(path, h, red)
	default:
		w, err = trace.CreateNew(path, h, red) // never replace a file: O_EXCL
	}
	if err != nil {
		if rec.auto {
			logger.Warn("cannot keep the session", "path", path, "err", err)
			return rec, nil
		}
		if errors.Is(err, fs.ErrExist) {
			return nil, existsErr(path)
		}
		return nil, fmt.Errorf("--record: %w", err)
	}
	rec.w = w
	if r.noRedact {
		fmt.Fprintf(stderr, "mcp-inspect: warning: --no-redact: %s will hold env values and tokens in clear\n", path)
		logger.Warn("recording without redaction", "path", path)
	}
	logger.Info("recording session", "path", path)
	// Runs of events, one write(2) each (OnEvents comes before any OnEvent of a run).
	prev := cfg.OnEvents
	cfg.OnEvents = func(evs []mcpclient.Event) {
		w.ObserveAll(evs)
		if prev != nil {
			prev(evs)
		}
	}
	if rec.auto {
		rec.store = newSessionStore(filepath.Dir(path), path, r.maxStore, logger, nil)
		rec.store.watch()
	}
	return rec, nil
}

// createRestart creates the --record file of the n-th restart under the first free name of
// FILE-restartN.jsonl, FILE-restartN-2.jsonl, … (O_EXCL each time, so a file that appears
// meanwhile is skipped, never replaced) and returns it with its path.
func createRestart(path string, n int, h trace.Header, red *trace.Redactor) (*trace.Writer, string, error) {
	ext := filepath.Ext(path)
	stem := fmt.Sprintf("%s-restart%d", strings.TrimSuffix(path, ext), n)
	p := stem + ext
	for k := 2; ; k++ {
		w, err := trace.CreateNew(p, h, red)
		if err == nil || !errors.Is(err, fs.ErrExist) || k >= 1000 {
			return w, p, err
		}
		p = fmt.Sprintf("%s-%d%s", stem, k, ext)
	}
}

// logger returns l with every line scrubbed by the session's redactor (l itself with
// --no-redact).
func (rec *recording) logger(l *slog.Logger) *slog.Logger {
	if rec == nil || rec.red == nil {
		return l
	}
	return slog.New(rec.red.Handler(l.Handler()))
}

// saveAs copies the session recorded so far to the state directory's saved/NAME.jsonl,
// which pruning never touches, and returns the path; a name already saved is refused ("NAME
// exists: choose another name"), never replaced. It is the TUI's "save this session"
// key (ui.Options.SaveSession).
func (rec *recording) saveAs(name string) (string, error) {
	if rec == nil || rec.w == nil {
		return "", fmt.Errorf("this session is not being recorded (--no-save)")
	}
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r < ' ' {
			return '-'
		}
		return r
	}, strings.TrimSpace(strings.TrimSuffix(name, ".jsonl")))
	if name == "" || name == "." || name == ".." {
		return "", fmt.Errorf("a session needs a name")
	}
	// The TUI is on the screen: what stateSubdir has to say goes to the log alone.
	log := rec.log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	dir, err := stateSubdir(log, io.Discard, "saved")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, name+".jsonl")
	if err := rec.w.CopyTo(path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("%s exists: choose another name", name)
		}
		return "", err
	}
	return path, nil
}

// path is the trace file, "" when the session is not recorded.
func (rec *recording) path() string {
	if rec == nil || rec.w == nil {
		return ""
	}
	return rec.w.Path()
}

// readBack makes the recording index its events and returns how to read one back by Seq
// (ui.Options.ReadBack), or nil when the session is not recorded. Called before the client
// starts, so every event can be read back.
func (rec *recording) readBack() func(seq uint64) (mcpclient.Event, error) {
	if rec == nil || rec.w == nil {
		return nil
	}
	rec.w.IndexEvents()
	return rec.w.EventBySeq
}

// argv is the command line as it may be logged: token-looking values masked.
func (rec *recording) argv(cfg *mcpclient.Config) []string {
	argv := serverArgv(cfg)
	if rec == nil {
		return argv
	}
	return rec.red.Argv(argv)
}

// discardKept closes and removes a trace kept in the state directory (not a --record file):
// it is for a session that never started, whose trace would hold nothing but the failure.
func (rec *recording) discardKept(logger *slog.Logger) {
	if rec == nil || rec.w == nil || !rec.auto {
		return
	}
	path := rec.w.Path()
	rec.w.Close()
	rec.store.end()
	rec.store = nil
	if err := os.Remove(path); err != nil {
		logger.Warn("removing the trace of a session that never started", "path", path, "err", err)
	}
	rec.w = nil
}

// storeNotices is what the session store said so far of the young sessions it removed
// (nil without a store).
func (rec *recording) storeNotices() []string {
	if rec == nil {
		return nil
	}
	return rec.store.youngNotices()
}

// close finishes the trace (after the client has closed, so every event is in) and says
// where it is.
func (rec *recording) close(logger *slog.Logger, stderr io.Writer) {
	if rec == nil {
		return
	}
	finishOTLP(rec.otlp, rec.otlpURL, stderr, "mcp-inspect: ")
	rec.otlp = nil
	if rec.w == nil {
		return
	}
	err := rec.w.Close()
	rec.store.end()
	for _, n := range rec.store.youngNotices() {
		fmt.Fprintf(stderr, "mcp-inspect: %s\n", n)
	}
	if n := rec.store.notice(); n != "" {
		fmt.Fprintf(stderr, "mcp-inspect: %s\n", n)
	}
	events, bytes := rec.w.Count()
	if err != nil {
		logger.Error("recording failed", "path", rec.w.Path(), "err", err)
		fmt.Fprintf(stderr, "mcp-inspect: recording %s failed: %v\n", rec.w.Path(), err)
		return
	}
	logger.Info("session recorded", "path", rec.w.Path(), "events", events, "bytes", bytes)
	if rec.auto {
		// The UI has no place for it yet: say it once the screen is back.
		fmt.Fprintf(stderr, "mcp-inspect: session kept in %s\n", rec.w.Path())
		return
	}
	fmt.Fprintf(stderr, "mcp-inspect: session recorded to %s (%d events)\n", rec.w.Path(), events)
}

// serverArgv is the server's command line, or its URL alone for a remote server.
func serverArgv(cfg *mcpclient.Config) []string {
	if cfg.URL != "" {
		return []string{cfg.URL}
	}
	return append([]string{cfg.Command}, cfg.Args...)
}

// headerLines gives HTTP headers as "Name: value" lines, for the redactor.
func headerLines(h http.Header) []string {
	var out []string
	for k, vs := range h {
		for _, v := range vs {
			out = append(out, k+": "+v)
		}
	}
	return out
}

// startOTLP hooks the exporter --otlp asks for to cfg.OnEvent (the client's events come
// classified, paired and owned), whatever happens to the trace.
func (rec *recording) startOTLP(cfg *mcpclient.Config, r *recordFlags, logger *slog.Logger) error {
	o := &r.otlp
	transport := "pipe"
	if cfg.URL != "" {
		transport = "tcp"
	}
	// Bodies are masked with the session's secrets even when the trace is not (--no-redact).
	red, _ := trace.NewRedactor(r.redactConfig(cfg))
	x, err := o.start(context.Background(), transport, false, logger, red)
	if err != nil || x == nil {
		return err
	}
	rec.otlp, rec.otlpURL = x, o.url
	prev := cfg.OnEvent
	cfg.OnEvent = func(ev mcpclient.Event) {
		x.Observe(ev)
		if prev != nil {
			prev(ev)
		}
	}
	return nil
}
