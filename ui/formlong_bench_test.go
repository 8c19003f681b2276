package ui

import (
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// longForm opens greet's form with n characters already in the name field.
func longForm(b testing.TB, n int) *model {
	s := greetSession()
	m := newTestModel(b, s, 120, 40)
	exec(b, m, m.Init(), 0)
	keys(b, m, "j", "enter")
	p := m.call.form
	if p == nil || p.focused() == nil || p.focused().Key != "name" {
		b.Fatal("greet form not open on name")
	}
	_ = p.focused().SetText(strings.Repeat("A", n))
	p.loadInput()
	return m
}

// BenchmarkFormTypeLongValue measures one key typed (and one backspace) into a text
// field already holding n characters, each followed by a frame, as the runtime does.
func BenchmarkFormTypeLongValue(b *testing.B) {
	for _, n := range []int{2000, 20000, 200000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			m := longForm(b, n)
			a, bs := keyMsg("B"), keyMsg("backspace")
			for b.Loop() {
				m.Update(a)
				_ = m.render()
				m.Update(bs)
				_ = m.render()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/key")
		})
	}
}

// TestFormLongValueChecksOnPause: keys typed into a long value do not each check the
// whole form (that made a 200k-character paste never finish); the check runs once the
// keys pause, and an older pending check is dropped.
func TestFormLongValueChecksOnPause(t *testing.T) {
	m, _ := openGreet(t, 120, 40)
	p := m.call.form
	start := p.validations
	const n = 3000
	var last tea.Cmd
	ticks := 0
	for range n {
		_, cmd := m.Update(keyMsg("A"))
		if cmd != nil {
			last = cmd
			ticks++
		}
	}
	if ticks > 1 {
		t.Fatalf("%d deferred checks in flight at once: one is enough", ticks)
	}
	if got := p.input.Value(); len(got) != n {
		t.Fatalf("typed %d characters, input holds %d", n, len(got))
	}
	checks := p.validations - start
	if checks > lazyValidateBytes+10 || checks >= n {
		t.Fatalf("%d keys checked the form %d times: each key past %d bytes still checks it", n, checks, lazyValidateBytes)
	}
	if last == nil {
		t.Fatal("the last key asked for no deferred check")
	}
	// A tick set before the last keys waits again instead of checking.
	if _, again := m.Update(formValidateMsg{pane: p, gen: p.valGen - 1}); again == nil || p.validations-start != checks {
		t.Fatal("a tick older than the last key checked at once, or did not wait again")
	}
	m.Update(formValidateMsg{pane: p, gen: p.valGen})
	if p.validations-start != checks+1 {
		t.Fatal("the deferred check did not run after the pause")
	}
	out := view(m)
	if strings.Count(out, "A") > 120*6 {
		t.Fatalf("the view draws the whole value (%d A's), not the window around the cursor", strings.Count(out, "A"))
	}
}
