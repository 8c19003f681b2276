//go:build unix

package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// Live: the server (sh) exits while a child it started keeps stdout open and writes later;
// that frame carries the after-exit note, as the recomputed trace would.
func TestAfterExitLive(t *testing.T) {
	note, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/message", "params": map[string]any{"level": "info", "data": "from the child"}})
	script := "(sleep 1.5; printf '%s\\n' '" + string(note) + "') & exit 3"
	c, err := Start(Config{Command: "sh", Args: []string{"-c", script}, Timeout: 20 * time.Second, ShutdownGrace: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	s := &probeSession{c: c}
	go func() {
		for ev := range c.Events() {
			s.mu.Lock()
			s.ev = append(s.ev, ev)
			s.mu.Unlock()
		}
	}()
	var ee *ExitError
	if _, err := c.Connect(context.Background()); !errors.As(err, &ee) {
		t.Fatalf("Connect: %v, want the exit", err)
	}
	exit := s.waitFor(t, "exit event", func(ev Event) bool { return ev.Life != nil && ev.Life.Kind == LifeExited })
	late := s.waitFor(t, "child's frame", func(ev Event) bool { return ev.Dir == ServerToClient && ev.Kind == KindNotification })
	if late.Seq < exit.Seq {
		t.Fatalf("the child's frame (#%d) came before the exit (#%d)", late.Seq, exit.Seq)
	}
	p := findProblem(late, CodeAfterExit)
	if p == nil || !strings.Contains(p.Text, "(pid ") {
		t.Fatalf("child's frame problems %+v", late.Problems)
	}
}
