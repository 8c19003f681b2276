package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// floodClient starts the fake server's flood scenario name with FAKE_COUNT=n (and env) on a
// real mcpclient.Client; onEvent, when set, sees every event (a answerLog).
func floodClient(tb testing.TB, name string, n int, onEvent func(mcpclient.Event), env ...string) *mcpclient.Client {
	tb.Helper()
	cfg := mcpclient.Config{
		Command: fake.Binary(tb),
		Args:    []string{"--scenario", name},
		Env:     append([]string{fmt.Sprintf("FAKE_COUNT=%d", n)}, env...),
		Timeout: time.Minute,
		OnEvent: onEvent,
	}
	c, err := mcpclient.Start(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	return c
}

// absorb feeds the client's events to m as the event pump does (what is ready, up to
// maxBatch per Update) until done says the last wanted event arrived; it returns how many
// events it fed. between, when set, runs after every batch (a keypress during the flood).
func absorb(tb testing.TB, m *model, c *mcpclient.Client, done func(*mcpclient.Event) bool, between func()) int {
	tb.Helper()
	ch := c.Events()
	n := 0
	timeout := time.NewTimer(2 * time.Minute)
	defer timeout.Stop()
	for {
		var evs []mcpclient.Event
		select {
		case ev, ok := <-ch:
			if !ok {
				tb.Fatalf("the events ended after %d without the last one", n)
			}
			evs = append(evs, ev)
		case <-timeout.C:
			tb.Fatalf("timed out after %d events", n)
		}
	more:
		for len(evs) < maxBatch {
			select {
			case ev, ok := <-ch:
				if !ok {
					break more
				}
				evs = append(evs, ev)
			default:
				break more
			}
		}
		m.Update(eventsMsg{events: evs})
		n += len(evs)
		if between != nil {
			between()
		}
		for i := range evs {
			if done(&evs[i]) {
				return n
			}
		}
	}
}

// stderrDone matches the flood-stderr server's last line.
func stderrDone(n int) func(*mcpclient.Event) bool {
	last := fmt.Sprintf("flood done %d\n", n)
	return func(ev *mcpclient.Event) bool { return ev.Dir == mcpclient.Stderr && string(ev.Raw) == last }
}

// notifyDone matches the flood-notify server's last notification.
func notifyDone(n int) func(*mcpclient.Event) bool {
	last := fmt.Sprintf(`"data":"flood done %d"`, n)
	return func(ev *mcpclient.Event) bool {
		return ev.Dir == mcpclient.ServerToClient && strings.Contains(string(ev.Raw), last)
	}
}

// connect runs the handshake on its own goroutine (its response must be absorbed like any
// other event) and returns a channel with its outcome.
func connect(c *mcpclient.Client) <-chan error {
	errc := make(chan error, 1)
	go func() {
		_, err := c.Connect(context.Background())
		errc <- err
	}()
	return errc
}

// recordTo opens a trace at a temp path; the returned func closes it and returns its lines.
func recordTo(tb testing.TB) (observe func(mcpclient.Event), lines func() []string) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "flood.jsonl")
	w, err := trace.Create(path, trace.Header{Tool: "test"}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return w.Observe, func() []string {
		if err := w.Close(); err != nil {
			tb.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
}

// numbered returns the flood numbers found in texts, in order, checking each is the next.
func checkNumbered(tb testing.TB, what string, texts []string, n int) {
	tb.Helper()
	next := 1
	for _, s := range texts {
		i := strings.Index(s, "flood ")
		if i < 0 || strings.Contains(s, "flood done") {
			continue
		}
		want := fmt.Sprintf("flood %06d", next)
		if !strings.HasPrefix(s[i:], want) {
			tb.Fatalf("%s: after %d numbered items found %q, want %s", what, next-1, s[i:min(len(s), i+30)], want)
		}
		next++
	}
	if next-1 != n {
		tb.Fatalf("%s holds %d of the %d numbered items", what, next-1, n)
	}
}

// wireRows walks the wire pane from its first row to its last with the keys a user presses
// and returns every selected frame's raw text: what the pane can reach.
func wireRows(tb testing.TB, m *model) []string {
	tb.Helper()
	keys(tb, m, "3", "g")
	var out []string
	for i := 0; i < m.wire.count(); i++ {
		if i > 0 {
			m.Update(keyMsg("down"))
		}
		pos, ok := m.wire.selPos()
		if !ok || pos != m.wire.at(i) {
			tb.Fatalf("row %d of %d: selected position %d, %v", i, m.wire.count(), pos, ok)
		}
		raw, ok := m.tl.rawAt(pos)
		if !ok {
			tb.Fatalf("row %d: no bytes", i)
		}
		out = append(out, string(raw))
	}
	return out
}

// TestFloodNotifyCompleteAndRecorded: flood-notify's notifications through the real client
// into the model: the wire pane counts and reaches every one in order, a key pressed between
// batches is answered, and the recording holds every one.
func TestFloodNotifyCompleteAndRecorded(t *testing.T) {
	const n = 30_000
	observe, traceLines := recordTo(t)
	m := newTestModel(t, nil, 160, 50)
	c := floodClient(t, "flood-notify", n, observe)
	errc := connect(c)
	pressed := 0
	absorb(t, m, c, notifyDone(n), func() {
		// A user switching panes during the flood: each key takes effect at once.
		k := []string{"3", "7"}[pressed%2]
		keys(t, m, k)
		if want := []paneID{paneWire, paneLogs}[pressed%2]; m.focus != want {
			t.Fatalf("key %q during the flood: focus %v, want %v", k, m.focus, want)
		}
		pressed++
	})
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	rows := wireRows(t, m)
	checkNumbered(t, "the wire pane", rows, n)
	c.Close()
	checkNumbered(t, "the trace", traceLines(), n)
	t.Logf("%d notifications, %d batches (a key after each)", n, pressed)
}

// TestFloodStderrCompleteAndRecorded: flood-stderr's lines (as fast as it can write them)
// all reach the wire pane's stderr rows and the recording.
func TestFloodStderrCompleteAndRecorded(t *testing.T) {
	const n = 30_000
	observe, traceLines := recordTo(t)
	m := newTestModel(t, nil, 160, 50)
	c := floodClient(t, "flood-stderr", n, observe, "FAKE_RATE=0")
	absorb(t, m, c, stderrDone(n), nil)
	checkNumbered(t, "the wire pane", wireRows(t, m), n)
	c.Close()
	checkNumbered(t, "the trace", traceLines(), n)
}
