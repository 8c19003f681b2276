package check

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The course's first server (issue 24): framed LSP-style, it reads the newline initialize
// as a header and says nothing. The main session stops waiting once the client finds it
// silent (mcpclient.SilenceNote), and a second copy of the server is asked framed with
// Content-Length; when it answers, the report fails stdout-jsonrpc, names the flag, and runs
// the rest of the battery through that framing, so a student gets a whole report.

// SessionFramed is the session that asks a silent stdio server again, framed with
// Content-Length (LSP-style), and then carries the battery.
const SessionFramed = "content-length"

// connectMain connects the main session; for a stdio server in MCP's framing it gives up as
// soon as the client finds the server silent, the likely LSP-style server (framedRetry).
func (r *run) connectMain(ctx context.Context, w *wire) (*mcpclient.InitializeResult, error) {
	if r.remote || r.opt.Server.Framing != "" && r.opt.Server.Framing != mcpclient.FramingNewline {
		return w.client.Connect(ctx)
	}
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		if _, ok := w.waitFor(cctx, 0, 24*time.Hour, isLSPSilence); ok {
			cancel(&silentError{"the server said nothing"})
		}
	}()
	init, err := w.client.Connect(cctx)
	var se *silentError
	if errors.As(context.Cause(cctx), &se) && ctx.Err() == nil {
		return nil, se
	}
	return init, err
}

// isLSPSilence matches the client's note that the server, silent, is likely framed LSP-style.
func isLSPSilence(ev mcpclient.Event) bool {
	return ev.Life != nil && strings.HasPrefix(ev.Life.Text, mcpclient.SilenceNote) && strings.Contains(ev.Life.Text, "framed LSP-style")
}

// framed is the outcome of framedRetry: the session that now carries the battery.
type framed struct {
	w    *wire
	init *mcpclient.InitializeResult
	err  error
}

// framedRetry asks a silent server again framed with Content-Length, on a copy of its own.
// ok is false when the main session's outcome stands (the server spoke, or it is remote).
func (r *run) framedRetry(ctx context.Context, main *wire, err error) (framed, bool) {
	var se *silentError
	if !errors.As(err, &se) {
		return framed{}, false
	}
	main.client.Close() // it waits for headers it will never get
	cfg := r.opt.Server
	cfg.Framing = mcpclient.FramingContentLength
	w, oerr := r.open(SessionFramed, cfg)
	if oerr != nil {
		msg := silenceOf(main) + "; a copy to ask framed with Content-Length could not be started: " + oerr.Error()
		r.find("init-responds", Must, main.ev(initSeq(main)), "%s", msg)
		return framed{w: main, err: &silentError{msg}}, true
	}
	init, cerr := w.client.Connect(ctx)
	if cerr != nil {
		w.client.Close()
		msg := silenceOf(main) + "; asked again framed with Content-Length (LSP-style) on a copy of its own, it did not answer either: " + cerr.Error()
		r.find("init-responds", Must, main.ev(initSeq(main)), "%s", msg)
		return framed{w: main, err: &silentError{msg}}, true
	}
	// The rest of the check talks to it the way it answers.
	r.opt.Server.Framing = mcpclient.FramingContentLength
	r.main = w
	r.find("stdout-jsonrpc", Must, append(main.ev(initSeq(main)), w.ev(initSeq(w))...),
		"the server answered nothing to initialize sent as newline JSON, MCP's stdio framing (%s), and answered it framed with Content-Length, LSP-style, which MCP does not allow; run mcp-inspect with --framing content-length to talk to it (this report did, from session %q on)",
		silenceOf(main), SessionFramed)
	return framed{w: w, init: init}, true
}

// silentError is a main session given up because the server said nothing, and then a
// handshake that got no answer in either framing (its finding made already).
type silentError struct{ msg string }

func (e *silentError) Error() string { return e.msg }

// silenceOf is what the client said of the silent main session.
func silenceOf(w *wire) string {
	for _, ev := range w.all() {
		if isLSPSilence(ev) {
			what, _, _ := strings.Cut(strings.TrimPrefix(ev.Life.Text, mcpclient.SilenceNote), ": a server framed")
			return what
		}
	}
	return "it said nothing"
}

// initSeq is the seq of the session's first initialize request, 0 when none.
func initSeq(w *wire) uint64 {
	for _, ev := range w.all() {
		if ev.Dir == mcpclient.ClientToServer && ev.Msg != nil && ev.Msg.Method == "initialize" {
			return ev.Seq
		}
	}
	return 0
}
