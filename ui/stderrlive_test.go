package ui

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Issue 24 §5: a progress bar on the server's stderr shows its latest state live, in the
// status line and as one Logs entry redrawn in place; an unfinished line is continued;
// the Server pane's stderr tail reads as the terminal would.
func TestStderrProgressLive(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 140, 30)
	stderr := func(seq uint64, raw string) mcpclient.Event { return ev(seq, mcpclient.Stderr, raw) }
	drive(t, m, eventsMsg{events: []mcpclient.Event{stderr(50, "\r 10%|█         |"), stderr(51, "\r 50%|█████     |")}})
	mustContain(t, "status line", m.statusBar(), "stderr: 50%|█████     |")
	keys(t, m, "7")
	out := view(m)
	mustContain(t, "logs", out, "stderr    50%|█████")
	if strings.Contains(out, "10%|█") {
		t.Fatalf("the redrawn state is still shown:\n%s", out)
	}
	drive(t, m, eventsMsg{events: []mcpclient.Event{stderr(52, "\r100%|██████████|\n"), stderr(53, "Loading model… ")}})
	mustContain(t, "status line", m.statusBar(), "stderr: Loading model…")
	drive(t, m, eventsMsg{events: []mcpclient.Event{stderr(54, "done\n")}})
	if strings.Contains(m.statusBar(), "stderr:") {
		t.Fatalf("a finished line stays in the status line: %s", m.statusBar())
	}
	out = view(m)
	mustContain(t, "logs", out, "stderr   100%|██████████|", "stderr   Loading model… done")
	mustContain(t, "detail", out, "server stderr (first frame) · wire #53")
	if n := strings.Count(out, "ms stderr  "); n != 2 {
		t.Fatalf("%d stderr entries, want 2 (one per line as the terminal shows it):\n%s", n, out)
	}
	mustContain(t, "server pane", strings.Join(m.serverLines(140), "\n"), "stderr (2 lines, last 2)")
	if got := strings.Join(m.tl.stderrTail(5), "|"); !strings.HasSuffix(got, "100%|██████████||Loading model… done") {
		t.Fatalf("stderr tail %q", got)
	}
}

// A server that writes more stderr than the Logs pane keeps: the pane says how many lines
// and bytes of stderr left the view, and where they still are.
func TestStderrDroppedFromViewCounted(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 200, 30)
	line := strings.Repeat("x", 99) + "\n"
	evs := make([]mcpclient.Event, 0, logsKeep+logsDropChunk+1)
	for i := range logsKeep + logsDropChunk + 1 {
		evs = append(evs, ev(uint64(100+i), mcpclient.Stderr, line))
	}
	drive(t, m, eventsMsg{events: evs})
	keys(t, m, "7")
	mustContain(t, "logs", view(m), "2500 older entries dropped from view, 241.7K of stderr in 2500 of them")
}
