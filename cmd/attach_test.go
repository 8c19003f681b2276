//go:build unix

package cmd

import (
	"bufio"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/internal/tmuxtest"
)

// TestAttachTUI: with two taps running, `attach` with no name lists them and asks; the
// chosen tap opens in the TUI with its history (the host's handshake and tools/list) in the
// wire pane, live traffic shows up as it happens, and quitting the viewer does not disturb
// the host, which goes on talking to the server byte for byte.
func TestAttachTUI(t *testing.T) {
	bin := testservers.BuildInspector(t)
	se := testservers.ServerEverything(t)
	env := tapEnv(t)
	host := startTapProcess(t, env, append([]string{"--name", "everything", "--no-save", "--"}, se...)...)
	other := startTapProcess(t, env, "--name", "other", "--no-save", "--", "cat")
	defer other.in.Close()
	br := bufio.NewReader(host.out)
	send := func(line string) {
		t.Helper()
		if _, err := host.in.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	// waitID reads the host's stdout until the response with id arrives.
	waitID := func(id int) string {
		t.Helper()
		want := fmt.Sprintf(`"id":%d`, id)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				t.Fatalf("host: %v (stderr %s)", err, host.stderr)
			}
			if strings.Contains(line, want) && strings.Contains(line, `"result"`) {
				return line
			}
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test-host","version":"1"}}}`)
	waitID(1)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	waitID(2)

	var tmuxEnv []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "XDG_") {
			tmuxEnv = append(tmuxEnv, kv)
		}
	}
	s := tmuxtest.Start(t, 140, 40, append(tmuxEnv, "NO_COLOR=1"), bin, "attach")
	s.WaitFor(t, 20*time.Second, "attach to which tap?")
	screen := s.Screen()
	if !strings.Contains(screen, "  everything  ") || !strings.Contains(screen, "  other  ") || !strings.Contains(screen, "[1-2, Enter = 1, q = quit]") {
		t.Fatalf("the list:\n%s", screen)
	}
	s.SendText("nope")
	s.Send("Enter")
	s.WaitFor(t, 5*time.Second, `"nope" is not one of them`)
	s.SendText("everything")
	s.Send("Enter")
	s.WaitFor(t, 20*time.Second, "attach tap everything")
	s.Send("3")
	s.WaitFor(t, 10*time.Second, "result (tools/list)")
	screen = s.Screen()
	for _, want := range []string{"initialize", "notifications/initialized", "result (initialize)"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the history lacks %q:\n%s", want, screen)
		}
	}

	// Live: a call the host makes now appears in the viewer.
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"live via tap"}}}`)
	if got := waitID(3); !strings.Contains(got, "live via tap") {
		t.Fatalf("host got %s", got)
	}
	s.WaitFor(t, 10*time.Second, "result (tools/call)")

	// Detach; the host's session goes on.
	s.Send("q")
	if st := s.Wait(t, 20*time.Second); st.Code != 0 {
		t.Fatalf("attach exited with %v\n%s", st, s.Screen())
	}
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"message":"after detach"}}}`)
	if got := waitID(4); !strings.Contains(got, "after detach") {
		t.Fatalf("host got %s", got)
	}
	host.in.Close()
	if code := host.wait(t); code != 0 {
		t.Errorf("tap exit %d: %s", code, host.stderr)
	}
}
