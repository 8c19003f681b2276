package ui

import (
	"flag"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

const (
	keysBegin = "<!-- keys:begin -->"
	keysEnd   = "<!-- keys:end -->"
)

// TestREADMEKeyTable: the key table in ../docs/reference.md (the README links it) (between the keys:begin and keys:end
// markers) is the one generated from the key map; -update rewrites it.
func TestREADMEKeyTable(t *testing.T) {
	const path = "../docs/reference.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	i, j := strings.Index(readme, keysBegin+"\n"), strings.Index(readme, keysEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %s … %s section", path, keysBegin, keysEnd)
	}
	i += len(keysBegin) + 1
	want := keyTable(defaultKeyMap())
	if got := readme[i:j]; got != want {
		if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
			if err := os.WriteFile(path, []byte(readme[:i]+want+readme[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("the key table in docs/reference.md differs from the key map; run go test ./ui -run TestREADMEKeyTable -update\n%s", lineDiff(got, want))
	}
}

// lineDiff lists the lines only in got (-) and only in want (+), in order.
func lineDiff(got, want string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	g, w := in(got), in(want)
	var b strings.Builder
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}

// TestKeyTableCoversKeyMap: every binding of every group is a row of the table.
func TestKeyTableCoversKeyMap(t *testing.T) {
	k := defaultKeyMap()
	rows, n := strings.Count(keyTable(k), "\n")-2, 0
	for _, g := range k.groups() {
		n += len(g.keys)
	}
	if rows != n {
		t.Fatalf("%d rows for %d bindings", rows, n)
	}
}

// helpContexts are the contexts panes and dialogs build their help from (keyMap's `in`
// tags): each is asked for by a pane or a dialog.
var helpContexts = []string{"tools", "call", "callform", "wire", "server", "resources", "prompts", "argsform",
	"logs", "tasks", "sampling", "elicitURL", "elicitForm", "roots", "rootsEditor", "line", "json"}

// TestHelpComesFromKeyMap: every binding outside the global and text-field groups is
// offered in a help context (or is one of the keys whose help is drawn where they work,
// listed here), every tag names a known context, and every pane's and dialog's help is
// the key map's bindings for its context.
func TestHelpComesFromKeyMap(t *testing.T) {
	// Shown in context rather than in the help page: the filter's arrows, the call-by-name
	// prompt, a list row's +, a multi-select's option keys (the form's foot), the level chooser.
	inPlace := map[string]bool{"List.FilterUp": true, "List.FilterDown": true, "Tools.NameArgs": true,
		"Form.AddItemRow": true, "Form.OptionPrev": true, "Form.OptionNext": true, "Form.Check": true, "Form.Clear": true,
		"Dialog.ChoosePrev": true, "Dialog.ChooseNext": true}
	k := defaultKeyMap()
	v := reflect.ValueOf(k)
	for i := range v.NumField() {
		group := v.Type().Field(i)
		for j := range group.Type.NumField() {
			f := group.Type.Field(j)
			name := group.Name + "." + f.Name
			in := strings.Fields(f.Tag.Get("in"))
			for _, c := range in {
				if !slices.Contains(helpContexts, c) {
					t.Errorf("%s is offered in %q, which no pane or dialog asks for", name, c)
				}
			}
			if len(in) == 0 && group.Name != "Global" && group.Name != "Input" && !inPlace[name] {
				t.Errorf("%s is in no pane's or dialog's help: tag it with `in`", name)
			}
		}
	}
	for _, c := range helpContexts {
		if len(k.offered(c)) == 0 {
			t.Errorf("context %q offers no key", c)
		}
	}

	helpOf := func(bs []key.Binding) string {
		var out []string
		for _, b := range bs {
			out = append(out, b.Help().Key+" "+b.Help().Desc)
		}
		return strings.Join(out, " · ")
	}
	m := goldenModel(t, 160, 48)
	want := map[paneID]string{paneTools: "tools", paneCall: "call", paneWire: "wire", paneServer: "server",
		paneResources: "resources", panePrompts: "prompts", paneLogs: "logs", paneTasks: "tasks"}
	for id := range paneCount {
		if got, w := helpOf(m.panes[id].bindings()), helpOf(m.c.keys.offered(want[id])); got != w {
			t.Errorf("%s help: %s\nwant %s", m.panes[id].title(), got, w)
		}
	}
	keys(t, m, "1", "enter")
	if got, w := helpOf(m.panes[paneCall].bindings()), helpOf(m.c.keys.offered("callform")); got != w {
		t.Errorf("form help: %s\nwant %s", got, w)
	}
}
