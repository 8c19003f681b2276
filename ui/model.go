// Package ui is mcp-inspect's terminal interface: one root model owning focus, layout and
// routing, with typed panes (tools, call form and result, wire, server). It talks to the
// server only through mcpclient, receives the session timeline through one ordered channel
// pump, and passes every server-supplied string through internal/sanitize before drawing it.
package ui

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/media"
	"github.com/mcp-inspect/mcp-inspect/internal/repeatcmd"
	"github.com/mcp-inspect/mcp-inspect/internal/shellwords"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// Options configure a TUI session.
type Options struct {
	// Client is the live session. When set, Session and Events default to it.
	Client *mcpclient.Client
	// Session is the client the live session (session.Live) runs on: *mcpclient.Client,
	// or a fake in tests; nil means offline (a trace viewer): no handshake, no calls.
	Session session.Conn
	// Events is the ordered timeline; defaults to Client.Events().
	Events <-chan mcpclient.Event
	// Title names the session in the header, e.g. the command line.
	Title string
	// Argv is the server's command line for the dead-server panel; defaults to Client.Argv().
	Argv []string
	// Quoting is the shell syntax command lines are shown, copied and edited in (the zero
	// value is POSIX sh; cmd passes shellwords.For(runtime.GOOS)).
	Quoting shellwords.Quoting
	// SystemClipboard, when set, also gets every copy (cmd passes
	// platform.SystemClipboard: pbcopy on macOS, the Windows clipboard); via names it in
	// the copy's note. Nil: the terminal's clipboard (OSC 52) and the file fallback only.
	SystemClipboard func(text string) (via string, err error)
	// EnvKeys are the names of the environment variables the user set for the server (-e
	// KEY=VALUE), in order; the Server pane and the dead-server panel show them as
	// KEY=*** (values never reach the UI).
	EnvKeys []string
	// Headers are the HTTP headers the user set (-H, --bearer-env) as "copy as command"
	// lines write them: credentials as $NAME references (their values never reach the UI),
	// other headers as set.
	Headers []repeatcmd.Header
	// Timeout is the per-request timeout (--timeout), shown while the handshake waits; 0
	// leaves it unsaid.
	Timeout time.Duration
	// Tick is the clock the UI's timers wait on (debounces, redraws, task polls, the
	// cursor's blink, the spinner); nil is tea.Tick, the wall clock. Tests give their own.
	Tick func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd
	// Now is the live session's clock (a multi-round call's time); nil is time.Now.
	// Tests give their own.
	Now func() time.Time
	// Era is the era asked for (--era): with mcpclient.EraAuto the handshake starts with
	// the server/discover probe, and the waiting line says so. ConfigureClient copies it
	// from the client's Config; "" is taken as legacy.
	Era mcpclient.Era
	// Theme is a themes name, or the name of a user theme file in ThemeDir ("" = auto:
	// dark or light, from the terminal's background).
	Theme string
	// ThemeDir is where user theme files are (themes.Dir()); "" finds built-in themes only.
	// Run reads the file; a malformed one is its error.
	ThemeDir string
	// Mouse lets the mouse click tabs, rows and form fields and scroll the pane under the
	// pointer. Off, the terminal keeps the mouse (its own text selection works); cmd turns
	// it on unless the config file says no.
	Mouse bool
	// Split is the list's share of a pane beside its detail (Tools, Wire, Resources,
	// Prompts, Logs, Tasks) in percent, 20 to 80; 0 keeps each pane's default. The split
	// keys move it for the session (the settings file's split gives it at start).
	Split int
	// palette is the user theme Run loaded from ThemeDir (nil: Theme is built in).
	palette *themes.Palette
	// NoColor drops colors (the NO_COLOR convention); Run also honors the environment.
	NoColor bool
	// Logger receives debug logs of message types; nil discards.
	Logger *slog.Logger
	// Context bounds the handshake and calls; nil means context.Background().
	Context context.Context
	// HistoryDir is where the last arguments sent to each tool are kept (history.json),
	// normally $XDG_STATE_HOME/mcp-inspect or ~/.local/state/mcp-inspect; "" keeps no
	// history on disk (only for this session).
	HistoryDir string

	// Features turns client capabilities off (--no-sampling and the like); the zero value
	// offers everything. ConfigureClient advertises them; the UI answers -32601 itself for
	// server requests they do not cover.
	Features session.ClientFeatures
	// Roots are the roots offered to roots/list (--root PATH, repeatable): paths, made
	// absolute file:// URIs, or file:// URIs as given. The user edits them in the TUI.
	Roots []string
	// DefaultRoot is the directory a local server runs in, offered to roots/list as the
	// root when Roots is empty: the start-up roots/list is answered with it at once, with a
	// note saying so, instead of a dialog over the first screen. "" (a remote server, whose
	// host should not learn our paths) leaves the question to the dialog.
	DefaultRoot string
	// Restartable enables the E key: edit the command line and restart the server. Run
	// then returns a Result whose Restart is the command line, and the caller starts the
	// new session.
	Restartable bool
	// Requests delivers server→client requests; ConfigureClient creates it and wires it to
	// the client's Config.OnServerRequest. Nil means no request ever reaches the UI.
	Requests *session.RequestQueue
	// Breakpoints is the holder of an attached tap (attach: its tap.Stream): the b key sets
	// breakpoints (wire filters) through it, and each message it holds opens the hold
	// dialog (forward, edit, drop, answer). The UI calls Set and Decide from tea.Cmds only.
	// Nil: no breakpoint keys or dialogs at all.
	Breakpoints session.Breakpoints

	// ListSessions reads the kept sessions, newest first, for the picker (the Sessions key;
	// called in a Cmd: it reads files). Nil disables the key. PickSession opens the picker
	// at start (mcp-inspect open without a trace): esc then quits.
	ListSessions func() ([]SessionRow, error)
	PickSession  bool
	// SessionPath is the trace this session is being recorded to ("" when not recorded):
	// the Server pane shows it, and the status line says it briefly at start.
	SessionPath string
	// SaveSession copies the session recorded so far under a name and returns where it
	// went; the S key asks for the name. Nil disables the key. The UI calls it only from a
	// tea.Cmd (it writes a file).
	SaveSession func(name string) (string, error)

	// LoadEvent reads one recorded event back by Seq, with its bytes and parsed message
	// (mcp-inspect open: the trace's indexed reader). When set, the timeline keeps a
	// summary of each event (tens of bytes) instead of its bytes, and the panes load the
	// events they show through it, from a tea.Cmd, into a small cache. Nil keeps every
	// event's bytes in memory (a live session).
	LoadEvent func(seq uint64) (mcpclient.Event, error)
	// ReadBack reads one event of a live session back from its recording by Seq
	// (trace.Writer.EventBySeq). When set (and LoadEvent is not), the timeline keeps the
	// bytes of the latest events only and reads older ones back through it when a pane
	// shows them, as for an opened trace: a flood of a million events costs their
	// summaries, not their bytes (#15). Nil keeps every event's bytes (an unrecorded
	// session).
	ReadBack func(seq uint64) (mcpclient.Event, error)
	// NoFile, for a live session with no recording to read back from (ReadBack nil), says
	// why ("--no-save keeps no file"): the timeline then keeps the bytes of its latest
	// frames only, NoFileBytes of them (defaultNoFileBytes when 0), drops the older ones'
	// bytes (their rows stay), and the wire pane says how many were dropped and why. ""
	// keeps every frame's bytes.
	NoFile      string
	NoFileBytes int64
	// TraceLen is the number of events of the trace being opened (0 when unknown or
	// live): the wire pane counts the events read so far against it until Events closes.
	TraceLen int
	// TraceWarnings are what the trace reader found wrong with the file being opened (a
	// last line cut mid-write, unreadable lines): the Server pane lists them and the status
	// bar says the trace is incomplete.
	TraceWarnings []string
	// Warnings are what the command line or the settings file left out (a settings theme
	// that --theme overrides and that does not exist): each shows once in the status line
	// and stays in the Logs pane.
	Warnings []string
	// FromTrace says the events are read from a finished trace file (mcp-inspect open), not
	// a live session (attach): the status bar then never shows a recorded state as live.
	FromTrace bool
	// At is the event (its Seq) an opened trace shows first: once it is read the Wire pane
	// is focused with it selected (mcp-inspect open --at, the command check's report
	// prints for its evidence). 0: none.
	At uint64
	// Redact masks the session's secrets in a frame's bytes (the recorder's redactor): w
	// saves a frame through it, W saves the exact bytes. Nil: frames are saved as they are
	// (an opened trace or a tap's trace was redacted when recorded; --no-redact).
	Redact func([]byte) []byte
	// Input is where keys come from; nil: stdin. `open -` reads the trace from stdin and
	// keys from the terminal (/dev/tty; CONIN$ on Windows).
	Input *os.File
	// ShowCredentials shows HTTP credential header values and OAuth codes and tokens in the
	// wire pane as they were sent (--no-redact). By default they are masked there as traces
	// mask them, so a shared screen does not show them; the bytes sent are never changed.
	ShowCredentials bool
	// Keys are key overrides from the settings file: "group.action" (KeyActions) to the
	// keys that trigger it instead of its defaults. cmd checks them (CheckKeyOverride).
	Keys map[string][]string

	// ImageProtocol is how this terminal shows pictures, as media.Detect read it from the
	// environment at start (cmd does); ImagePreview, when set, overrides it. Auto in both
	// draws half-block thumbnails when the theme has colors, none otherwise.
	ImageProtocol media.Protocol
	ImagePreview  media.Protocol
	// Viewer is the command that opens a saved picture (the OpenMedia key); "" is the
	// system's: open on macOS, explorer.exe on Windows, xdg-open elsewhere.
	Viewer string
}

// common is what every pane shares: styles, keys, logger. Passed down, never global.
type common struct {
	st   *themes.Styles
	keys keyMap
	log  *slog.Logger
	// hist is the per-tool argument history (forms prefill from it).
	hist *history
	// session is the session as the panes read it: live (it can send) or recorded (an
	// opened trace, or a tap seen through attach): forms say so instead of offering to send.
	session session.Session
	// now is the host's clock (model.now: fixed in tests so elapsed times are stable).
	now func() time.Time
	// tick starts the model's own timers (debounces, redraws, task polls, the cursor's
	// blink, the spinner): Options.Tick, tea.Tick by default; tests give a fake clock so
	// that no timer waits on the wall clock.
	tick func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd
	// redact is Options.Redact; reveal is set while the panes show secrets as received
	// (screenmask.go), from the start with Options.ShowCredentials.
	redact func([]byte) []byte
	reveal bool
	// sysClip is Options.SystemClipboard.
	sysClip func(string) (string, error)
	// target is the server "copy as command" lines talk to (model.repeatTarget).
	target func() repeatcmd.Target
	// gfx previews pictures (imagepreview.go); md renders markdown (markdown.go).
	gfx *pictures
	md  *markdown
	// split is the list's share of a pane beside its detail in percent (0: each pane's
	// default; Options.Split, the split keys); zoom gives one side all of the pane.
	split int
	zoom  zoomMode
}

// noServerText is what a pane says before a viewer without a Session has seen a listing:
// opened traces have no server to ask; an attached viewer waits for the host's traffic.
func noServerText(opts Options) string {
	if !opts.FromTrace {
		return "attached: waiting for the host's handshake"
	}
	return "offline: no server to ask"
}

// paneID identifies a tab: its index in model.panes.
type paneID int

const (
	paneTools paneID = iota
	paneCall
	paneWire
	paneServer
	paneResources
	panePrompts
	paneLogs
	paneTasks
	paneCount
)

func (p paneID) String() string {
	return [...]string{"Tools", "Call", "Wire", "Server", "Resources", "Prompts", "Logs", "Tasks"}[p]
}

// launch is how the session was started, from Options.
type launch struct {
	// title names the server (its command line or URL); argv is its command line.
	title string
	argv  []string
	// quoting is Options.Quoting.
	quoting shellwords.Quoting
	// envKeys are the -e variable names (values are never known to the UI); headers are
	// Options.Headers.
	envKeys []string
	headers []repeatcmd.Header
	// timeout is the per-request timeout; eraAsk the era asked for (Options.Era).
	timeout time.Duration
	eraAsk  mcpclient.Era
	// started is when Init began the handshake.
	started time.Time
	// rootPaths are Options.Roots (or Options.DefaultRoot) until their roots are resolved
	// (then nil); heldRoots are the roots/list requests that came before (answered then).
	rootPaths []string
	heldRoots []*session.Inbound
	// defaultRoot is Options.DefaultRoot when it is offered; defaultRootURI its root once
	// resolved, so that an answer with it alone says it is the working directory.
	defaultRoot, defaultRootURI string
}

// flashState is a transient status line, shown until until.
type flashState struct {
	text  string
	until time.Time
}

// model is the root bubbletea model.
type model struct {
	c   *common
	ctx context.Context
	// sess is the session, live (a session.Sender) or recorded (an opened trace, attach).
	sess   session.Session
	events <-chan mcpclient.Event
	// launch is how the session was started: the dead-server panel, restart and the
	// waiting line read it.
	launch launch

	width, height int
	lay           layout
	focus         paneID
	// help is the help page: shown, and the first line shown (it scrolls).
	help struct {
		shown bool
		off   int
		// query narrows the keys listed to those whose key or text holds it; typing is
		// set while it is being typed (after /).
		query  string
		typing bool
	}

	// now is the clock (fixed in tests so elapsed times are stable).
	now func() time.Time
	// pumpSize sizes the event pump's batches (keys first during a flood).
	pumpSize pumpSizer

	tl    *timeline
	wire  *wirePane
	tools *toolsPane
	call  *callPane

	// recording is where the session is recorded and how it is saved under a name.
	recording recordingState
	// kept is the session picker's state: how to list, whether it is the whole TUI, and
	// the trace chosen (Result.Open).
	kept keptSessions

	resources *resourcesPane
	prompts   *promptsPane
	// steps are the listings stepped through a page at a time (by session.List; paging.go).
	steps [session.Prompts + 1]*pageStep
	logs  *logsPane
	tasks *tasksPane
	// panes are the tabs in order (index paneID): the root routes keys, draws and sizes
	// through them.
	panes [paneCount]pane

	// overlay holds the dialogs over the body: server requests, save-as, restart, roots.
	overlay overlay
	// holds is the attach's breakpoints and held messages (breakpoints.go).
	holds holdState
	// dialogGuard ignores keys this soon after a dialog appears, so typing meant for a pane
	// never answers a request that popped up under the fingers.
	dialogGuard time.Duration

	// flash is a transient status line.
	flash flashState

	// pending are Cmds queued by handlers (flash clears, ticks) for Update to return.
	pending []tea.Cmd
	ticking bool

	// restart is the edit-and-restart prompt and the request Run returns.
	restart restartState

	// quitting is set once the user asked to quit.
	quitting bool

	// at is Options.At until that event has been read and shown.
	at uint64

	// theme is how the theme was chosen (auto follows the terminal's background); mouse
	// is Options.Mouse; lastClick is the last left click on a list row (mouse.go).
	theme     themeState
	mouse     bool
	lastClick rowClick
}

// New builds the root model from opts. It does no I/O; Init starts the event pump and the
// handshake.
func newModel(opts Options) *model {
	if opts.Client != nil {
		if opts.Session == nil {
			opts.Session = opts.Client
		}
		if opts.Events == nil {
			opts.Events = opts.Client.Events()
		}
		if opts.Argv == nil {
			opts.Argv = opts.Client.Argv()
		}
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	pal, theme := paletteFor(opts, log)
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	tick := opts.Tick
	if tick == nil {
		tick = tea.Tick
	}
	c := &common{st: themes.Build(pal), keys: withKeyOverrides(defaultKeyMap(), opts.Keys, log), log: log, hist: newHistory(opts.HistoryDir), tick: tick, redact: opts.Redact, sysClip: opts.SystemClipboard}
	if opts.Split > 0 {
		c.split = min(max(opts.Split, splitMin), splitMax)
	}
	c.gfx = newPictures(opts.ImageProtocol, opts.ImagePreview, c.st, systemViewer(opts.Viewer))
	c.md = newMarkdown(c.st)
	c.md.setDark(darkPalette(pal, opts.Theme))
	title := opts.Title
	if title == "" && len(opts.Argv) > 0 {
		title = opts.Quoting.Join(opts.Argv)
	}
	tl := newTimeline()
	tl.showCreds = opts.ShowCredentials
	c.reveal = opts.ShowCredentials
	tl.redact = opts.Redact
	if opts.LoadEvent != nil {
		tl.setLoader(opts.LoadEvent)
	} else if opts.ReadBack != nil {
		tl.setReadBack(opts.ReadBack)
	} else if opts.NoFile != "" {
		tl.setNoFile(opts.NoFile, opts.NoFileBytes)
	}
	m := &model{
		c:      c,
		ctx:    ctx,
		events: opts.Events,
		launch: launch{title: title, argv: opts.Argv, quoting: opts.Quoting, envKeys: opts.EnvKeys, headers: opts.Headers,
			timeout: opts.Timeout, eraAsk: opts.Era, rootPaths: opts.Roots},
		tl:        tl,
		wire:      newWirePane(c, tl),
		tools:     newToolsPane(c, nil),
		call:      newCallPane(c, tl),
		now:       time.Now,
		recording: recordingState{path: opts.SessionPath, save: opts.SaveSession},
		kept:      keptSessions{list: opts.ListSessions, only: opts.PickSession},
		restart:   restartState{enabled: opts.Restartable && opts.Session != nil},
		theme:     theme,
		mouse:     opts.Mouse,
		at:        opts.At,
		holds:     holdState{bp: opts.Breakpoints},
	}
	c.target = m.repeatTarget
	c.now = func() time.Time { return m.now() }
	m.tools.banner = m.toolsBanner
	m.wire.expect = opts.TraceLen
	m.sess = newSession(ctx, opts)
	if opts.FromTrace {
		st := m.state()
		st.FromTrace, st.Incomplete = true, len(opts.TraceWarnings) > 0
		for _, w := range opts.TraceWarnings {
			st.Warnings = append(st.Warnings, "trace: "+w)
		}
	}
	m.newPanes(opts)
	c.session = m.sess
	if len(opts.Roots) == 0 && opts.DefaultRoot != "" {
		m.launch.rootPaths, m.launch.defaultRoot = []string{opts.DefaultRoot}, opts.DefaultRoot
	}
	if rec := m.recorded(); rec != nil {
		m.tools.status = noServerText(opts)
		m.call.past = newPastCalls(rec, c, tl)
		m.call.past.find = &m.call.find
	}
	for _, w := range opts.Warnings {
		m.note("warning", w)
	}
	return m
}

// newSession is the session opts describe: live on opts.Session, else recorded (an opened
// trace, or a tap seen through attach).
func newSession(ctx context.Context, opts Options) session.Session {
	if opts.Session != nil {
		// The session keeps the wall clock (opts.Now, time.Now by default): Live.Call's
		// round times add up with the client's own Elapsed. ui passes m.now where it
		// stamps state itself.
		return session.NewLive(ctx, opts.Session, opts.Features, opts.Requests, opts.Now)
	}
	if opts.FromTrace {
		return session.NewRecorded()
	}
	return session.NewAttached()
}

// sender is the session as a sender; nil for a recorded one, which cannot send.
func (m *model) sender() session.Sender {
	if s, ok := m.sess.(session.Sender); ok {
		return s
	}
	return nil
}

// recorded is the recorded session; nil for a live one.
func (m *model) recorded() *session.Recorded {
	r, _ := m.sess.(*session.Recorded)
	return r
}

// state is the session's handshake and lifecycle facts.
func (m *model) state() *session.State { return m.sess.State() }

// Init starts the event pump and the handshake.
func (m *model) Init() tea.Cmd {
	m.launch.started = m.now()
	return tea.Batch(m.pickAtStart(), pumpEvents(m.events), handshake(m.ctx, m.sender()), m.c.hist.load(), waitRequests(m.sess.Requests()), resolveRoots(m.launch.rootPaths, true), m.waitTick(), m.askBackground(), waitHolds(m.holds.bp))
}

// Run shows the TUI in the alternate screen until the user quits. It does not close the
// client: the caller does, after Run returns.
func Run(ctx context.Context, opts Options) (Result, error) {
	if os.Getenv("NO_COLOR") != "" {
		opts.NoColor = true
	}
	if opts.Context == nil {
		opts.Context = ctx
	}
	if err := loadTheme(&opts); err != nil {
		return Result{}, err
	}
	m := newModel(opts)
	popts := []tea.ProgramOption{tea.WithContext(ctx)}
	if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	p := tea.NewProgram(m, popts...)
	final, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return Result{}, ctx.Err()
	}
	var res Result
	if fm, ok := final.(*model); ok {
		if cancel := fm.call.cancelFunc(); cancel != nil {
			// A call still in flight is abandoned: the client sends notifications/cancelled.
			cancel()
		}
		fm.abandon()
		res = fm.result(err)
	}
	return res, err
}

// result is what Run returns once the program ended with err: the restart asked for, and
// the roots it keeps.
func (m *model) result(err error) Result {
	if err == nil && m.kept.open != "" {
		return Result{Open: m.kept.open}
	}
	if err != nil || m.restart.asked == nil {
		return Result{}
	}
	return Result{Restart: m.restart.asked, Roots: m.rootsToKeep(), Framing: m.restart.framing, Env: m.restart.env}
}

// newPanes builds the panes (m's common bag exists) and their array, in tab order.
func (m *model) newPanes(opts Options) {
	c := m.c
	m.dialogGuard = 400 * time.Millisecond
	ids := &formIDs{}
	m.resources = newResourcesPane(c, m.sess.Inflight(), ids)
	m.prompts = newPromptsPane(c, m.sess.Inflight(), ids)
	m.logs = newLogsPane(c, m.tl)
	m.tasks = newTasksPane(c, m.sess.Tasks())
	m.call.canRead = opts.Session != nil
	if opts.Session == nil {
		m.resources.status, m.prompts.status = noServerText(opts), noServerText(opts)
		// Nothing lists tasks here (r needs a server); the tasks come from the events.
		m.tasks.list.empty = "no tasks in the events: a tools/call answered with a task shows here"
	}
	m.panes = [paneCount]pane{
		paneTools:     m.tools,
		paneCall:      m.call,
		paneWire:      m.wire,
		paneServer:    &serverPane{c: c, draw: m.serverLines},
		paneResources: m.resources,
		panePrompts:   m.prompts,
		paneLogs:      m.logs,
		paneTasks:     m.tasks,
	}
}
