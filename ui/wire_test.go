package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// wireSession is a small timeline: spawn, handshake request/response, a stderr line, a
// broken frame with CRLF, ESC and invalid UTF-8 read in two chunks, and a progress note.
func wireSession() []mcpclient.Event {
	req := ev(2, mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`+"\n")
	resp := ev(4, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","serverInfo":{"name":"fake","version":"1.0"}}}`+"\r\n")
	resp.Pair, resp.Method = 2, "initialize"
	resp.Problems = []mcpclient.Problem{{Severity: mcpclient.Info, Code: "crlf", Text: "line ends with \\r\\n"}}
	bad := ev(5, mcpclient.ServerToClient, "debug: \x1b[2Jcleared \xc7\xff\r\n")
	bad.Chunks, bad.ChunkCount = []int{9}, 1
	bad.Problems = append(bad.Problems, mcpclient.Problem{Severity: mcpclient.Warning, Code: "invalid-utf8", Text: "invalid UTF-8 at byte offset 17"})
	return []mcpclient.Event{
		life(1, mcpclient.LifeInfo{Kind: mcpclient.LifeStarted, PID: 4242, Text: "started pid 4242"}),
		req,
		ev(3, mcpclient.Stderr, "server starting on stdio\n"),
		resp,
		bad,
	}
}

func TestWireShowsRawBytesEscaped(t *testing.T) {
	m := newTestModel(t, nil, 140, 30)
	drive(t, m, eventsMsg{events: wireSession()})
	keys(t, m, "3")
	// Following: the last event (the broken frame) is selected.
	out := view(m)
	for _, want := range []string{
		`debug: \x1b[¦2Jcleared <C7><FF>\r\n`, // exact bytes, ESC and invalid UTF-8 visible, read boundary marked
		"⚠ invalid UTF-8 at byte offset 17 [invalid-utf8]",
		"arrived in 2 reads",
		"(not JSON)",
		"«", "stderr", "server starting on stdio", // stderr is in the same timeline
		"→ request", "initialize", "← response", "result (initialize)",
		"1 violation ·", "1 stderr", "pid 4242",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("wire view lacks %q\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\x07\r") || strings.Contains(out, "\xc7") {
		t.Fatalf("raw control bytes reached the screen:\n%q", out)
	}
	// The response shows its CRLF ending and the parsed message indented.
	keys(t, m, "k")
	out = view(m)
	for _, want := range []string{`"serverInfo":{"name":"fake","version":"1.0"}}}\r\n`, `"protocolVersion": "2025-11-25",`, "request: #2"} {
		if !strings.Contains(out, want) {
			t.Errorf("response detail lacks %q\n%s", want, out)
		}
	}
}

func TestWireJumpRequestResponse(t *testing.T) {
	m := newTestModel(t, nil, 140, 30)
	drive(t, m, eventsMsg{events: wireSession()})
	keys(t, m, "3", "g", "j") // first event, then the request (#2)
	if ev := m.wire.selected(); ev.seq != 2 {
		t.Fatalf("selected #%d, want the request #2", ev.seq)
	}
	keys(t, m, "p")
	if ev := m.wire.selected(); ev.seq != 4 {
		t.Fatalf("p from the request selected #%d, want its response #4", ev.seq)
	}
	if !strings.Contains(view(m), "request: #2  (p jumps there)") {
		t.Fatalf("response does not name its request:\n%s", view(m))
	}
	keys(t, m, "p")
	if ev := m.wire.selected(); ev.seq != 2 {
		t.Fatalf("p from the response selected #%d, want #2", ev.seq)
	}
	// A filter that hides the partner falls back to all.
	keys(t, m, "f") // messages
	if m.wire.filter != filterMessages {
		t.Fatalf("filter = %v", m.wire.filter)
	}
	keys(t, m, "f", "f") // problems, stderr
	if m.wire.filter != filterStderr || m.wire.count() != 1 || m.wire.selected().seq != 3 {
		t.Fatalf("stderr filter: %v count %d", m.wire.filter, m.wire.count())
	}
}

func TestWireFollowsNewEvents(t *testing.T) {
	m := newTestModel(t, nil, 100, 20)
	drive(t, m, eventsMsg{events: wireSession()})
	keys(t, m, "3")
	if m.wire.selected().seq != 5 {
		t.Fatal("not following")
	}
	keys(t, m, "k")
	drive(t, m, eventsMsg{events: []mcpclient.Event{ev(6, mcpclient.Stderr, "later\n")}})
	if m.wire.selected().seq != 4 {
		t.Fatalf("selection moved while not following: #%d", m.wire.selected().seq)
	}
	keys(t, m, "G")
	drive(t, m, eventsMsg{events: []mcpclient.Event{ev(7, mcpclient.Stderr, "even later\n")}})
	if m.wire.selected().seq != 7 {
		t.Fatalf("G did not resume following: #%d", m.wire.selected().seq)
	}
}

func TestWireGolden(t *testing.T) {
	for _, w := range []int{80, 140} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := newTestModel(t, nil, w, 24)
			drive(t, m, eventsMsg{events: wireSession()})
			keys(t, m, "3", "k")
			golden.RequireEqual(t, []byte(view(m)))
		})
	}
}

// manyEvents builds n events cheaply (shared raw bytes).
func manyEvents(n int) []mcpclient.Event {
	raw := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"tick"}}` + "\n")
	msg := &mcpclient.Message{JSONRPC: "2.0", Method: "notifications/message"}
	evs := make([]mcpclient.Event, n)
	for i := range evs {
		evs[i] = mcpclient.Event{Seq: uint64(i + 1), Time: t0.Add(time.Duration(i) * time.Microsecond), Dir: mcpclient.ServerToClient, Kind: mcpclient.KindNotification, Raw: raw, Size: int64(len(raw)), Msg: msg}
	}
	return evs
}

func TestWireMillionEventsStaysFast(t *testing.T) {
	m := newTestModel(t, nil, 140, 40)
	drive(t, m, eventsMsg{events: manyEvents(1_000_000)})
	keys(t, m, "3")
	start := time.Now()
	for i := 0; i < 50; i++ {
		keys(t, m, "k")
		_ = view(m)
	}
	// A generous bound (a loaded CI machine): it catches drawing all 1e6 rows (seconds per
	// key), not milliseconds; the keypress benchmarks measure the cost.
	if d := time.Since(start) / 50; d > 500*time.Millisecond {
		t.Fatalf("keypress + view takes %s with 1e6 events", d)
	}
	if !strings.Contains(view(m), "999950") {
		t.Fatalf("window not near the end:\n%s", view(m))
	}
}

func BenchmarkWireKeyAndView1e6(b *testing.B) {
	m := newTestModel(b, nil, 140, 40)
	m.Update(eventsMsg{events: manyEvents(1_000_000)})
	keys(b, m, "3")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			m.Update(keyMsg("k"))
		} else {
			m.Update(keyMsg("j"))
		}
		_ = m.View()
	}
}

// B05: a frame with only invalid UTF-8 (EUC-KR bytes, no controls) has the invalid-UTF-8
// warning and no "terminal control characters" badge; a frame with ESC has the badge.
func TestWireControlBadgeIsExact(t *testing.T) {
	bad := ev(2, mcpclient.ServerToClient, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"\xC7\xD1\xB1\xDB\"}]}}\n")
	esc := ev(3, mcpclient.Stderr, "about to \x1b[2J clear\n")
	m := newTestModel(t, nil, 140, 30)
	drive(t, m, eventsMsg{events: []mcpclient.Event{ev(1, mcpclient.Stderr, "hi\n"), bad, esc}})
	keys(t, m, "3", "k")
	out := view(m)
	mustContain(t, "invalid UTF-8 frame", out, "invalid UTF-8 at byte", "<C7>ѱ<DB>")
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "holds terminal control characters") || strings.Contains(l, "id=1") && strings.Contains(l, "␛") {
			t.Fatalf("invalid UTF-8 alone is not a control character:\n%s", out)
		}
	}
	keys(t, m, "j")
	mustContain(t, "ESC frame", view(m), "␛ holds terminal control characters", " ␛ ")
}

// The detail title names a stderr line once; an empty filter says the filter hides
// everything (not "no events yet"); the number column grows with the numbers.
func TestWireTitleFilterAndNumbers(t *testing.T) {
	m := newTestModel(t, nil, 140, 30)
	drive(t, m, eventsMsg{events: []mcpclient.Event{ev(15, mcpclient.Stderr, "boot\n")}})
	keys(t, m, "3")
	out := view(m)
	mustContain(t, "stderr title", out, "#15 « stderr")
	if strings.Contains(out, "stderr stderr") {
		t.Fatalf("the title repeats itself:\n%s", out)
	}
	keys(t, m, "f", "f") // messages, problems: none
	mustContain(t, "empty filter", view(m), "no events match this filter (problems)")
	if strings.Contains(view(m), "no events yet") {
		t.Fatal("an empty filter result claims there are no events")
	}

	m = newTestModel(t, nil, 140, 30)
	var evs []mcpclient.Event
	for _, seq := range []uint64{999_999, 1_000_000, 12_345_678} {
		evs = append(evs, ev(seq, mcpclient.Stderr, "line\n"))
	}
	drive(t, m, eventsMsg{events: evs})
	keys(t, m, "3")
	out = view(m)
	for _, want := range []string{"\n   999999 ", "\n  1000000 ", "\n▸12345678 "} {
		if !strings.Contains(out, want) {
			t.Errorf("number column lacks %q:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "12345678") && !strings.Contains(l, " « stderr ") {
			t.Errorf("the number pushed the row out of shape: %q", l)
		}
	}
}

// B02: a notification and a response framed from one read are marked as such; frames that
// came in separate reads are not.
func TestWireSameRead(t *testing.T) {
	note := ev(4, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`+"\n")
	note.Offset = 100
	resp := ev(5, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`+"\n")
	resp.Offset = note.Offset + note.Size
	resp.Time = note.Time.Add(40 * time.Microsecond)
	later := ev(6, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":3,"result":{}}`+"\n")
	later.Offset = resp.Offset + resp.Size
	later.Time = resp.Time.Add(200 * time.Millisecond)
	m := newTestModel(t, nil, 140, 30)
	drive(t, m, eventsMsg{events: []mcpclient.Event{note, resp, later}})
	keys(t, m, "3", "k")
	mustContain(t, "response", view(m), "arrived in the same read as #4")
	keys(t, m, "j")
	if strings.Contains(view(m), "same read") {
		t.Fatalf("a frame read 200 ms later is marked as sharing a read:\n%s", view(m))
	}
}

// TestWireDetailNotesVersusProblems: an allowed batch (negotiated 2025-03-26) carries only
// an Info note, shown under "notes"; after 2025-03-26 the same batch is a warning, under
// "problems".
func TestWireDetailNotesVersusProblems(t *testing.T) {
	heading := func(v, h string) bool {
		for _, l := range strings.Split(v, "\n") {
			if i := strings.LastIndex(l, "│"); i >= 0 && strings.TrimSpace(l[i+len("│"):]) == h {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		version    string
		want, not  string
		violations int
	}{
		{"2025-03-26", "notes", "problems", 0},
		{"2025-06-18", "problems", "notes", 1},
	} {
		t.Run(c.version, func(t *testing.T) {
			s2c := mcpclient.ServerToClient
			evs := pairedSession(c.version,
				frame{s2c, `[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}]` + "\n"},
			)
			m := newTestModel(t, nil, 200, 50)
			m.Update(eventsMsg{events: evs})
			keys(t, m, "3")
			v := view(m)
			if m.tl.violations != c.violations {
				t.Fatalf("%d violations, want %d", m.tl.violations, c.violations)
			}
			if !heading(v, c.want) || heading(v, c.not) {
				t.Errorf("the batch's detail should head its note %q, not %q:\n%s", c.want, c.not, v)
			}
		})
	}
}
