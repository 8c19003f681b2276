package session

import (
	"errors"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
)

// A server that answers every listing with another list_changed must not make the client
// list forever: after ListChangedBurst listings within the window, automatic re-listing
// pauses with a note naming the loop and its rate, and the user listing again resumes it.
func TestListChangedStormPauses(t *testing.T) {
	var ls Lists
	if arm := ls.Changed(Tools, t0); arm != 0 {
		t.Fatal("a timer before the handshake")
	}
	ls = Lists{}
	ls.Ready()
	now := t0
	for i := 0; i < ListChangedBurst-1; i++ {
		// The loop: each listing is answered with a list_changed at once.
		if arm := ls.Changed(Tools, now); arm != ListQuiet {
			t.Fatalf("list_changed %d: arm %v", i+1, arm)
		}
		now = now.Add(ListQuiet)
		send, arm, note := ls.Due(Tools, now)
		if !send || arm != 0 || note != nil || !ls.InFlight(Tools) {
			t.Fatalf("list_changed %d did not list again (%v %v %v)", i+1, send, arm, note)
		}
		again, note := ls.Listed(Tools, 3, nil, "")
		if again || ls.InFlight(Tools) || note == nil || *note != (Note{Info, "tools list changed: listed again, 3 tools"}) {
			t.Fatalf("listing %d: again %v note %+v", i+1, again, note)
		}
		now = now.Add(10 * time.Millisecond)
	}
	ls.Changed(Tools, now)
	now = now.Add(ListQuiet)
	send, _, note := ls.Due(Tools, now)
	if send || !ls.Paused(Tools) || ls.InFlight(Tools) {
		t.Fatalf("the storm was not paused (send=%v paused=%v)", send, ls.Paused(Tools))
	}
	want := "the server sent notifications/tools/list_changed 5 times in 1.04s (5/s), and each of the last 4 listings of tools brought another, though each waited for 200ms of quiet (it may answer every listing with another one): automatic re-listing of tools is paused; r lists again"
	if note == nil || note.Level != Warning || note.Text != want {
		t.Fatalf("note %+v\nwant %s", note, want)
	}
	if arm := ls.Changed(Tools, now); arm != 0 {
		t.Fatal("a paused kind was listed again automatically")
	}
	if !ls.UserRefresh(Tools) || ls.Paused(Tools) {
		t.Fatal("r must resume and list")
	}
	// The user's listing is not announced.
	if again, note := ls.Listed(Tools, 1, nil, ""); again || note != nil {
		t.Fatalf("user listing: %v %+v", again, note)
	}
	// Other kinds are not affected, and slow notifications never pause.
	for i := 0; i < 3*ListChangedBurst; i++ {
		at := t0.Add(time.Duration(i) * time.Second)
		ls.Changed(Prompts, at)
		if send, _, _ := ls.Due(Prompts, at.Add(ListQuiet)); !send {
			t.Fatalf("slow list_changed %d paused", i)
		}
		ls.Listed(Prompts, 1, nil, "")
	}
	if ls.Paused(Prompts) || ls.Paused(Resources) {
		t.Fatal("paused without a storm")
	}
}

// Issue 24 §6: list_changed notifications in a burst (five in 30 ms) get one listing, after
// ListQuiet without another; a steady stream still gets one every ListMaxWait; one timer
// at a time.
func TestListChangedDebounced(t *testing.T) {
	var ls Lists
	ls.Ready()
	if arm := ls.Changed(Tools, t0); arm != ListQuiet {
		t.Fatalf("first: arm %v", arm)
	}
	for i := 1; i < 5; i++ {
		if arm := ls.Changed(Tools, t0.Add(time.Duration(i)*6*time.Millisecond)); arm != 0 {
			t.Fatalf("list_changed %d started a second timer", i+1)
		}
	}
	// The timer fires ListQuiet after the first; the last came 24 ms later: wait for it.
	send, arm, _ := ls.Due(Tools, t0.Add(ListQuiet))
	if send || arm != 24*time.Millisecond || ls.InFlight(Tools) {
		t.Fatalf("listed before the quiet interval: send %v arm %v", send, arm)
	}
	if send, arm, _ = ls.Due(Tools, t0.Add(ListQuiet+arm)); !send || arm != 0 || !ls.InFlight(Tools) {
		t.Fatalf("no listing after the quiet interval: send %v arm %v", send, arm)
	}
	if again, note := ls.Listed(Tools, 2, nil, "added add"); again || note == nil || note.Text != "tools list changed: listed again, 2 tools: added add" {
		t.Fatalf("listed: %v %+v", again, note)
	}
	if _, arm, _ := ls.Due(Tools, t0.Add(time.Hour)); arm != 0 {
		t.Fatal("a stale timer re-armed")
	}

	// A steady stream (one every 100 ms, never quiet for ListQuiet) is listed at ListMaxWait.
	start := t0.Add(time.Minute)
	ls.Changed(Resources, start)
	var listedAt time.Time
	at := start
	for next := start.Add(ListQuiet); listedAt.IsZero() && next.Before(start.Add(3*ListMaxWait)); {
		for at.Add(100*time.Millisecond).Before(next) || at.Add(100*time.Millisecond).Equal(next) {
			at = at.Add(100 * time.Millisecond)
			ls.Changed(Resources, at)
		}
		send, arm, _ := ls.Due(Resources, next)
		if send {
			listedAt = next
		}
		next = next.Add(arm)
	}
	if listedAt.IsZero() || listedAt.Sub(start) != ListMaxWait {
		t.Fatalf("a steady stream was listed at %v after its first, want %v", listedAt.Sub(start), ListMaxWait)
	}
}

// A list_changed while a listing is in flight asks for one more after it, never a pile.
func TestListRefreshCoalesces(t *testing.T) {
	var ls Lists
	ls.Ready()
	ls.Start(Resources)
	for i := 0; i < 3; i++ {
		if ls.Refresh(Resources) {
			t.Fatal("listed again while one is in flight")
		}
	}
	if !ls.Dirty(Resources) || ls.Dirty(Tools) {
		t.Fatal("a refresh asked for while listing is not marked dirty (or the wrong list is)")
	}
	again, note := ls.Listed(Resources, 2, nil, "")
	if !again || !ls.InFlight(Resources) || ls.Dirty(Resources) || note == nil || note.Text != "resources list changed: listed again, 2 resources" {
		t.Fatalf("again %v note %+v", again, note)
	}
	again, note = ls.Listed(Resources, 1, errors.New("boom"), "")
	if again || note == nil || *note != (Note{Warning, "resources list changed; listing it again failed: boom"}) {
		t.Fatalf("second: again %v note %+v", again, note)
	}
	if n := jsontext.Count(1, "prompt", "prompts"); n != "1 prompt" {
		t.Fatal(n)
	}
}

// The user's r on resources or prompts takes a listing in flight; on tools it asks for
// one more after it.
func TestUserRefreshWhileInFlight(t *testing.T) {
	var ls Lists
	ls.Ready()
	ls.Start(Prompts)
	if ls.UserRefresh(Prompts) {
		t.Fatal("prompts listed twice at once")
	}
	if again, note := ls.Listed(Prompts, 0, nil, ""); again || note != nil {
		t.Fatalf("prompts: %v %+v", again, note)
	}
	ls.Start(Tools)
	if ls.UserRefresh(Tools) {
		t.Fatal("tools listed twice at once")
	}
	if again, _ := ls.Listed(Tools, 0, nil, ""); !again {
		t.Fatal("tools r in flight did not list once more")
	}
}

func TestListNames(t *testing.T) {
	for m, want := range map[string]List{"notifications/tools/list_changed": Tools, "notifications/resources/list_changed": Resources, "notifications/prompts/list_changed": Prompts} {
		if l, ok := ListChangedOf(m); !ok || l != want {
			t.Errorf("%s: %v %v", m, l, ok)
		}
	}
	if _, ok := ListChangedOf("notifications/message"); ok {
		t.Error("not a list_changed")
	}
	if Tools.String() != "tools" || Resources.String() != "resources" || Prompts.String() != "prompts" || List(9).String() != "List(9)" {
		t.Error("names")
	}
	var ls Lists
	if ls.Refresh(0) || ls.UserRefresh(9) || ls.InFlight(0) {
		t.Error("an unknown list is refreshed")
	}
	if arm := ls.Changed(0, t0); arm != 0 {
		t.Error("unknown list changed")
	}
	if send, arm, note := ls.Due(0, t0); send || arm != 0 || note != nil {
		t.Error("unknown list due")
	}
}
