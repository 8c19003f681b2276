package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// recorded is one line of a made-up recording: a frame in a direction, or a lifecycle
// change (life set).
type recorded struct {
	dir  mcpclient.Direction
	raw  string
	life *mcpclient.LifeInfo
}

// pairedRecording numbers the lines from 1 (1 ms apart) and pairs them as mcp-inspect open
// does.
func pairedRecording(lines []recorded) []mcpclient.Event {
	evs := make([]mcpclient.Event, len(lines))
	p := mcpclient.NewPairer()
	for i, r := range lines {
		if r.life != nil {
			evs[i] = life(uint64(i+1), *r.life)
		} else {
			evs[i] = ev(uint64(i+1), r.dir, r.raw)
		}
		p.Add(&evs[i])
	}
	return evs
}

// callRow is the row of the past-calls list that holds s.
func callRow(t *testing.T, v, s string) string {
	t.Helper()
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	t.Fatalf("no row holds %q:\n%s", s, v)
	return ""
}

// runeIndex is the column (in runes) where sub starts in s, -1 when it is not there.
func runeIndex(s, sub string) int {
	i := strings.Index(s, sub)
	if i < 0 {
		return -1
	}
	return len([]rune(s[:i]))
}

var modernHandshake = []recorded{
	{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, nil},
	{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mrtr","version":"1"}}}}`, nil},
}

// TestOfflineInputRoundsAreOneCall: a modern tools/call answered input_required (MCP
// 2026-07-28 basic/patterns/mrtr) and sent again with inputResponses is one recorded call
// whose result is the last round's and whose time runs from the first request to the
// last response; the detail lists what each round asked. A call whose last recorded round
// asked for input reads "input asked", never "ok · 0 content block(s)". A long tool name
// is cut to its column, so the outcome column stays in line.
func TestOfflineInputRoundsAreOneCall(t *testing.T) {
	long := "test_input_required_result_multi_round_with_a_long_name"
	asked := func(id int, state string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"resultType":"input_required","content":null,"inputRequests":{"a":{"method":"roots/list"},"b":{"method":"sampling/createMessage","params":{}}},"requestState":"%s"}}`, id, state)
	}
	lines := append(append([]recorded(nil), modernHandshake...),
		recorded{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + long + `","arguments":{"q":1}}}`, nil}, // seq 3
		recorded{mcpclient.ServerToClient, asked(2, "s1"), nil}, // seq 4
		recorded{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"` + long + `","arguments":{"q":1},"inputResponses":{"a":{},"b":{}},"requestState":"s1"}}`, nil},
		recorded{mcpclient.ServerToClient, asked(3, "s2"), nil}, // seq 6
		recorded{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"` + long + `","arguments":{"q":1},"inputResponses":{"a":{},"b":{}},"requestState":"s2"}}`, nil},
		recorded{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"all rounds done"}]}}`, nil}, // seq 8
		// A plain call, and one left asking.
		recorded{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{}}}`, nil}, // seq 9
		recorded{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"e"}]}}`, nil},
		recorded{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"ask_once","arguments":{}}}`, nil}, // seq 11
		recorded{mcpclient.ServerToClient, asked(6, "s9"), nil},                                                                               // seq 12
	)
	m := openOffline(t, pairedRecording(lines))
	keys(t, m, "2")
	v := loadedView(t, m)
	mustContain(t, "rows", v, "recorded calls (3)")
	if strings.Contains(v, " #5  ") || strings.Contains(v, " #7  ") {
		t.Errorf("a later round is listed as a call of its own:\n%s", v)
	}
	first := callRow(t, v, "#3 ")
	plain := callRow(t, v, "#9 ")
	if !strings.Contains(first, "…") || strings.Contains(first, long) {
		t.Errorf("the long tool name is not cut to its column: %q", first)
	}
	// The outcome column starts at the same place in every row.
	if i, j := runeIndex(first, " ok "), runeIndex(plain, " ok "); i != j || i < 0 {
		t.Errorf("outcome columns out of line (%d vs %d):\n%s\n%s", i, j, first, plain)
	}
	mustContain(t, "multi-round row", first, "5ms", "(3 rounds)")
	mustContain(t, "multi-round detail", v, "all rounds done", "took 5ms over 3 rounds · request #3 → response #8",
		"round 1: response #4 asked for input: roots/list, sampling/createMessage",
		"round 2: response #6 asked for input", "round 3: response #8 is the result above")
	keys(t, m, "G")
	v = loadedView(t, m)
	mustContain(t, "asking row", callRow(t, v, "#11 "), "input asked", "1ms", "(1 round) {}")
	mustContain(t, "asking detail", v, "asked for input (input_required: roots/list, sampling/createMessage)", "no next round")
	if strings.Contains(v, "0 content block") || strings.Contains(v, "rounds (") {
		t.Errorf("an input_required answer is shown as a result:\n%s", v)
	}
}

// TestOfflineCancelledCall: a legacy call the client cancelled (notifications/cancelled
// with its requestId) reads "cancelled" with the time until the cancel, and a response
// recorded after the cancel is shown as such, not as the result; a cancel with the
// reason "timed out" reads "timed out".
func TestOfflineCancelledCall(t *testing.T) {
	lines := []recorded{
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`, nil},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`, nil},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"sleep","arguments":{"seconds":88}}}`, nil}, // seq 3
		{mcpclient.Stderr, "sleeping\n", nil},
		{mcpclient.Stderr, "still sleeping\n", nil},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8,"reason":"cancelled by the user"}}`, nil}, // seq 6
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"woke up anyway"}]}}`, nil},                        // seq 7
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"sleep","arguments":{"seconds":1}}}`, nil},             // seq 8
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9,"reason":"timed out after 2s"}}`, nil},    // seq 9
	}
	m := openOffline(t, pairedRecording(lines))
	keys(t, m, "2")
	v := loadedView(t, m)
	mustContain(t, "cancelled row", callRow(t, v, "#3 "), "cancelled", "3ms")
	mustContain(t, "cancelled detail", v, "took 3ms", "cancelled by you", "a response came after the cancel (#7); it is not used as the result", "woke up anyway")
	if strings.Contains(v, "no response in the recording") || strings.Contains(v, "ok · 1 content") {
		t.Errorf("the cancelled call reads as lost or answered:\n%s", v)
	}
	keys(t, m, "right")
	v = loadedView(t, m)
	mustContain(t, "timed-out row", callRow(t, v, "#8 "), "timed out", "1ms")
	mustContain(t, "timed-out detail", v, "timed out after 1ms")
}

// TestOfflineCallFailsAtTheServersExit: a call still waiting when the server exited (not
// closed by the session) fails there, as it did live, even when a child that kept stdout
// open answered afterwards; that answer is shown as late. A call left open when the
// session closed the server stays "no response".
func TestOfflineCallFailsAtTheServersExit(t *testing.T) {
	lines := []recorded{
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`, nil},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`, nil},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"other","arguments":{}}}`, nil},        // seq 3
		{life: &mcpclient.LifeInfo{Kind: mcpclient.LifeExited, ExitCode: -1, Signal: "killed", Text: "server was killed by signal KILL"}}, // seq 4
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":6,"result":{"content":[{"type":"text","text":"answered from beyond"}]}}`, nil},  // seq 5
		{life: &mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, PID: 2, Text: "started pid 2"}},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"other","arguments":{}}}`, nil}, // seq 7
		{life: &mcpclient.LifeInfo{Kind: mcpclient.LifeShutdown, Text: "closing the server's stdin"}},
		{life: &mcpclient.LifeInfo{Kind: mcpclient.LifeExited, Text: "server exited with code 0"}},
	}
	m := openOffline(t, pairedRecording(lines))
	keys(t, m, "2")
	v := loadedView(t, m)
	mustContain(t, "exited row", callRow(t, v, "#3 "), "server exited", "1ms")
	mustContain(t, "exited detail", v, "server was killed by signal KILL (event #4) while request #3 (tools/call other) was pending",
		"a response came after the server exited (#5); it is not used as the result", "answered from beyond")
	if strings.Contains(callRow(t, v, "#3 "), "ok") {
		t.Errorf("the call the exit failed reads ok:\n%s", v)
	}
	mustContain(t, "closed session", callRow(t, v, "#7 "), "no response")
}

// TestOfflineListingWarnings: a recorded listing with a name twice warns as the live
// listing does, and the Tools, Resources and Prompts list headers carry the warning.
func TestOfflineListingWarnings(t *testing.T) {
	lines := []recorded{
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`, nil},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{},"prompts":{}},"serverInfo":{"name":"s","version":"1"}}}`, nil},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}},{"name":"add","inputSchema":{"type":"object"}},{"name":"echo","inputSchema":{"type":"object"}}]}}`, nil},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"resources/list"}`, nil},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{"resources":[{"uri":"file:///a","name":"a"},{"uri":"file:///a","name":"a again"}]}}`, nil},
		// The templates listing that follows keeps the resources listing's warning shown.
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":4,"method":"resources/templates/list"}`, nil},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":4,"result":{"resourceTemplates":[]}}`, nil},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":3,"method":"prompts/list"}`, nil},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":3,"result":{"prompts":[{"name":"greet"},{"name":"greet"}]}}`, nil},
	}
	m := openOffline(t, pairedRecording(lines))
	keys(t, m, "1")
	mustContain(t, "tools header", view(m), "tools (3) · ⚠ tools/list: 2 entries")
	keys(t, m, "5")
	mustContain(t, "resources header", view(m), "resources (2) · templates (0) · ⚠ reso")
	keys(t, m, "6")
	mustContain(t, "prompts header", view(m), "prompts (2) · ⚠ prompts/list: 2 entri")
	n := 0
	for _, w := range m.state().Warnings {
		if strings.Contains(w, "resources/list: 2 entries") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the Server pane lists the resources warning %d times: %q", n, m.state().Warnings)
	}
}

// TestListHeaderWithoutWarnings: a clean listing's header is the plain count.
func TestListHeaderWithoutWarnings(t *testing.T) {
	m := openOffline(t, recordTrace(t))
	keys(t, m, "6")
	v := view(m)
	mustContain(t, "prompts header", v, "prompts (1)")
	if strings.Contains(v, "⚠") {
		t.Errorf("a clean listing warns:\n%s", v)
	}
}

// TestOfflineLostTraceLines: the note mcp-inspect open puts after unreadable trace lines
// reaches the Server pane's warnings and makes the recording read as incomplete.
func TestOfflineLostTraceLines(t *testing.T) {
	evs := recordTrace(t)
	// As the trace reader marks it (session.MarkLostLines): the count, and the note.
	evs[5].LostLines = 1
	evs[5].Problems = append(evs[5].Problems, mcpclient.Problem{Severity: mcpclient.Info, Code: mcpclient.CodeTraceLinesLost, Text: "1 trace line(s) just before this event could not be read (bad json)"})
	m := openOffline(t, evs)
	if !m.state().Incomplete {
		t.Error("the recording with lost lines does not read as incomplete")
	}
	keys(t, m, "4")
	mustContain(t, "server pane", view(m), "trace: before event #6: 1 trace line(s) just before this event could not be read")
}

// TestOfflineTaskEndsAtTheServersExit: a task call still working when the server was
// killed reads "server exited", not "task running"; its detail names the CreateTaskResult
// that answered the call and the task's last known status.
func TestOfflineTaskEndsAtTheServersExit(t *testing.T) {
	lines := []recorded{
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, nil},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"tasks","version":"1"}}}}`, nil},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"task_slow","arguments":{}}}`, nil}, // seq 3
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{"resultType":"task","taskId":"t-9","status":"working","ttlMs":600000,"pollIntervalMs":50}}`, nil},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"t-9"}}`, nil},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","taskId":"t-9","status":"working"}}`, nil},
		{life: &mcpclient.LifeInfo{Kind: mcpclient.LifeExited, ExitCode: -1, Signal: "killed", Text: "server was killed by signal KILL"}}, // seq 7
	}
	m := openOffline(t, pairedRecording(lines))
	keys(t, m, "2")
	v := loadedView(t, m)
	mustContain(t, "task row", callRow(t, v, "#3 "), "server exited", "4ms")
	mustContain(t, "task detail", v, "server was killed by signal KILL (event #7) while task t-9 of tools/call task_slow (request #3) was still running",
		// The call was answered with the CreateTaskResult (#4), as the live pane says.
		"request #3 → response #4", "ran as task t-9 (last known status: working)")
	if strings.Contains(v, "no response") {
		t.Errorf("the task call reads as unanswered:\n%s", v)
	}
	if strings.Contains(v, "task running") {
		t.Errorf("the task reads as running after the server died:\n%s", v)
	}
}

// TestOfflineCallSave: w in a recorded session's Call pane saves the selected call's
// response to frames/ in the state directory and says where, as on a live session.
func TestOfflineCallSave(t *testing.T) {
	resp := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"e"}]}}`
	lines := append(append([]recorded(nil), modernHandshake...),
		recorded{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}`, nil}, // seq 3
		recorded{mcpclient.ServerToClient, resp, nil}, // seq 4
	)
	m := openOffline(t, pairedRecording(lines))
	m.c.hist.dir = t.TempDir()
	keys(t, m, "2")
	_ = loadedView(t, m)
	_, cmd := m.Update(keyMsg("w"))
	saved, ok := findMsg[frameSavedMsg](cmd)
	if !ok || saved.err != nil {
		t.Fatalf("w saved nothing: %+v %v", saved, ok)
	}
	m.Update(saved)
	data, err := os.ReadFile(saved.path)
	if err != nil || string(data) != resp || filepath.Dir(saved.path) != filepath.Join(m.c.hist.dir, "frames") {
		t.Fatalf("saved %s: %q, %v", saved.path, data, err)
	}
	mustContain(t, "saved note", view(m), "frame #4 saved to "+saved.path[:20])
}

// TestOfflineSubscriptions: the recorded Resources pane shows a resource subscribed when
// the trace holds its accepted resources/subscribe, and not once it was unsubscribed; a
// refused subscribe changes nothing.
func TestOfflineSubscriptions(t *testing.T) {
	lines := []recorded{
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`, nil},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"resources":{"subscribe":true}},"serverInfo":{"name":"s","version":"1"}}}`, nil},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"resources/list"}`, nil},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"resources":[{"uri":"file:///a","name":"a"},{"uri":"file:///b","name":"b"},{"uri":"file:///c","name":"c"}]}}`, nil},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"file:///a"}}`, nil},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{}}`, nil},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"file:///b"}}`, nil},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":3,"result":{}}`, nil},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":4,"method":"resources/unsubscribe","params":{"uri":"file:///b"}}`, nil},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":4,"result":{}}`, nil},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":5,"method":"resources/subscribe","params":{"uri":"file:///c"}}`, nil},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"no"}}`, nil},
	}
	m := openOffline(t, pairedRecording(lines))
	keys(t, m, "5", "g")
	for _, want := range []string{"● subscribed", "not subscribed", "not subscribed"} {
		mustContain(t, "resource detail", view(m), want)
		keys(t, m, "j")
	}
	if !m.resources.subs["file:///a"] || m.resources.subs["file:///b"] || m.resources.subs["file:///c"] {
		t.Fatalf("subscriptions %v", m.resources.subs)
	}
}
