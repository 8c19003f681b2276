package ui

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/session"
)

// stateDump writes every value reachable from v (through pointers, structs, slices, maps
// and interfaces; funcs and channels are skipped) as path=value lines, so two dumps differ
// exactly where the state differs. A pointer already seen is written once.
func stateDump(v reflect.Value) string {
	d := dumper{seen: map[[2]uintptr]bool{}}
	d.walk(v, "m")
	return d.b.String()
}

type dumper struct {
	b    strings.Builder
	seen map[[2]uintptr]bool
}

// skipFields are fields outside the model's own state: the session under test (its fake
// answers on goroutines), the context, the logger and the clock.
var skipFields = map[string]bool{"sess": true, "ctx": true, "log": true, "events": true, "now": true}

func (d *dumper) walk(v reflect.Value, path string) {
	switch v.Kind() {
	case reflect.Invalid, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return
	case reflect.Pointer:
		if v.IsNil() {
			fmt.Fprintf(&d.b, "%s=nil\n", path)
			return
		}
		k := [2]uintptr{v.Pointer(), uintptr(reflect.ValueOf(v.Type()).Pointer())}
		if d.seen[k] {
			return
		}
		d.seen[k] = true
		d.walk(v.Elem(), path)
	case reflect.Interface:
		if v.IsNil() {
			fmt.Fprintf(&d.b, "%s=nil\n", path)
			return
		}
		fmt.Fprintf(&d.b, "%s:%s\n", path, v.Elem().Type())
		d.walk(v.Elem(), path)
	case reflect.Struct:
		if pp := v.Type().PkgPath(); strings.HasSuffix(pp, "/internal/memoization") || strings.HasSuffix(pp, "/bubbles/v2/viewport") {
			// The raw JSON textarea's own render memo and viewport: its View (a value
			// receiver) fills them through pointers, out of our reach. ui uses no viewport.
			return
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if skipFields[f.Name] {
				continue
			}
			d.walk(v.Field(i), path+"."+f.Name)
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			fmt.Fprintf(&d.b, "%s=nil\n", path)
			return
		}
		fmt.Fprintf(&d.b, "%s#%d\n", path, v.Len())
		if v.Type().Elem().Kind() == reflect.Uint8 {
			fmt.Fprintf(&d.b, "%s=%q\n", path, v.Bytes())
			return
		}
		for i := range v.Len() {
			d.walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Map:
		fmt.Fprintf(&d.b, "%s#%d\n", path, v.Len())
		keys := v.MapKeys()
		names := make([]string, len(keys))
		for i, k := range keys {
			names[i] = fmt.Sprint(k)
		}
		order := make([]int, len(keys))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(names[a], names[b]) })
		for _, i := range order {
			d.walk(v.MapIndex(keys[i]), path+"["+names[i]+"]")
		}
	default:
		fmt.Fprintf(&d.b, "%s=%v\n", path, v)
	}
}

// requireViewOnly draws m and fails when drawing changed anything reachable from it.
func requireViewOnly(t *testing.T, m *model, what string) {
	t.Helper()
	before := stateDump(reflect.ValueOf(m))
	out := view(m)
	after := stateDump(reflect.ValueOf(m))
	if before == after {
		if again := view(m); again != out {
			t.Errorf("%s: drawing twice gave different screens", what)
		}
		return
	}
	// The lines drawing added or changed (a set difference: paths are unique).
	was := map[string]bool{}
	for _, l := range strings.Split(before, "\n") {
		was[l] = true
	}
	var diff []string
	for _, l := range strings.Split(after, "\n") {
		if !was[l] && len(diff) < 12 {
			diff = append(diff, "+ "+l)
		}
	}
	t.Errorf("%s: View changed the model:\n%s", what, strings.Join(diff, "\n"))
}

// TestViewOnlyReads draws the model in the states of the pane and dialog goldens, and in
// states where a view used to write (a form scrolled to its focused field, an argument
// form sized by the view, a wire detail cached by the view, the raw JSON editor sized by
// the view), and checks drawing changed nothing.
func TestViewOnlyReads(t *testing.T) {
	// The golden sizes, and a small terminal where the forms scroll.
	for _, sz := range append(slices.Clone(goldenSizes), [2]int{60, 12}) {
		name := fmt.Sprintf("%dx%d", sz[0], sz[1])
		m := goldenModel(t, sz[0], sz[1])
		for id := range paneCount {
			keys(t, m, fmt.Sprint(int(id)+1))
			requireViewOnly(t, m, name+" pane "+m.panes[id].title())
		}
		keys(t, m, "?")
		requireViewOnly(t, m, name+" help")
		keys(t, m, "?")

		// The wire pane on a frame not drawn yet.
		keys(t, m, "3", "g")
		requireViewOnly(t, m, name+" wire, first frame")
		keys(t, m, "j", "a")
		requireViewOnly(t, m, name+" wire, show all")

		// The call form of greet, its cursor walked down past the screen and back.
		keys(t, m, "1", "j", "enter")
		for range 12 {
			keys(t, m, "tab")
			requireViewOnly(t, m, name+" form, tab")
		}
		keys(t, m, "shift+tab")
		requireViewOnly(t, m, name+" form, shift+tab")
		keys(t, m, "ctrl+e")
		requireViewOnly(t, m, name+" form, raw JSON")
		keys(t, m, "ctrl+e", "esc")

		// A resource template's argument form, and a prompt's.
		keys(t, m, "5", "G", "enter")
		requireViewOnly(t, m, name+" template form")
		for range 3 {
			keys(t, m, "tab")
			requireViewOnly(t, m, name+" template form, tab")
		}
		keys(t, m, "esc", "6", "G", "enter")
		requireViewOnly(t, m, name+" prompt form")
		for range 3 {
			keys(t, m, "tab")
			requireViewOnly(t, m, name+" prompt form, tab")
		}
		keys(t, m, "shift+tab")
		requireViewOnly(t, m, name+" prompt form, shift+tab")
	}
}

// TestViewOnlyReadsDialogs checks drawing each golden dialog changes nothing.
func TestViewOnlyReadsDialogs(t *testing.T) {
	rec := &answerLog{}
	for _, sz := range goldenSizes {
		m := goldenModel(t, sz[0], sz[1])
		keys(t, m, "3")
		drive(t, m, serverRequestsMsg{reqs: []*session.Inbound{
			rec.req("sampling/createMessage", `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":100}`),
			rec.req("elicitation/create", `{"message":"Who are you?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"},"admin":{"type":"boolean"}},"required":["name"]}}`),
			rec.req("roots/list", `{}`),
		}})
		requireViewOnly(t, m, "sampling dialog")
		keys(t, m, "esc")
		requireViewOnly(t, m, "elicitation dialog")
		keys(t, m, "tab", "tab")
		requireViewOnly(t, m, "elicitation dialog, tabbed")
		for _, k := range []string{"R", "S", "E"} {
			m := goldenModel(t, sz[0], sz[1])
			keys(t, m, k)
			requireViewOnly(t, m, "dialog "+k)
		}
	}
}
