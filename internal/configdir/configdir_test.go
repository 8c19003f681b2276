package configdir

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if d, from, _ := Dir(env(map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"})); d != "/x" || from != "XDG_CONFIG_HOME" {
		t.Errorf("XDG_CONFIG_HOME: %q %q", d, from)
	}
	if runtime.GOOS != "linux" {
		return
	}
	if d, from, _ := Dir(env(map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": "/h"})); d != filepath.Join("/h", ".config") || from != "HOME" {
		t.Errorf("a relative XDG_CONFIG_HOME is ignored: %q %q", d, from)
	}
	if d, _, why := Dir(env(nil)); d != "" || !strings.Contains(why, "$HOME is not set") && !strings.Contains(why, "nor $HOME") {
		t.Errorf("no HOME: %q, %q", d, why)
	}
	if d, _, why := Dir(env(map[string]string{"XDG_CONFIG_HOME": "rel"})); d != "" || !strings.Contains(why, "relative") {
		t.Errorf("relative XDG, no HOME: %q, %q", d, why)
	}
}
