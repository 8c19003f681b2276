package themes

import (
	"strings"
	"testing"
)

func TestPlainEmitsNoEscapes(t *testing.T) {
	s := Build(Plain())
	for _, st := range []string{s.Error.Render("x"), s.Selection.Render("x"), s.Title.Render("x"), s.StatusBar.Render("x"), s.Escape.Render("x")} {
		if strings.ContainsRune(st, 0x1b) {
			t.Fatalf("plain style emitted an escape: %q", st)
		}
	}
}

func TestNoColorKeepsSelectionVisible(t *testing.T) {
	p, err := Lookup("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	if p.Error != nil || p.Request != nil {
		t.Fatal("NO_COLOR palette has colors")
	}
	s := Build(p)
	if !s.Selection.GetReverse() {
		t.Fatal("selection is not reversed without colors")
	}
}

func TestLookup(t *testing.T) {
	if _, err := Lookup("nope", false); err == nil {
		t.Fatal("unknown theme accepted")
	}
	p, err := Lookup("", false)
	if err != nil || p.Error == nil {
		t.Fatalf("default theme: %v %+v", err, p)
	}
	if got := strings.Join(Names(), ","); got != "ansi,auto,catppuccin-mocha,dark,high-contrast,light,nocolor,plain,tokyo-night" {
		t.Fatalf("names %s", got)
	}
}
