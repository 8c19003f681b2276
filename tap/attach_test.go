package tap

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// request is a JSON-RPC request line with a payload.
func requestLine(id int, pad int) []byte {
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"pad":"%s"}}}`+"\n", id, bytes.Repeat([]byte("p"), pad)))
}

// nextFrames reads events from s until it has n frames (c2s or s2c).
func nextFrames(t *testing.T, s *Stream, n int) []mcpclient.Event {
	t.Helper()
	var frames []mcpclient.Event
	_ = s.conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	defer s.conn.SetReadDeadline(time.Time{})
	for len(frames) < n {
		ev, err := s.Next()
		if err != nil {
			t.Fatalf("after %d frames: %v", len(frames), err)
		}
		if ev.Dir == mcpclient.ClientToServer || ev.Dir == mcpclient.ServerToClient {
			frames = append(frames, ev)
		}
	}
	return frames
}

// checkFrames checks frames hold requests first..first+len/2-1 once each way, in order per
// direction (how the host's writes were coalesced decides the interleaving).
func checkFrames(t *testing.T, what string, frames []mcpclient.Event, first, pad int) {
	t.Helper()
	next := map[mcpclient.Direction]int{mcpclient.ClientToServer: first, mcpclient.ServerToClient: first}
	for i, ev := range frames {
		want := requestLine(next[ev.Dir], pad)
		if !bytes.Equal(ev.Raw, want) || ev.Kind != mcpclient.KindRequest {
			t.Fatalf("%s frame %d (%v %v): %q, want %q", what, i, ev.Dir, ev.Kind, ev.Raw, want)
		}
		next[ev.Dir]++
	}
	if n := first + len(frames)/2; next[mcpclient.ClientToServer] != n || next[mcpclient.ServerToClient] != n {
		t.Errorf("%s: frames %v", what, next)
	}
}

// TestAttachMidSession: a viewer attaches after some traffic, gets the history, then the
// live messages, detaches; a crashed viewer and a second viewer come and go; the host↔server
// bytes are identical to a run with nobody watching, and the list shows the tap.
func TestAttachMidSession(t *testing.T) {
	h := startTap(t, catArgv(), nil)
	var input []byte
	send := func(b []byte) {
		input = append(input, b...)
		h.write(b)
	}
	for i := 1; i <= 5; i++ {
		send(requestLine(i, 10))
	}
	h.waitHost(len(input), 10*time.Second)

	// The recorder runs beside the stream: give it a moment to count the 10 frames.
	var info Info
	for deadline := time.Now().Add(10 * time.Second); ; {
		taps, err := List(h.sockDir)
		if err != nil || len(taps) != 1 {
			t.Fatalf("List = %+v, %v", taps, err)
		}
		info = taps[0]
		if info.Messages >= 10 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if info.Name != "test" || info.ServerPID != h.pid || info.Socket != h.socket || !slices.Equal(info.Argv, catArgv()) || info.Trace != h.trace {
		t.Errorf("info %+v", info)
	}
	if info.Messages != 10 {
		t.Errorf("info says %d messages, want 10", info.Messages)
	}

	// A viewer that crashes right after asking to attach changes nothing.
	c, err := net.Dial("unix", h.socket)
	if err != nil {
		t.Fatal(err)
	}
	c.Write([]byte(`{"op":"attach"}` + "\n"))
	c.Close()

	v, err := Attach(h.socket)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v.Header.Argv, catArgv()) {
		t.Errorf("header %+v", v.Header)
	}
	checkFrames(t, "history", nextFrames(t, v, 10), 1, 10)

	// Live traffic arrives while attached.
	for i := 6; i <= 8; i++ {
		send(requestLine(i, 2000))
	}
	checkFrames(t, "live", nextFrames(t, v, 6), 6, 2000)
	h.waitHost(len(input), 10*time.Second)

	// A second viewer gets everything so far.
	v2, err := Attach(h.socket)
	if err != nil {
		t.Fatal(err)
	}
	if all := nextFrames(t, v2, 16); !bytes.Equal(all[15].Raw, requestLine(8, 2000)) {
		t.Errorf("second viewer's last frame %q", all[15].Raw)
	}

	// Detach; the stream goes on.
	v.Close()
	for i := 9; i <= 12; i++ {
		send(requestLine(i, 100))
	}
	h.waitHost(len(input), 10*time.Second)
	// The second viewer sees those too, then the end of the session.
	nextFrames(t, v2, 8)
	res := h.finish()
	if res.Code() != 0 {
		t.Errorf("result %+v", res)
	}
	if got := h.hostGot(); !bytes.Equal(got, input) {
		t.Fatalf("host side differs: %d bytes, want %d", len(got), len(input))
	}
	sawExit := false
	for {
		ev, err := v2.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Errorf("end of stream: %v, want EOF", err)
			}
			break
		}
		if ev.Life != nil && ev.Life.Kind == mcpclient.LifeExited {
			sawExit = true
		}
	}
	if !sawExit {
		t.Error("the viewer did not see the server exit")
	}
	v2.Close()
	_, evs := readTrace(t, h.trace)
	if c2s := stream(evs, mcpclient.ClientToServer); !bytes.Equal(c2s, input) {
		t.Error("trace c2s differs")
	}
}

// TestSlowViewerDropped: a viewer that stops reading is dropped once it is ViewerBuffer
// behind, and told so; the host↔server stream is not slowed and stays identical; a viewer
// that attaches again afterwards gets the whole session.
func TestSlowViewerDropped(t *testing.T) {
	h := startTap(t, catArgv(), func(o *Options) { o.ViewerBuffer = 1 << 20 })
	stuck, err := Attach(h.socket)
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()

	line := append(bytes.Repeat([]byte("y"), 16383), '\n')
	var input []byte
	for range 1024 { // 16 MB each way
		input = append(input, line...)
	}
	start := time.Now()
	go h.write(input)
	got := h.waitHost(len(input), 30*time.Second)
	t.Logf("16 MB through the tap with a stuck viewer in %v", time.Since(start))
	if !bytes.Equal(got, input) {
		t.Fatal("host side differs")
	}

	// The stuck viewer reads what its socket buffer held, then learns it was dropped.
	var derr *DroppedError
	for {
		_ = stuck.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, err := stuck.Next()
		if err != nil {
			if !errors.As(err, &derr) {
				t.Fatalf("stuck viewer: %v, want a DroppedError", err)
			}
			break
		}
	}
	t.Logf("dropped: %s", derr.Reason)

	again, err := Attach(h.socket)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	frames := nextFrames(t, again, 2048)
	if !bytes.Equal(frames[2047].Raw, line) {
		t.Errorf("last frame %.40q", frames[2047].Raw)
	}
	h.finish()
}

// TestAttachNoFileHistoryBounded: a tap with no trace file (--no-save) keeps its newest
// events in memory up to its bound; a viewer attaching after a flood of 8 times that is
// told first, in a note, how many earlier events were dropped and why, then gets the
// newest ones whole, up to the last.
func TestAttachNoFileHistoryBounded(t *testing.T) {
	const n, pad = 400, 10 << 10
	h := startTap(t, catArgv(), func(o *Options) {
		o.TracePath, o.MemoryHistory, o.NoFileReason = "", 1<<20, "--no-save keeps no file"
	})
	var sent int
	for i := 1; i <= n; i++ {
		b := requestLine(i, pad)
		h.write(b)
		sent += len(b)
	}
	h.waitHost(sent, 20*time.Second)
	for deadline := time.Now().Add(20 * time.Second); ; {
		taps, err := List(h.sockDir)
		if err == nil && len(taps) == 1 && taps[0].Messages >= 2*n || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	v, err := Attach(h.socket)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	h.in.Close() // the session ends: the stream ends after the history
	first, err := v.Next()
	if err != nil || first.Seq != 0 || first.Life == nil || !strings.HasPrefix(first.Life.Text, "--no-save keeps no file: ") || !strings.Contains(first.Life.Text, " earlier events (") {
		t.Fatalf("first event %+v (%v); want the note that earlier events were dropped", first, err)
	}
	frames := map[mcpclient.Direction][]mcpclient.Event{}
	for {
		ev, err := v.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("after %d frames: %v", len(frames), err)
		}
		if ev.Dir == mcpclient.ClientToServer || ev.Dir == mcpclient.ServerToClient {
			frames[ev.Dir] = append(frames[ev.Dir], ev)
		}
	}
	// Each way: the newest requests, whole and in order, up to the last one.
	for _, dir := range []mcpclient.Direction{mcpclient.ClientToServer, mcpclient.ServerToClient} {
		got := frames[dir]
		if len(got) == 0 || len(got) >= n/2 {
			t.Fatalf("%v: %d of %d requests in the history; want the newest ones, about 1 MiB", dir, len(got), n)
		}
		for k, ev := range got {
			if want := requestLine(n-len(got)+1+k, pad); !bytes.Equal(ev.Raw, want) {
				t.Fatalf("%v frame %d: %.60q…, want %.60q…", dir, k, ev.Raw, want)
			}
		}
	}
	_ = h.finish()
}
