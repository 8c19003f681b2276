//go:build linux

package fake

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
)

// writesOf runs a scenario with its stdout on a SOCK_SEQPACKET socket, which keeps message
// boundaries: every read returns exactly what one write(2) of the server wrote. It feeds
// input, closes stdin, and returns the server's writes in order.
func writesOf(t *testing.T, scenario string, input ...string) []string {
	t.Helper()
	a, b, err := platformtest.SeqpacketPair()
	if err != nil {
		t.Fatalf("socketpair: %v", err)
	}
	ours, theirs := os.NewFile(uintptr(a), "ours"), os.NewFile(uintptr(b), "theirs")
	defer ours.Close()
	cmd := exec.Command(Binary(t), "--scenario", scenario)
	cmd.Stdin = strings.NewReader(strings.Join(input, "\n") + "\n")
	cmd.Stdout = theirs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	theirs.Close() // so the socket reports EOF once the server exits
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	var writes []string
	buf := make([]byte, 1<<20)
	_ = ours.SetReadDeadline(time.Now().Add(timeout))
	for {
		n, err := ours.Read(buf)
		if n > 0 {
			writes = append(writes, string(buf[:n]))
		}
		if errors.Is(err, io.EOF) || (err == nil && n == 0) {
			break
		}
		if err != nil {
			t.Fatalf("read: %v (after %d writes)", err, len(writes))
		}
	}
	if err := <-done; err != nil {
		t.Fatalf("server: %v", err)
	}
	return writes
}

func TestB02WriteBoundaries(t *testing.T) {
	t.Parallel()
	got := writesOf(t, "b02",
		initReq,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
	)
	want := []string{
		defaultInit[:40],
		defaultInit[40:] + "\n",
		`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n" + `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}` + "\n",
		"debug: echo called\n" + `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hi"}]}}` + "\n",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
		t.Fatalf("writes:\n got %q\nwant %q", got, want)
	}
}

func TestB02bOneBytePerWrite(t *testing.T) {
	t.Parallel()
	got := writesOf(t, "b02b",
		initReq,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
	)
	resp := `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hi"}]}}` + "\n"
	if len(got) != 2+len(resp) {
		t.Fatalf("%d writes, want 2 for initialize and %d for the response: %q", len(got), len(resp), got)
	}
	if got[0]+got[1] != defaultInit+"\n" {
		t.Errorf("initialize: %q", got[:2])
	}
	for i, w := range got[2:] {
		if w != resp[i:i+1] {
			t.Fatalf("write %d of the response is %q, want the single byte %q", i, w, resp[i:i+1])
		}
	}
}

// TestOneWritePerFrame checks that ordinary scenarios put each frame on the wire in a single
// write, which is what a client's "one read = one message" bug needs to be reproduced only
// where a scenario means it.
func TestOneWritePerFrame(t *testing.T) {
	t.Parallel()
	got := writesOf(t, "b01",
		initReq,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	)
	want := []string{
		"Demo MCP Server v1.0.0 started successfully\n",
		defaultInit + "\n",
		"[MCP] list_tools requested\n",
		`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","description":"Echo text back","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}]}}` + "\n",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
		t.Fatalf("writes:\n got %q\nwant %q", got, want)
	}
}
