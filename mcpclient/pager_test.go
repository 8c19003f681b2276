package mcpclient

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPagerMergesRepeatsAcrossPages(t *testing.T) {
	p := NewPager("tools/list", "tools")
	pages := []string{
		`{"tools":[{"name":"a"},{"name":"b"},{"name":"b"}],"nextCursor":"2"}`,
		`{"tools":[{"name":"a"},{"name":"c"}],"nextCursor":"3"}`,
		`{"tools":[{"name":"a","description":"other"},{"name":"d"}]}`,
	}
	for i, pg := range pages {
		_, more, err := p.Add(json.RawMessage(pg))
		if err != nil || more != (i < 2) {
			t.Fatalf("page %d: more=%v err=%v", i+1, more, err)
		}
	}
	var names []string
	for i, it := range p.Items {
		id, _ := ItemIdentity("tools/list", it)
		names = append(names, id+"@"+string(rune('0'+p.Page[i])))
	}
	// b twice on one page stays twice (DuplicateWarnings names it); a is kept once.
	if got := strings.Join(names, " "); got != "a@1 b@1 b@1 c@2 d@3" {
		t.Errorf("items = %s", got)
	}
	r, ok := p.RepeatOf("a")
	if !ok || r.PagesText() != "1, 2 and 3" || !r.Differ {
		t.Errorf("repeat of a = %+v, %v; want pages 1, 2 and 3, copies differ", r, ok)
	}
	w := strings.Join(p.Finish(), "\n")
	for _, want := range []string{`tools/list: pages 1, 2 and 3 each carry the item with name "a" (the copies differ; page 1's is shown)`, `2 entries have name "b"`} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
}

func TestPagerCursors(t *testing.T) {
	p := NewPager("prompts/list", "prompts")
	if _, more, _ := p.Add(json.RawMessage(`{"prompts":[{"name":"p"}],"nextCursor":""}`)); more {
		t.Error("an empty-string cursor went on")
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], `prompts/list page 1: "nextCursor": ""`) {
		t.Errorf("warnings = %q, want the empty cursor noted", p.Warnings)
	}
	p = NewPager("prompts/list", "prompts")
	if _, more, _ := p.Add(json.RawMessage(`{"prompts":[],"nextCursor":"x"}`)); !more {
		t.Fatal("a cursor did not go on")
	}
	if _, more, _ := p.Add(json.RawMessage(`{"prompts":[],"nextCursor":"x"}`)); more || !strings.Contains(strings.Join(p.Warnings, ""), `cursor "x" repeated`) {
		t.Errorf("a repeated cursor: more=%v warnings=%q", more, p.Warnings)
	}
	p = NewPager("prompts/list", "prompts")
	if _, more, _ := p.Add(json.RawMessage(`{"prompts":[]}`)); more || len(p.Warnings) != 0 {
		t.Errorf("an absent cursor: more=%v warnings=%q", more, p.Warnings)
	}
	long := Repeat{Pages: []int{1, 2, 3, 4, 5, 6, 7, 8}}
	if got := long.PagesText(); got != "1, 2, 3, 4, … and 8 (8 pages)" {
		t.Errorf("PagesText = %q", got)
	}
}
