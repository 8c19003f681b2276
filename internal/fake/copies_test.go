package fake

import (
	"path/filepath"
	"strings"
	"testing"
)

// single-copy runs once at a time: a second copy started while the first runs exits 1 and
// says why on stderr; once the first has exited, a new copy starts and answers.
func TestSingleCopy(t *testing.T) {
	t.Parallel()
	lock := EnvLock + "=" + filepath.Join(t.TempDir(), "lock")
	first := scenario(t, "single-copy", lock)
	first.handshake()
	second := scenario(t, "single-copy", lock)
	if e := second.wait(false); e.code != 1 || !strings.Contains(second.stderr.String(), "another copy is running") {
		t.Fatalf("the second copy: exit %+v, stderr %q", e, second.stderr.String())
	}
	if e := first.wait(true); e.code != 0 {
		t.Fatalf("the first copy: exit %+v", e)
	}
	third := scenario(t, "single-copy", lock)
	third.handshake()
	if e := third.wait(true); e.code != 0 {
		t.Fatalf("a copy after the first exited: exit %+v, stderr %q", e, third.stderr.String())
	}
}
