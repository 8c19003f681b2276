package check_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestOneCopyAtATime: a server that cannot run a second copy while the main one runs (it
// holds a lock) gets its short-session rules marked not applicable with that reason, citing
// the second copy's handshake, not MUST failures; the main session's rules still pass.
func TestOneCopyAtATime(t *testing.T) {
	t.Parallel()
	rep, err := check.Run(context.Background(), fakeOptions(t, "single-copy"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"version-future", "version-oldest", "init-order", "discover"} {
		res := rep.Result(id)
		if res.Status != check.StatusNA || !strings.Contains(res.Reason, "the server runs one copy at a time") || !strings.Contains(res.Reason, "another copy is running") {
			t.Errorf("%s: %s %q %+v", id, res.Status, res.Reason, res.Findings)
		}
		if len(res.Events) == 0 || res.Events[0].Session != check.SessionSecondCopy {
			t.Errorf("%s: events %v, want the second copy's", id, res.Events)
		}
	}
	if rep.Failed() || rep.Counts.Warn != 0 {
		t.Errorf("counts %+v", rep.Counts)
	}
	for _, id := range []string{"init-responds", "version-latest", "id-zero", "shutdown", "final-ping"} {
		if s := rep.Result(id).Status; s != check.StatusPass {
			t.Errorf("%s: %s", id, s)
		}
	}
	var names []string
	for _, s := range rep.Sessions {
		names = append(names, s.Name)
	}
	if strings.Join(names, " ") != "main version-future second-copy" {
		t.Errorf("sessions %v", names)
	}
}

// TestRevivedSessionRecordingEnds: the fresh copy that runs the rules after a server's death
// is recorded through Options.Record like a short session, and its recording is ended once
// the check is over (its trace closed, its --otlp export flushed).
func TestRevivedSessionRecordingEnds(t *testing.T) {
	t.Parallel()
	opt := fakeOptions(t, "check-dies-on-garbage")
	var mu sync.Mutex
	started, ended := map[string]int{}, map[string]int{}
	opt.Record = func(name string, _ *mcpclient.Config) (string, func()) {
		mu.Lock()
		started[name]++
		mu.Unlock()
		return "", func() {
			mu.Lock()
			ended[name]++
			mu.Unlock()
		}
	}
	if _, err := check.Run(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if started[check.SessionRevived] != 1 || ended[check.SessionRevived] != 1 {
		t.Errorf("the %s session's recording: started %d, ended %d; want 1 and 1", check.SessionRevived, started[check.SessionRevived], ended[check.SessionRevived])
	}
	for name, n := range started {
		if ended[name] != n {
			t.Errorf("session %s: %d recordings started, %d ended", name, n, ended[name])
		}
	}
}
