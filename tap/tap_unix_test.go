//go:build unix

package tap

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestForwardExactBytes is the fake host: bytes that are not JSON, invalid UTF-8, CRLF,
// a BOM, empty lines, a message split over three writes, a 10 MB message and a tail
// without a newline, checked byte for byte where the server read them (tee writes its
// stdin to a file) and where the host read them back, and in the trace.
func TestForwardExactBytes(t *testing.T) {
	serverIn := filepath.Join(t.TempDir(), "server-stdin.bin")
	h := startTap(t, []string{"sh", "-c", `exec tee "$1"`, "sh", serverIn}, nil)

	big := append([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","arguments":{"data":"`),
		bytes.Repeat([]byte("0123456789"), 1_000_000)...)
	big = append(big, "\"}}}\n"...)
	split := []string{`{"jsonrpc":"2.0",`, `"id":3,"method":"pi`, "ng\"}\n"}
	var input []byte
	send := func(b []byte) {
		input = append(input, b...)
		h.write(b)
	}
	send([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"))
	send([]byte("hello, this is not JSON\n"))
	send([]byte("\xff\xfe\x00\x01 raw bytes \xc3\x28\n"))
	send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\r\n"))
	send([]byte("\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}\n\n\n"))
	for _, part := range split {
		send([]byte(part))
		time.Sleep(30 * time.Millisecond)
	}
	send(big)
	send([]byte("tail without a newline"))
	got := h.waitHost(len(input), 30*time.Second)
	res := h.finish()

	if !bytes.Equal(got, input) {
		t.Fatalf("host side: got %d bytes, want %d; first difference at %d", len(got), len(input), firstDiff(got, input))
	}
	onServer, err := os.ReadFile(serverIn)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(onServer, input) {
		t.Fatalf("server side: got %d bytes, want %d; first difference at %d", len(onServer), len(input), firstDiff(onServer, input))
	}
	if res.ExitCode != 0 || res.Signal != "" || res.Code() != 0 {
		t.Errorf("result %+v, want exit 0", res)
	}

	_, evs := readTrace(t, h.trace)
	checkSeq(t, evs)
	if c2s := stream(evs, mcpclient.ClientToServer); !bytes.Equal(c2s, input) {
		t.Errorf("trace c2s: %d bytes, want %d (diff at %d)", len(c2s), len(input), firstDiff(c2s, input))
	}
	if s2c := stream(evs, mcpclient.ServerToClient); !bytes.Equal(s2c, input) {
		t.Errorf("trace s2c: %d bytes, want %d (diff at %d)", len(s2c), len(input), firstDiff(s2c, input))
	}
	var c2s, s2c []mcpclient.Event
	for _, ev := range evs {
		switch ev.Dir {
		case mcpclient.ClientToServer:
			c2s = append(c2s, ev)
		case mcpclient.ServerToClient:
			s2c = append(s2c, ev)
		}
	}
	// 1 ping, not JSON, bytes, CRLF, BOM, 2 empty lines, split, big, tail.
	if len(c2s) != 10 || len(s2c) != 10 {
		t.Fatalf("frames: %d c2s, %d s2c; want 10 each", len(c2s), len(s2c))
	}
	for i := range c2s {
		if c2s[i].Seq > s2c[i].Seq {
			t.Errorf("frame %d: c2s seq %d after s2c seq %d: events out of wire order", i, c2s[i].Seq, s2c[i].Seq)
		}
	}
	wantKinds := []mcpclient.Kind{mcpclient.KindRequest, mcpclient.KindNotJSON, mcpclient.KindNotJSON, mcpclient.KindNotification,
		mcpclient.KindRequest, mcpclient.KindEmpty, mcpclient.KindEmpty, mcpclient.KindRequest, mcpclient.KindRequest, mcpclient.KindNotJSON}
	for i, k := range wantKinds {
		if c2s[i].Kind != k {
			t.Errorf("c2s frame %d (%.40q): kind %v, want %v", i, c2s[i].Raw, c2s[i].Kind, k)
		}
	}
	if c2s[7].ChunkCount < 2 {
		t.Errorf("the split message shows %d chunk marks, want 2", c2s[7].ChunkCount)
	}
	if c2s[8].Size != int64(len(big)) || len(c2s[8].Raw) != len(big) {
		t.Errorf("the 10 MB message: size %d, %d bytes kept; want %d", c2s[8].Size, len(c2s[8].Raw), len(big))
	}
	last := evs[len(evs)-1]
	if last.Life == nil || last.Life.Kind != mcpclient.LifeExited || last.Life.ExitCode != 0 {
		t.Errorf("last event %+v, want the exit", last.Life)
	}
}

// TestExitCodeAndStderr: the server's exit code and stderr pass through and are recorded.
func TestExitCodeAndStderr(t *testing.T) {
	h := startTap(t, []string{"sh", "-c", `read line; echo "got $line" >&2; exit 7`}, nil)
	h.write([]byte("hello\n"))
	select {
	case <-h.done:
	case <-time.After(10 * time.Second):
		t.Fatal("tap did not end when the server exited")
	}
	if h.err != nil {
		t.Fatal(h.err)
	}
	if h.res.ExitCode != 7 || h.res.Code() != 7 {
		t.Errorf("result %+v, want exit 7", h.res)
	}
	if got := h.stderr.String(); got != "got hello\n" {
		t.Errorf("stderr %q, want the server's line only", got)
	}
	_, evs := readTrace(t, h.trace)
	if got := string(stream(evs, mcpclient.Stderr)); got != "got hello\n" {
		t.Errorf("trace stderr %q", got)
	}
	if texts := strings.Join(lifeTexts(evs), "|"); !strings.Contains(texts, "server exited with code 7") {
		t.Errorf("lifecycle %s", texts)
	}
	// The host saw EOF on stdout when the server ended, without closing stdin.
	select {
	case <-h.readEOF:
	case <-time.After(5 * time.Second):
		t.Error("the host's stdout was not closed")
	}
}

// TestSignalDeath: a server killed by a signal makes the tap report 128+n.
func TestSignalDeath(t *testing.T) {
	h := startTap(t, []string{"sh", "-c", `kill -TERM $$`}, nil)
	<-h.done
	if h.res.Signal != "TERM" || h.res.Code() != 128+15 || h.res.ExitCode != -1 {
		t.Errorf("result %+v, want SIGTERM and code 143", h.res)
	}
	_, evs := readTrace(t, h.trace)
	if texts := strings.Join(lifeTexts(evs), "|"); !strings.Contains(texts, "server killed by signal TERM") {
		t.Errorf("lifecycle %s", texts)
	}
}

// TestShutdownEscalates: a server that ignores the end of stdin and SIGTERM is killed with
// SIGKILL after two grace periods; the trace says each step; nothing of its group is left.
func TestShutdownEscalates(t *testing.T) {
	h := startTap(t, []string{"sh", "-c", `trap "" TERM; sleep 30 & wait; sleep 30`}, func(o *Options) { o.ShutdownGrace = 300 * time.Millisecond })
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	res := h.finish()
	took := time.Since(start)
	if res.Signal != "KILL" {
		t.Errorf("result %+v, want SIGKILL", res)
	}
	if took < 500*time.Millisecond || took > 10*time.Second {
		t.Errorf("shutdown took %v, want about two grace periods", took)
	}
	if platform.GroupAlive(h.pid) {
		t.Error("processes of the server's group are left")
	}
	_, evs := readTrace(t, h.trace)
	texts := strings.Join(lifeTexts(evs), "|")
	for _, want := range []string{"host closed stdin: closing the server's stdin", "sending SIGTERM to the server's process group", "sending SIGKILL to the server's process group", "server killed by signal KILL"} {
		if !strings.Contains(texts, want) {
			t.Errorf("lifecycle lacks %q: %s", want, texts)
		}
	}
}

// TestForkedChildrenEnded: a child the server left behind, holding its stdout open, is ended
// with the rest of the group, and the tap does not hang on it.
func TestForkedChildrenEnded(t *testing.T) {
	h := startTap(t, []string{"sh", "-c", `sleep 60 & echo started; exit 3`}, nil)
	select {
	case <-h.done:
	case <-time.After(15 * time.Second):
		t.Fatal("tap hung on the server's child")
	}
	if h.res.ExitCode != 3 {
		t.Errorf("result %+v, want exit 3", h.res)
	}
	if platform.GroupAlive(h.pid) {
		t.Error("the server's child outlived the tap")
	}
	if got := string(h.waitHost(len("started\n"), time.Second)); got != "started\n" {
		t.Errorf("host got %q", got)
	}
}

// TestHostStopsReading: when the host closes its end of stdout, the server is shut down.
func TestHostStopsReading(t *testing.T) {
	h := startTap(t, []string{"sh", "-c", `while :; do echo tick; sleep 0.01; done`}, nil)
	h.waitHost(5, 5*time.Second)
	h.out.Close()
	select {
	case <-h.done:
	case <-time.After(15 * time.Second):
		t.Fatal("tap did not stop when the host stopped reading")
	}
	if platform.GroupAlive(h.pid) {
		t.Error("server left running")
	}
	_, evs := readTrace(t, h.trace)
	texts := strings.Join(lifeTexts(evs), "|")
	if !strings.Contains(texts, "writing to the host failed") || !strings.Contains(texts, "host stopped reading: closing the server's stdin") {
		t.Errorf("lifecycle: %s", texts)
	}
}

// TestDetachedGrandchildHoldsPipes: a server whose child called setsid (out of reach of
// its process group) and holds the server's stdout and stderr open, then exits. The tap
// stops waiting for those pipes after a short drain, ends the trace with the exit and
// closes the host's stdout, all without the host closing stdin.
func TestDetachedGrandchildHoldsPipes(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
	start := time.Now()
	h := startTap(t, []string{os.Args[0], helperDetach, pidFile}, nil)
	grandchild := 0
	t.Cleanup(func() {
		if grandchild > 0 {
			_ = platformtest.Signal(grandchild, platformtest.SIGKILL)
		}
	})
	for deadline := time.Now().Add(20 * time.Second); grandchild == 0; time.Sleep(5 * time.Millisecond) {
		if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
			grandchild, _ = strconv.Atoi(string(b))
		}
		if time.Now().After(deadline) {
			t.Fatal("the server did not start its grandchild")
		}
	}
	select {
	case <-h.done:
	case <-time.After(20 * time.Second):
		t.Fatal("the tap hung on the pipes its server's detached grandchild holds")
	}
	t.Logf("tap ended %v after it started", time.Since(start).Round(time.Millisecond))
	if h.err != nil || h.res.ExitCode != 0 || h.res.Signal != "" {
		t.Errorf("Run: %+v, %v; want exit 0", h.res, h.err)
	}
	if !platformtest.Running(grandchild) {
		t.Fatal("the grandchild is gone: the test proves nothing")
	}
	select {
	case <-h.readEOF:
	case <-time.After(5 * time.Second):
		t.Error("the host's stdout was not closed")
	}
	if got := string(h.hostGot()); got != "detached\n" {
		t.Errorf("host got %q", got)
	}
	_, evs := readTrace(t, h.trace)
	last := evs[len(evs)-1]
	if last.Life == nil || last.Life.Kind != mcpclient.LifeExited || last.Life.ExitCode != 0 {
		t.Errorf("last event %+v, want the exit", last.Life)
	}
}
