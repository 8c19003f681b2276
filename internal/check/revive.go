package check

import (
	"context"
	"fmt"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// One fault, one failure (issue 25). A server that dies at one rule's probe (a line that is
// not JSON, say) would fail every rule after it too, each for the same death. Before each
// later rule the battery looks at the main session: once its server has exited, one fresh
// copy is started and the rest of the battery runs there (session SessionRevived); when
// that cannot be, the rules left say "not judged" with the event the server died at.

// SessionRevived is the fresh copy of the server that runs the rest of the battery after
// the main session's server died.
const SessionRevived = "after-exit"

// exitSeq is the seq of the event that says w's server has gone (exited, or closed its
// stdout); 0 while it lives.
func exitSeq(w *wire) uint64 {
	for _, ev := range w.all() {
		if isExit(ev) {
			return ev.Seq
		}
	}
	return 0
}

// isExit reports whether ev says the server has gone (exited, or closed its stdout).
func isExit(ev mcpclient.Event) bool {
	l := ev.Life
	return ev.Dir == mcpclient.Lifecycle && l != nil && (l.Kind == mcpclient.LifeExited || l.Kind == mcpclient.LifeStdoutClosed)
}

// ready reports whether rule id can run on the main session: its server lives, or it died
// and a fresh copy (once per check) took its place. Otherwise it marks id not judged.
func (r *run) ready(ctx context.Context, id string) bool {
	if r.main == nil || r.main.client == nil || r.remote || !r.active(id) || ctx.Err() != nil {
		return true // nothing to revive: the rule runs (or says why not) as before
	}
	seq := exitSeq(r.main)
	if seq == 0 {
		return true
	}
	died := fmt.Sprintf("the server exited at event %s", eventsText(r.main.ev(seq)))
	if !r.revived {
		r.revived = true
		w, err := r.revive(ctx)
		if err == nil {
			r.main = w
			return true
		}
		r.reviveErr = err
	}
	why := "not judged: " + died
	if r.reviveErr != nil {
		why += "; a fresh copy could not be started: " + r.reviveErr.Error()
	} else {
		why += " (the fresh copy started after an earlier exit died too)"
	}
	r.na(id, why)
	return false
}

// revive starts a fresh copy of the server and connects it as the main session was.
func (r *run) revive(ctx context.Context) (*wire, error) {
	w, err := r.open(SessionRevived, r.opt.Server)
	if err != nil {
		return nil, err
	}
	if _, err := w.client.Connect(ctx); err != nil {
		w.client.Close()
		return nil, err
	}
	return w, nil
}
