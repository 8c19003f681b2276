package check

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// SessionSecondCopy is the session opened only when a short session could not start or
// answer: the main session's own handshake on one more copy, beside the main one, tells a
// server that cannot run twice at once (a lock file, a fixed port) from one that failed the
// short session's question.
const SessionSecondCopy = "second-copy"

// ShortSessions are the names of the sessions other than the main one, in the order they
// may run: each has its own trace with --record (Options.Record).
func ShortSessions() []string {
	return []string{SessionFuture, SessionOldest, SessionDiscover, SessionSecondCopy}
}

// copyRules are the rules the short sessions check.
func copyRules() []string {
	return []string{"version-future", "version-oldest", "init-order", "discover"}
}

// copies remembers whether a second copy of the server could run beside the main one.
type copies struct {
	once    sync.Once
	refused string  // why not; "" when it could (or it was not asked)
	events  []Event // the second copy's handshake and end
}

// noStart reports whether err is a short session that never got an answer: it could not
// start, exited, closed its stdout or did not answer in time (not an error response, which
// is an answer).
func noStart(err error) bool {
	var rpc *mcpclient.RPCError
	return err != nil && !errors.As(err, &rpc)
}

// oneCopyOnly is asked when a short session failed with noStart: it opens one more session
// the way the main one was opened, while the main session still runs. When that fails too
// the server cannot run twice at once: the short sessions' rules that were not checked yet
// are marked not applicable with the reason, and oneCopyOnly reports true.
func (r *run) oneCopyOnly(ctx context.Context) bool {
	r.copies.once.Do(func() {
		if ctx.Err() != nil || r.main == nil || r.main.client == nil || r.main.client.State() != mcpclient.StateReady {
			return // the main session is gone: no second copy to speak of
		}
		cfg := r.opt.Server
		cfg.Timeout = min(cfg.Timeout, 5*time.Second)
		w, err := r.open(SessionSecondCopy, cfg)
		if err == nil {
			_, err = w.client.Connect(ctx)
		}
		w.close()
		if err == nil || ctx.Err() != nil {
			return
		}
		what := "the server runs one copy at a time: a second copy, started while the main session ran, could not start or answer the main session's own handshake"
		if r.remote {
			what = "the server takes one session at a time: a second session, opened while the main one was open, could not complete the main session's own handshake"
		}
		r.copies.refused = fmt.Sprintf("%s (%s), so the short sessions cannot check this", what, shortText(err))
		r.copies.events = copyEvents(w)
	})
	if r.copies.refused == "" {
		return false
	}
	for _, id := range copyRules() {
		r.naUnchecked(id, r.copies.refused, r.copies.events)
	}
	return true
}

// copyEvents are a session's handshake requests and answers and how it ended.
func copyEvents(w *wire) []Event {
	evs := methodEvents(w, "initialize", "server/discover")
	for _, ev := range w.all() {
		if ev.Dir == mcpclient.Lifecycle && ev.Life != nil && (ev.Life.Kind == mcpclient.LifeExited || ev.Life.Kind == mcpclient.LifeSpawnFailed || ev.Life.Kind == mcpclient.LifeStdoutClosed) {
			evs = append(evs, w.ev(ev.Seq)...)
		}
	}
	return sortEvents(evs)
}

// naUnchecked marks rule id not applicable, with the events that show why, unless
// something was already checked there.
func (r *run) naUnchecked(id, why string, evs []Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := r.results[id]
	if !r.activeLocked(id) || len(res.Findings) > 0 || len(res.Notes) > 0 {
		return
	}
	res.Status, res.Reason, res.Events = StatusNA, why, evs
}

// shortText is an error on one line, cut to a reasonable length.
func shortText(err error) string {
	s := strings.Join(strings.Fields(shortErr(err)), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
