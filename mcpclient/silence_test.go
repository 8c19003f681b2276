package mcpclient_test

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// silenceIn is the notes of a session that start with prefix.
func silenceIn(evs []mcpclient.Event, prefix string) []string {
	var out []string
	for _, n := range notes(evs) {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}

// The course's first server (LSP-style framing, silent on a JSON line): after the silence
// the client says what is likely and names the flag, once, without waiting out the timeout
// for that; the request itself still waits for its answer.
func TestSilentServerNamed(t *testing.T) {
	s := startFake(t, "lsp-silent", func(c *mcpclient.Config) { c.Silence = 300 * time.Millisecond; c.Timeout = 2 * time.Second })
	start := time.Now()
	_, err := s.c.Initialize(context.Background())
	if err == nil {
		t.Fatal("a silent server answered")
	}
	evs := s.events(t)
	got := silenceIn(evs, mcpclient.SilenceNote)
	if len(got) != 1 || !strings.Contains(got[0], "framed LSP-style") || !strings.Contains(got[0], "--framing content-length") {
		t.Fatalf("silence notes %q", got)
	}
	if runtime.GOOS == "linux" && !strings.Contains(got[0], "though it read what mcp-inspect sent") {
		t.Errorf("the note does not say the server read its stdin: %q", got[0])
	}
	for _, ev := range evs {
		if ev.Life != nil && strings.HasPrefix(ev.Life.Text, mcpclient.SilenceNote) && ev.Time.Sub(start) > time.Second {
			t.Errorf("the note came %v after initialize", ev.Time.Sub(start))
		}
	}
}

// --framing auto on the silent server: after the silence it sends initialize again framed
// with Content-Length, follows the answer, and the session works that way.
func TestSilentServerAutoFraming(t *testing.T) {
	s := startFake(t, "lsp-silent", func(c *mcpclient.Config) { c.Framing = mcpclient.FramingAuto; c.Silence = 300 * time.Millisecond })
	ctx := context.Background()
	if _, err := s.c.Initialize(ctx); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if tools, _, err := s.c.ListTools(ctx); err != nil || len(tools) != 1 {
		t.Fatalf("tools/list: %v %v", tools, err)
	}
	if got := s.c.Framing(); got != mcpclient.FramingContentLength {
		t.Errorf("writes %s", got)
	}
	got := silenceIn(s.events(t), mcpclient.FramingAutoNote)
	if len(got) != 2 || !strings.Contains(got[0], "re-sending 1 pending request(s) framed with Content-Length") || !strings.Contains(got[1], "answered the Content-Length framed request") {
		t.Fatalf("notes %q", got)
	}
}

// A server still starting (it has not read its stdin) is said to be so, not taken for an
// LSP-style one: --framing auto does not switch, and the session works once it starts.
func TestSlowStartNotTakenForLSP(t *testing.T) {
	s := startFake(t, "slow-start", func(c *mcpclient.Config) {
		c.Framing = mcpclient.FramingAuto
		c.Silence = 300 * time.Millisecond
		// Half-way between two looks (every 300 ms): at 1200 ms the server read its stdin
		// within a millisecond of the fourth look now and then, and that look, seeing the
		// bytes read and no answer yet, rightly tried Content-Length.
		c.Env = append(c.Env, fake.EnvStartMS+"=1350")
	})
	if _, err := s.c.Initialize(context.Background()); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if got := s.c.Framing(); got != mcpclient.FramingNewline {
		t.Errorf("writes %s", got)
	}
	evs := s.events(t)
	auto := silenceIn(evs, mcpclient.FramingAutoNote)
	if runtime.GOOS != "linux" {
		// Only Linux tells whether stdin was read: elsewhere auto tries Content-Length at
		// the silence, and goes back to newline JSON when the newline answer comes.
		if len(auto) > 0 && !strings.Contains(auto[len(auto)-1], "newline JSON from now on") {
			t.Errorf("auto notes %q", auto)
		}
		return
	}
	if len(auto) != 0 {
		t.Errorf("auto acted: %q", auto)
	}
	said := silenceIn(evs, mcpclient.SilenceNote)
	if len(said) != 1 || !strings.Contains(said[0], "has not read its stdin") {
		t.Errorf("silence notes %q", said)
	}
}

// A server whose stdout is block-buffered answers only when its stdin closes: the answer
// that comes then is said to be the buffer flushed at exit, with the fix per language.
func TestBufferedStdoutNamed(t *testing.T) {
	s := startFake(t, "buffered", func(c *mcpclient.Config) { c.Timeout = 500 * time.Millisecond; c.Silence = -1 })
	if _, err := s.c.Initialize(context.Background()); err == nil {
		t.Fatal("a buffered server answered before its stdin closed")
	}
	got := silenceIn(s.events(t), mcpclient.BufferedNote)
	if len(got) != 1 || !strings.Contains(got[0], "came only once its stdin was closed") || !strings.Contains(got[0], "PYTHONUNBUFFERED=1") || !strings.Contains(got[0], "setvbuf") {
		t.Fatalf("notes %q", got)
	}
}

// initialize with id 0 (--first-id 0) that gets no answer says that some servers drop id 0,
// in the error itself, so the TUI and headless both show it.
func TestFirstIDZeroHint(t *testing.T) {
	s := startFake(t, "drop-id-0", func(c *mcpclient.Config) { c.FirstIDZero = true; c.Timeout = 300 * time.Millisecond; c.Silence = -1 })
	_, err := s.c.Initialize(context.Background())
	if err == nil || !strings.Contains(err.Error(), "some servers drop a request with id 0: try without it") {
		t.Fatalf("err = %v", err)
	}
	s.events(t)
}

// A block-buffered server that flushed its handshake holds its later answers until the
// buffer fills: they come together, to requests sent over more than a second, and the
// note says so with the fix, once.
func TestBufferedBurstNamed(t *testing.T) {
	s := startFake(t, "buffered", func(c *mcpclient.Config) {
		c.Env = []string{"FAKE_BUFFER=200", "FAKE_FLUSH_INIT=1"}
		c.Silence = -1
	})
	if _, err := s.c.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Five pings of 37 bytes fit the 200-byte buffer; the sixth's answer flushes them.
	done := make(chan error, 6)
	for i := range 6 {
		go func() { _, err := s.c.Ping(context.Background()); done <- err }()
		if i < 5 {
			time.Sleep(250 * time.Millisecond)
		}
	}
	for range 5 {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the buffered answers never came")
		}
	}
	time.Sleep(200 * time.Millisecond) // the note follows the burst
	s.c.Close()
	got := silenceIn(s.events(t), mcpclient.BufferedNote)
	if len(got) != 1 || !strings.Contains(got[0], "5 answers came together") || !strings.Contains(got[0], "to requests sent over 1") || !strings.Contains(got[0], "PYTHONUNBUFFERED=1") {
		t.Fatalf("notes %q", got)
	}
}
