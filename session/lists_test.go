package session

import (
	"errors"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
)

// A server that answers every listing with another list_changed must not make the client
// list forever: after a burst, automatic re-listing pauses with a note, and the user
// listing again resumes it.
func TestListChangedStormPauses(t *testing.T) {
	var ls Lists
	if send, _ := ls.Changed(Tools, t0); send {
		t.Fatal("listed again before the handshake")
	}
	ls = Lists{}
	ls.Ready()
	at := func(i int) time.Time { return t0.Add(time.Duration(100+i) * time.Millisecond) }
	for i := 0; i < ListChangedBurst-1; i++ {
		send, note := ls.Changed(Tools, at(i))
		if !send || note != nil || !ls.InFlight(Tools) {
			t.Fatalf("list_changed %d did not list again (%v %v)", i+1, send, note)
		}
		again, note := ls.Listed(Tools, 3, nil, "")
		if again || ls.InFlight(Tools) || note == nil || *note != (Note{Info, "tools list changed: listed again, 3 tools"}) {
			t.Fatalf("listing %d: again %v note %+v", i+1, again, note)
		}
	}
	send, note := ls.Changed(Tools, at(ListChangedBurst))
	if send || !ls.Paused(Tools) || ls.InFlight(Tools) {
		t.Fatalf("the storm was not paused (send=%v paused=%v)", send, ls.Paused(Tools))
	}
	if note == nil || note.Level != Warning || note.Text != "the server sent notifications/tools/list_changed 5 times within 2s (it may answer every listing with another one): automatic re-listing of tools is paused; r lists again" {
		t.Fatalf("note %+v", note)
	}
	if send, note := ls.Changed(Tools, at(200)); send || note != nil {
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
		if send, _ := ls.Changed(Prompts, t0.Add(time.Duration(i)*time.Second)); !send {
			t.Fatalf("slow list_changed %d paused", i)
		}
		ls.Listed(Prompts, 1, nil, "")
	}
	if ls.Paused(Prompts) || ls.Paused(Resources) {
		t.Fatal("paused without a storm")
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
	if send, note := ls.Changed(0, t0); send || note != nil {
		t.Error("unknown list changed")
	}
}
