package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Pages that repeat items (issue #14 §2): each pane lists the item once, flagged with the
// pages its copies came on, and says so in its warnings.
func TestPagesRepeatItemsMerged(t *testing.T) {
	t.Parallel()
	l := startLive(t, []string{fake.Binary(t), "--scenario", "paging-repeat"}, mcpclient.Config{}, Options{})
	l.until("all lists", func() bool {
		return len(l.m.tools.tools) > 0 && l.m.resources.listed && l.m.prompts.listed
	}, 60*time.Second)
	if n := len(l.m.tools.tools); n != 4 {
		t.Errorf("%d tools, want echo, add, upper, lower once each", n)
	}
	out := view(l.m)
	mustContain(t, "tools pane", out, "echo ⚠ pages 1,3", "add ⚠ pages 1,2", `pages 1 and 3 each carry the item with name "echo" (the copies differ`)
	if strings.Contains(out, "upper ⚠") {
		t.Errorf("upper came on one page but is flagged:\n%s", out)
	}
	l.key("5")
	mustContain(t, "resources pane", view(l.m), "a ⚠ pages 1,3", "b ⚠ pages 1,2", "resources (3)")
	l.key("6")
	mustContain(t, "prompts pane", view(l.m), "p2 ⚠ pages 1,2", "prompts (3)")
}

// The NextPage key steps through a listing one page at a time, saying which page it is
// and whether more are available; a full listing (r) ends the stepping.
func TestStepPagesByHand(t *testing.T) {
	t.Parallel()
	l := startLive(t, []string{fake.Binary(t), "--scenario", "paging-repeat"}, mcpclient.Config{}, Options{})
	l.until("all lists", func() bool {
		return len(l.m.tools.tools) > 0 && l.m.resources.listed && l.m.prompts.listed
	}, 60*time.Second)
	step := func(want string) {
		t.Helper()
		l.key("+")
		l.until(want, func() bool { return strings.Contains(view(l.m), want) }, 30*time.Second)
	}
	step("tools (2) · page 1, more available")
	if strings.Contains(view(l.m), "⚠ pages") {
		t.Errorf("page 1 alone repeats nothing:\n%s", view(l.m))
	}
	step("tools (3) · page 2, more available")
	mustContain(t, "page 2", view(l.m), "add ⚠ pages 1,2")
	step("tools (4) · page 3, the last")
	mustContain(t, "page 3", view(l.m), "echo ⚠ pages 1,3")
	step("tools (2) · page 1, more available") // after the last page it starts over
	l.key("r")
	l.until("the full listing", func() bool { return strings.Contains(view(l.m), "tools (4) · ⚠") }, 30*time.Second)
	if strings.Contains(view(l.m), "page ") && strings.Contains(view(l.m), "more available") {
		t.Errorf("a full listing still says it is stepped:\n%s", view(l.m))
	}

	// The list is narrow: the heading is read whole, not as drawn.
	stepList := func(list *itemList, want string) {
		t.Helper()
		l.key("+")
		l.until(want, func() bool { return list.title+list.pageNote == want }, 30*time.Second)
	}
	l.key("6")
	stepList(l.m.prompts.list, "prompts (2) · page 1, more available")
	stepList(l.m.prompts.list, "prompts (2) · page 2, more available")
	mustContain(t, "prompts page 2", view(l.m), "p2 ⚠ pages 1,2", "⚠ prompts/list: pages 1 and 2")
	stepList(l.m.prompts.list, "prompts (3) · page 3, the last")
	l.key("5")
	stepList(l.m.resources.list, "resources (2) · templates (0) · page 1, more available")
}

// An empty-string nextCursor is said in the panes, not taken as the end in silence.
func TestEmptyCursorNoted(t *testing.T) {
	t.Parallel()
	l := startLive(t, []string{fake.Binary(t), "--scenario", "paging-empty-cursor"}, mcpclient.Config{}, Options{})
	l.until("all lists", func() bool {
		return len(l.m.tools.tools) > 0 && l.m.resources.listed && l.m.prompts.listed
	}, 60*time.Second)
	server := strings.Join(l.m.serverLines(200), "\n")
	for _, method := range []string{"tools/list", "resources/list", "resources/templates/list", "prompts/list"} {
		mustContain(t, "server pane", server, method+` page 1: "nextCursor": "" (an empty string, not an absent member): taken as the last page`)
	}
	l.key("6")
	mustContain(t, "prompts pane", view(l.m), `⚠ prompts/list page 1: "nextCursor": ""`)
}

// A known older protocol version is normal negotiation: the status line and the Server
// pane show it beside the requested one without a warning, and a tool's outputSchema is
// not checked against a revision that has none (issue #14 §2).
func TestOlderProtocolVersionIsANote(t *testing.T) {
	t.Parallel()
	l := startLive(t, []string{fake.Binary(t), "--scenario", "version-old"}, mcpclient.Config{}, Options{})
	l.until("tools", func() bool { return len(l.m.tools.tools) == 2 }, 60*time.Second)
	bar := l.m.statusBar()
	mustContain(t, "status bar", bar, "protocol 2025-03-26 (requested 2025-11-25)")
	if strings.Contains(bar, "⚠") {
		t.Errorf("an older known version is flagged: %q", bar)
	}
	server := strings.Join(l.m.serverLines(200), "\n")
	mustContain(t, "server pane", server, "protocol: 2025-03-26 negotiated · 2025-11-25 requested", "an older revision, which is normal negotiation")
	if strings.Contains(server, "⚠") || l.m.tl.violations != 0 {
		t.Errorf("a warning or violation for normal negotiation (%d violations):\n%s", l.m.tl.violations, server)
	}
	l.run(l.m.startCallByName(&callRequest{tool: "stats", args: []byte(`{}`)}))
	l.until("the result", func() bool { return strings.Contains(view(l.m), `{"n":3}`) }, 30*time.Second)
	if out := view(l.m); strings.Contains(out, "outputSchema") {
		t.Errorf("outputSchema advisory against a 2025-03-26 server:\n%s", out)
	}
}

// A missing or unknown negotiated version is a violation, shown as a warning.
func TestUnknownOrMissingProtocolVersion(t *testing.T) {
	t.Parallel()
	for scenario, want := range map[string]string{"version-unknown": "⚠ protocol 2099-01-01 (unknown) (requested 2025-11-25)", "version-missing": "⚠ protocol (none answered) (requested 2025-11-25)"} {
		l := startLive(t, []string{fake.Binary(t), "--scenario", scenario}, mcpclient.Config{}, Options{})
		l.until("tools", func() bool { return len(l.m.tools.tools) == 2 }, 60*time.Second)
		// The listing can be drawn before the pump has brought the handshake's flagged
		// frame to the timeline (CI saw "0 violations"): wait for the count, bounded.
		l.until("the violation", func() bool { return strings.Contains(l.m.statusBar(), "1 violation") }, 30*time.Second)
		mustContain(t, scenario+" status bar", l.m.statusBar(), want, "1 violation")
		mustContain(t, scenario+" server pane", strings.Join(l.m.serverLines(200), "\n"), "negotiated · 2025-11-25 requested ⚠")
	}
}

// A listing that times out names the response with an unknown id that came meanwhile
// (id-zero-answer answers with id 0), and the wire counts it (issue #14 §2). The timeout
// is 2 s, not less: on a loaded machine the handshake itself must not time out.
func TestTimeoutNamesStrayIDInPane(t *testing.T) {
	t.Parallel()
	l := startLive(t, []string{fake.Binary(t), "--scenario", "id-zero-answer"}, mcpclient.Config{Timeout: 2 * time.Second}, Options{})
	l.until("the listing's end", func() bool { return l.m.tools.listErr != nil }, 30*time.Second)
	mustContain(t, "tools pane", view(l.m), "no response after 2s", "meanwhile a", "response with id 0 arrived")
	if l.m.tl.violations == 0 {
		t.Error("the response with id 0 is not counted as a violation")
	}
}
