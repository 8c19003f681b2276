package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// B05: a frame with only invalid UTF-8 (EUC-KR bytes, no controls) has the invalid-UTF-8
// warning and no "terminal control characters" badge; a frame with ESC has the badge.
func TestWireControlBadgeIsExact(t *testing.T) {
	bad := ev(2, mcpclient.ServerToClient, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"\xC7\xD1\xB1\xDB\"}]}}\n")
	esc := ev(3, mcpclient.Stderr, "about to \x1b[2J clear\n")
	m := newTestModel(t, nil, 140, 30)
	send(t, m, eventsMsg{events: []mcpclient.Event{ev(1, mcpclient.Stderr, "hi\n"), bad, esc}})
	press(t, m, "3", "k")
	out := view(m)
	mustContain(t, "invalid UTF-8 frame", out, "invalid UTF-8 at byte", "<C7>ѱ<DB>")
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "holds terminal control characters") || strings.Contains(l, "id=1") && strings.Contains(l, "␛") {
			t.Fatalf("invalid UTF-8 alone is not a control character:\n%s", out)
		}
	}
	press(t, m, "j")
	mustContain(t, "ESC frame", view(m), "␛ holds terminal control characters", " ␛ ")
}

// The detail title names a stderr line once; an empty filter says the filter hides
// everything (not "no events yet"); the number column grows with the numbers.
func TestWireTitleFilterAndNumbers(t *testing.T) {
	m := newTestModel(t, nil, 140, 30)
	send(t, m, eventsMsg{events: []mcpclient.Event{ev(15, mcpclient.Stderr, "boot\n")}})
	press(t, m, "3")
	out := view(m)
	mustContain(t, "stderr title", out, "#15 « stderr")
	if strings.Contains(out, "stderr stderr") {
		t.Fatalf("the title repeats itself:\n%s", out)
	}
	press(t, m, "f", "f") // messages, problems: none
	mustContain(t, "empty filter", view(m), "no events match this filter (problems)")
	if strings.Contains(view(m), "no events yet") {
		t.Fatal("an empty filter result claims there are no events")
	}

	m = newTestModel(t, nil, 140, 30)
	var evs []mcpclient.Event
	for _, seq := range []uint64{999_999, 1_000_000, 12_345_678} {
		evs = append(evs, ev(seq, mcpclient.Stderr, "line\n"))
	}
	send(t, m, eventsMsg{events: evs})
	press(t, m, "3")
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
	send(t, m, eventsMsg{events: []mcpclient.Event{note, resp, later}})
	press(t, m, "3", "k")
	mustContain(t, "response", view(m), "arrived in the same read as #4")
	press(t, m, "j")
	if strings.Contains(view(m), "same read") {
		t.Fatalf("a frame read 200 ms later is marked as sharing a read:\n%s", view(m))
	}
}
