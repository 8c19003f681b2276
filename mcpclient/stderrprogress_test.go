package mcpclient_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Issue 24 §5: a progress bar on a real server's stderr, redrawn with '\r' and ended only
// at 100%, comes as one frame per state while it is drawn (not one line at its end), and
// an unfinished "Loading model… " comes before its "done".
func TestStderrProgressIsLive(t *testing.T) {
	t.Parallel()
	type seen struct {
		raw string
		at  time.Time
	}
	frames := make(chan seen, 64)
	c, err := mcpclient.Start(mcpclient.Config{
		Command:       fake.Binary(t),
		Args:          []string{"--scenario", "stderr-progress"},
		Env:           []string{"FAKE_DELAY_MS=80"},
		Timeout:       30 * time.Second,
		ShutdownGrace: 300 * time.Millisecond,
		OnEvent: func(ev mcpclient.Event) {
			if ev.Dir == mcpclient.Stderr {
				frames <- seen{string(ev.Raw), time.Now()}
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	var got []seen
	for len(got) == 0 || got[len(got)-1].raw != "done\n" {
		select {
		case f := <-frames:
			got = append(got, f)
		case <-time.After(10 * time.Second):
			t.Fatalf("frames so far: %+v", got)
		}
	}
	var states []string
	for _, f := range got {
		if mcpclient.StderrRedraws([]byte(f.raw)) {
			states = append(states, strings.TrimSpace(mcpclient.StderrText([]byte(f.raw))))
		}
	}
	// Each state is its own frame; a reader that was slow may see two at once (one read),
	// but never the whole bar as one line at its end.
	if len(states) < 5 || !strings.HasPrefix(states[0], "10%|█") || !strings.HasPrefix(states[len(states)-1], "100%|██████████|") {
		t.Fatalf("progress states %q (frames %+v)", states, got)
	}
	if got[0].raw[0] != '\r' || mcpclient.StderrEnds([]byte(got[0].raw)) {
		t.Fatalf("the first state is not an unfinished redraw: %q", got[0].raw)
	}
	n := len(got)
	if got[n-2].raw != "Loading model… " || got[n-1].at.Sub(got[n-2].at) < 40*time.Millisecond {
		t.Fatalf("the unfinished line did not come before its end: %q %v", got[n-2].raw, got[n-1].at.Sub(got[n-2].at))
	}
	// The tail an ExitError would carry reads as the terminal showed it.
	var tail mcpclient.StderrTail
	tail.Keep = 5
	for _, f := range got {
		tail.Add([]byte(f.raw))
	}
	if l := tail.Lines(5); len(l) != 2 || !strings.HasPrefix(l[0], "100%|") || l[1] != "Loading model… done" {
		t.Fatalf("tail %q", l)
	}
}
