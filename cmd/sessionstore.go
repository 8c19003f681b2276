package cmd

import (
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/settings"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// sessionStore keeps one directory of automatic recordings (sessions/ or taps/NAME/)
// within its bounds, trace.DefaultMaxAge and max bytes, while a session
// is recorded into it: pruned when the session starts, again each time it has grown by a
// step, and when it ends. The running session is never cut or removed (nor any other
// process's: trace.PruneSessions); when it alone passes the cap, the user is told once,
// and each session younger than a day that the cap removes is named to the user.
type sessionStore struct {
	dir  string
	path string // the running session's trace
	max  int64
	// setting says where the cap is set, for the notice: the settings file's key.
	setting string
	logger  *slog.Logger
	// tell says the notice to the user at once (the tap: stderr); nil keeps it for later
	// (the TUI: stderr once the screen is back, through notice).
	tell func(string)

	mu        sync.Mutex
	nextPrune int64
	said      string
	young     []string // what was said of the young sessions removed
	stop      chan struct{}
	done      chan struct{}
}

// storeWatchEvery is how often a running session's size is looked at.
const storeWatchEvery = time.Second

// newSessionStore is the store of dir for the running session at path, capped at max
// bytes (0: trace.DefaultMaxBytes).
func newSessionStore(dir, path string, max int64, logger *slog.Logger, tell func(string)) *sessionStore {
	if max <= 0 {
		max = trace.DefaultMaxBytes
	}
	where := "the settings file"
	if loc, err := settings.Locate(os.Getenv); err == nil && loc.Path != "" {
		where = loc.Path
	}
	return &sessionStore{dir: dir, path: path, max: max, setting: "sessions_max_size in " + where, logger: logger, tell: tell}
}

// step is how much the running session grows between two prunes: an eighth of the cap.
func (s *sessionStore) step() int64 { return max(s.max/8, 1<<20) }

// prune removes the oldest finished sessions beyond the bounds, and tells the user once
// when the running session alone is over the cap.
func (s *sessionStore) prune() {
	res, err := trace.PruneSessions(s.dir, time.Now(), trace.DefaultMaxAge, s.max, s.path)
	if err != nil {
		s.logger.Warn("pruning old sessions", "dir", s.dir, "err", err)
	}
	if len(res.Removed) > 0 {
		s.logger.Debug("pruned old sessions", "removed", res.Removed, "left", res.Sessions, "bytes", res.Bytes)
	}
	for _, r := range res.Young {
		s.removedYoung(r, res.Bytes)
	}
	var size int64
	if st, err := os.Stat(s.path); err == nil {
		size = st.Size()
	}
	s.mu.Lock()
	s.nextPrune = size + s.step()
	s.mu.Unlock()
	if size > s.max {
		s.over(size)
	}
}

// over says, once, that the running session alone holds more than the cap.
func (s *sessionStore) over(size int64) {
	s.mu.Lock()
	if s.said != "" {
		s.mu.Unlock()
		return
	}
	s.said = s.message(size, true)
	text := s.said
	s.mu.Unlock()
	s.logger.Warn("session store over its cap", "path", s.path, "bytes", size, "cap", s.max)
	if s.tell != nil {
		s.tell(text)
	}
}

// removedYoung says that r, a session younger than a day, was removed for the size cap
// (left: the bytes the kept sessions hold now): at once through tell, and kept for
// youngNotices.
func (s *sessionStore) removedYoung(r trace.Removal, left int64) {
	text := fmt.Sprintf("removed %s (%s, last written %s ago): the kept sessions in %s held more than the %s cap (%s left); %s sets the cap",
		r.Path, mib(r.Size), r.Age.Round(time.Minute), s.dir, settings.FormatSize(s.max), mib(left), s.setting)
	s.logger.Warn("removed a session younger than a day", "path", r.Path, "bytes", r.Size, "age", r.Age)
	s.mu.Lock()
	s.young = append(s.young, text)
	s.mu.Unlock()
	if s.tell != nil {
		s.tell(text)
	}
}

// youngNotices is what was said of the sessions younger than a day that the cap removed,
// oldest first: the TUI shows them in its notes and says them on stderr when it exits.
func (s *sessionStore) youngNotices() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.young)
}

// check looks at the running session's size: prune again when it has grown by a step.
func (s *sessionStore) check() {
	st, err := os.Stat(s.path)
	if err != nil {
		return
	}
	s.mu.Lock()
	due := st.Size() >= s.nextPrune
	s.mu.Unlock()
	if due {
		s.prune()
	}
}

// watch prunes now and then checks every storeWatchEvery until end.
func (s *sessionStore) watch() {
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	s.prune()
	go func() {
		defer close(s.done)
		t := time.NewTicker(storeWatchEvery)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				s.check()
			}
		}
	}()
}

// end stops watching and prunes a last time, sparing the session just finished: it is
// never lost for being alone over the cap (the next session's prune removes it then, as
// the oldest).
func (s *sessionStore) end() {
	if s == nil {
		return
	}
	if s.stop != nil {
		close(s.stop)
		<-s.done
		s.stop = nil
	}
	s.prune()
}

// message says that the session (running or just ended) alone holds size bytes, over
// the cap.
func (s *sessionStore) message(size int64, running bool) string {
	if running {
		return fmt.Sprintf("the running session %s alone holds %s, over the %s cap on kept sessions: it is kept whole, older sessions are removed; %s sets the cap",
			s.path, mib(size), settings.FormatSize(s.max), s.setting)
	}
	return fmt.Sprintf("the session %s alone holds %s, over the %s cap on kept sessions: it was kept whole, and the next session removes it first (move it elsewhere to keep it); %s sets the cap",
		s.path, mib(size), settings.FormatSize(s.max), s.setting)
}

// notice is what the user was told about the cap, with the session's size now ("" when
// nothing was said): the TUI says it again on stderr once the screen is back.
func (s *sessionStore) notice() string {
	if s == nil {
		return ""
	}
	s.mu.Lock()
	said := s.said
	s.mu.Unlock()
	if said == "" {
		return ""
	}
	if st, err := os.Stat(s.path); err == nil {
		return s.message(st.Size(), false)
	}
	return said
}

// mib writes a size in MiB with one decimal.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
