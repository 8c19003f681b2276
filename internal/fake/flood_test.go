package fake

import (
	"fmt"
	"strings"
	"testing"
)

// TestFloodNotify: after initialized, every numbered notification arrives, in order, then the
// done line; a ping sent during the flood is still answered.
func TestFloodNotify(t *testing.T) {
	t.Parallel()
	const n = 5000
	p := scenario(t, "flood-notify", "FAKE_COUNT="+fmt.Sprint(n))
	p.send(initReq)
	if got := p.responseTo("1"); !strings.Contains(got, `"logging":{}`) {
		t.Fatalf("initialize should declare logging: %q", got)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	p.send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	next, pinged := 1, false
	for {
		l := p.line()
		if strings.HasPrefix(l, `{"jsonrpc":"2.0","id":"p",`) {
			pinged = true
			continue
		}
		if strings.Contains(l, `"data":"flood done `+fmt.Sprint(n)+`"`) {
			break
		}
		want := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"flood ` + fmt.Sprintf("%06d", next) + `"}}` + "\n"
		if l != want {
			t.Fatalf("notification %d:\n got %q\nwant %q", next, l, want)
		}
		next++
	}
	if next != n+1 {
		t.Fatalf("got %d notifications before done, want %d", next-1, n)
	}
	if !pinged {
		p.send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
		p.responseTo(`"p"`)
	}
}

// TestFloodStderr: every numbered stderr line is written once, in order, then the done line.
func TestFloodStderr(t *testing.T) {
	t.Parallel()
	const n = 3000
	p := scenario(t, "flood-stderr", "FAKE_COUNT="+fmt.Sprint(n), "FAKE_RATE=0")
	p.waitStderr(fmt.Sprintf("flood done %d\n", n))
	lines := strings.Split(strings.TrimSuffix(p.stderr.String(), "\n"), "\n")
	if len(lines) != n+1 {
		t.Fatalf("%d stderr lines, want %d", len(lines), n+1)
	}
	for i, l := range lines[:n] {
		if !strings.HasPrefix(l, fmt.Sprintf("flood %06d: ", i+1)) {
			t.Fatalf("stderr line %d is %q", i+1, l)
		}
	}
	// It still serves requests.
	p.exchange(initReq, defaultInit)
}
