package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/oauth"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// The headless commands' event drain: what the server says besides the answer (stderr,
// log messages, problems of its frames) goes to stderr as it comes.

// drain reads the session's events: the server's stderr and log messages go to our stderr
// (unless --quiet), framing problems become warnings, and the handshake's raw result is kept.
type drain struct {
	h    *headless
	done chan struct{}

	mu           sync.Mutex
	handshake    json.RawMessage
	gotHandshake chan struct{}

	// notes counts the server frames with an Info problem (a line ending in \r\n, …) by
	// code, in the order first seen: the wire pane's notes, said once at the end.
	notes []noteCount
	// warned counts the server frames with a Warning problem by code; past repeatWarnings
	// of one code the rest go to the log only, and sayNotes says how many there were.
	warned map[mcpclient.ProblemCode]int
	// repeats is the codes with more than repeatWarnings frames, in the order first seen.
	repeats []mcpclient.ProblemCode
	// stderrOpen says the server's last stderr frame left its line unfinished.
	stderrOpen bool
}

// noteCount is how many server frames carried an Info problem, and the first one's text.
type noteCount struct {
	code  mcpclient.ProblemCode
	n     int
	first string
	line  int64
}

// frameWhere names where a server frame was: its stdout line, or for a remote server its
// number among the messages of the HTTP bodies and streams (there is no stdout).
func (h *headless) frameWhere(line int64) string {
	if h.client != nil && h.client.URL() != "" {
		return fmt.Sprintf("server message %d (HTTP body or stream)", line)
	}
	return fmt.Sprintf("server stdout line %d", line)
}

// note counts an Info problem of a server frame.
func (d *drain) note(p mcpclient.Problem, line int64) {
	for i := range d.notes {
		if d.notes[i].code == p.Code {
			d.notes[i].n++
			return
		}
	}
	d.notes = append(d.notes, noteCount{code: p.Code, n: 1, first: p.Text, line: line})
}

// serverStderr passes a frame of the server's stderr on to ours: to a file or pipe as its
// bytes; to a terminal sanitized, a redraw ('\r', a progress bar) drawn over its line and
// an unfinished line left open for what continues it, as the server's own terminal would.
func (d *drain) serverStderr(raw []byte, safe func(string) string) {
	d.stderrOpen = !mcpclient.StderrEnds(raw)
	if !isTerminal(d.h.stderr) {
		d.h.stderr.Write(raw)
		return
	}
	var b strings.Builder
	if mcpclient.StderrRedraws(raw) {
		b.WriteByte('\r') // back to the line's start: the new state is drawn over the old
	}
	b.WriteString(safe(mcpclient.StderrText(raw)))
	if !d.stderrOpen {
		b.WriteString("\n")
	}
	io.WriteString(d.h.stderr, b.String())
}

// endStderr ends the server's unfinished stderr line, so what we write next starts a line.
func (d *drain) endStderr() {
	if d.stderrOpen {
		io.WriteString(d.h.stderr, "\n")
	}
}

// repeatWarnings is how many server frames with the same Warning problem (by code) are
// warned about one by one: a server that breaks one rule on every call (bench call makes
// tens of thousands) would otherwise fill the terminal and the --json warnings with one
// line, and push out a different one that comes later.
const repeatWarnings = 3

// warnFrame warns about a Warning problem of the server frame on line, or, past
// repeatWarnings frames of its code, only logs it and counts it for sayNotes.
func (d *drain) warnFrame(p mcpclient.Problem, line int64) {
	if d.warned == nil {
		d.warned = map[mcpclient.ProblemCode]int{}
	}
	d.warned[p.Code]++
	msg := fmt.Sprintf("%s: %s", d.h.frameWhere(line), p.Text)
	switch n := d.warned[p.Code]; {
	case n <= repeatWarnings:
		d.h.warn("%s", msg)
		return
	case n == repeatWarnings+1:
		d.repeats = append(d.repeats, p.Code)
	}
	if d.h.logger != nil {
		d.h.logger.Warn(msg)
	}
}

// sayNotes warns once per Info problem code the server's frames carried, and how many
// more frames had a Warning problem already warned about repeatWarnings times.
func (d *drain) sayNotes() {
	for _, n := range d.notes {
		msg := fmt.Sprintf("note: %s: %s [%s; %d frame(s) in all]", d.h.frameWhere(n.line), n.first, n.code, n.n)
		if d.h.signalled.Load() && (n.code == mcpclient.CodeAfterCancel || n.code == mcpclient.CodeProgressAfterCancel) {
			// The user's Ctrl-C cancelled those requests: what the server still sent for
			// them is no fault of its own. The log keeps it.
			if d.h.logger != nil {
				d.h.logger.Info(msg)
			}
			continue
		}
		d.h.warn("%s", msg)
	}
	for _, code := range d.repeats {
		d.h.warn("%d more server frame(s) with the problem above [%s] (the log file and a --record trace have each)", d.warned[code]-repeatWarnings, code)
	}
}

// drainWants is the drain's mcpclient.Config.EventFilter: the events its loop acts on, when
// it does not log every event (debug). It leaves out what the client sent and the server's
// responses that carry no problem, other than the handshake's: a call's two clean frames,
// which at bench call's rate cost a queue push and a hand-over each for nothing.
func drainWants(ev mcpclient.Event) bool {
	switch {
	case ev.Kind == mcpclient.KindStderr || ev.Kind == mcpclient.KindLifecycle:
		return true
	case ev.Dir != mcpclient.ServerToClient:
		return false
	case ev.Kind == mcpclient.KindResponse:
		return len(ev.Problems) > 0 || ev.Method == "initialize" || ev.Method == "server/discover"
	}
	return true
}

func startDrain(c *mcpclient.Client, h *headless) *drain {
	d := &drain{h: h, done: make(chan struct{}), gotHandshake: make(chan struct{})}
	go d.loop(c.Events())
	return d
}

func (d *drain) loop(events <-chan mcpclient.Event) {
	defer close(d.done)
	defer d.sayNotes()
	defer d.endStderr()
	h := d.h
	safe := stderrSafe(h.stderr)
	debug := h.logger.Enabled(context.Background(), slog.LevelDebug)
	for ev := range events {
		if debug {
			h.logger.Debug("event", "seq", ev.Seq, "dir", ev.Dir.String(), "kind", ev.Kind.String(), "raw", string(ev.Raw))
		}
		switch {
		case ev.Kind == mcpclient.KindStderr:
			if !h.flags.quiet {
				d.serverStderr(ev.Raw, safe)
			}
		case ev.Dir == mcpclient.ServerToClient:
			for _, p := range ev.Problems {
				switch p.Severity {
				case mcpclient.Warning:
					d.warnFrame(p, ev.Line)
				case mcpclient.Info:
					d.note(p, ev.Line)
				}
			}
			if ev.Kind == mcpclient.KindResponse && (ev.Method == "initialize" || ev.Method == "server/discover") {
				d.mu.Lock()
				if d.handshake == nil {
					d.handshake = append(json.RawMessage(nil), ev.Msg.Result...)
					close(d.gotHandshake)
				}
				d.mu.Unlock()
			}
			if ev.Kind == mcpclient.KindNotification && ev.Msg.Method == "notifications/message" && !h.flags.quiet {
				io.WriteString(h.stderr, safe(logLine(ev.Msg.Params))+"\n")
			}
			if ev.Kind == mcpclient.KindBatch && ev.Batch != nil && !h.flags.quiet {
				// A batch's log messages are printed like single ones, in the array's order.
				for _, el := range ev.Batch.Elems {
					if el.Kind == mcpclient.KindNotification && el.Msg != nil && el.Msg.Method == "notifications/message" {
						io.WriteString(h.stderr, safe(logLine(el.Msg.Params))+"\n")
					}
				}
			}
		case ev.Kind == mcpclient.KindLifecycle && ev.Life != nil:
			h.logger.Info("lifecycle", "text", ev.Life.Text)
			if strings.HasPrefix(ev.Life.Text, mcpclient.FramingAutoNote) || strings.HasPrefix(ev.Life.Text, mcpclient.RedirectNote) || strings.HasPrefix(ev.Life.Text, mcpclient.SilenceNote) || strings.HasPrefix(ev.Life.Text, mcpclient.BufferedNote) {
				h.warn("%s", ev.Life.Text) // what the client does about the server's framing, or why it waits
			}
			if strings.HasPrefix(ev.Life.Text, oauth.StepNote) {
				h.warnMu.Lock()
				h.doc.OAuth = append(h.doc.OAuth, ev.Life.Text)
				h.warnMu.Unlock()
			}
		}
	}
}

// handshakeResult waits briefly for the drain to see the handshake's response and returns
// its raw result (the InitializeResult or DiscoverResult exactly as received).
func (d *drain) handshakeResult() json.RawMessage {
	select {
	case <-d.gotHandshake:
	case <-time.After(2 * time.Second):
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.handshake
}

// wait returns when every event has been handled (bounded: a grandchild holding the
// server's pipes open must not hang the command).
func (d *drain) wait() {
	select {
	case <-d.done:
	case <-time.After(3 * time.Second):
	}
}

// act runs the command's requests; with --reinit, when the server dropped the session they
// run again, once, in a new session, and a warning says so.
func (h *headless) act(ctx context.Context, act action) (*outcome, error) {
	out, err := act(ctx, h)
	var se *mcpclient.SessionExpiredError
	if err == nil || !h.flags.reinit || !errors.As(err, &se) {
		return out, err
	}
	init, cerr := h.client.Connect(ctx)
	if cerr != nil {
		return out, fmt.Errorf("%w; --reinit: a new session failed too: %w", err, cerr)
	}
	h.init = init
	h.warn("%s; --reinit: new session %s, requests sent again once", se.Error(), h.client.SessionID())
	return act(ctx, h)
}

// followOptions are how a headless command follows a tool call that runs as a task: the
// features its client declared, and the follower's warnings as warnings.
func (h *headless) followOptions() session.FollowOptions {
	return session.FollowOptions{
		Features: session.ClientFeatures{NoTasks: !h.client.DeclaresTasks()},
		Note: func(n session.Note) {
			if n.Level != session.Info {
				h.warn("%s", n.Text)
			}
		},
	}
}
