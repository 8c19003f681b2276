package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// While the --era auto probe waits (fakeserver --scenario probe-silent: up to --timeout),
// the Tools pane says it is the era probe and that --era legacy skips it, with the why
// beside it; once the fallback initialize is on the wire it is the plain handshake wait.
// Without --era auto nothing speaks of a probe.
func TestProbeWaitSaysSo(t *testing.T) {
	now := t0
	m := newModel(Options{Tick: fakeTick, Theme: "plain", Session: &blockingConnect{}, Timeout: time.Minute, Era: mcpclient.EraAuto})
	m.now = func() time.Time { return now }
	drive(t, m, tea.WindowSizeMsg{Width: 200, Height: 40})
	m.Init()
	now = now.Add(4 * time.Second)
	drive(t, m, waitTickMsg{})
	if want := "--era auto probe… 4s · --era legacy skips it"; m.tools.status != want {
		t.Errorf("waiting line %q, want %q", m.tools.status, want)
	}
	v := view(m)
	mustContain(t, "probe panel", v, "--era auto probe… 4s · --era legacy skips it", "finding out the server's era (--era auto)",
		"waits up to 1m0s for it (--timeout)", "gives up 3s after its last output", "--era legacy (initialize) or --era modern (server/discover only) skips the probe.",
		"server ? · probing the era (--era auto)")

	// The probe gave up: initialize is sent; the wait is the handshake's.
	drive(t, m, eventsMsg{events: []mcpclient.Event{
		ev(3, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`+"\n"),
		ev(4, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}`+"\n"),
	}})
	now = now.Add(time.Second)
	drive(t, m, waitTickMsg{})
	if want := "waiting for the handshake… 5s (timeout 1m0s)"; m.tools.status != want {
		t.Errorf("after the fallback: %q, want %q", m.tools.status, want)
	}
	if v := view(m); strings.Contains(v, "auto probe") || strings.Contains(v, "skips the probe") || strings.Contains(v, "probing the era") {
		t.Errorf("the probe is still shown after the fallback initialize\n%s", v)
	}

	// The legacy era (the default) has no probe.
	l := newModel(Options{Tick: fakeTick, Theme: "plain", Session: &blockingConnect{}, Timeout: time.Minute})
	l.now = func() time.Time { return now }
	drive(t, l, tea.WindowSizeMsg{Width: 200, Height: 40})
	l.Init()
	drive(t, l, waitTickMsg{})
	if v := view(l); !strings.Contains(v, "waiting for the handshake…") || strings.Contains(v, "probe") {
		t.Errorf("legacy wait\n%s", v)
	}
}

// ConfigureClient takes the era from the client's Config.
func TestConfigureClientTakesEra(t *testing.T) {
	var o Options
	o.ConfigureClient(&mcpclient.Config{Era: mcpclient.EraAuto})
	if o.Era != mcpclient.EraAuto {
		t.Errorf("Era %q", o.Era)
	}
}
