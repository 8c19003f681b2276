package cmd

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/repeatcmd"
	"github.com/mcp-inspect/mcp-inspect/internal/shellwords"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// TestCopiedCommandRepeatsTheCall runs the line the TUI's "copy as command" (C) gives for a
// tools/call frame, read back by a shell's rules, and checks it prints what the call it
// repeats prints.
func TestCopiedCommandRepeatsTheCall(t *testing.T) {
	t.Parallel()
	argv := fakeArgv(t, "minimal")
	frame := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"it's a 'quoted' $HOME"}}}`
	line, err := repeatcmd.Inspect([]byte(frame), repeatcmd.Target{Argv: argv})
	if err != nil {
		t.Fatal(err)
	}
	words, err := shellwords.Split(line)
	if err != nil || len(words) < 2 || words[0] != "mcp-inspect" {
		t.Fatalf("line %q reads back as %q, %v", line, words, err)
	}
	copied := inspect(t, nil, words[1:]...)
	direct := inspect(t, nil, cmdline([]string{"call", "echo", "-a", "text=it's a 'quoted' $HOME"}, argv)...)
	if copied.code != 0 || copied.stdout == "" {
		t.Fatalf("the copied line %s failed (%d): %s", line, copied.code, copied.stderr)
	}
	if copied.stdout != direct.stdout || !strings.Contains(copied.stdout, "it's a 'quoted' $HOME") {
		t.Errorf("the copied line %s printed\n%s\nthe call it repeats printed\n%s", line, copied.stdout, direct.stdout)
	}
}

// TestCopiedCommandsRepeatAnHTTPCall runs both lines "copy as command" gives for a call to
// a remote server (the go-sdk everything server, stateless): the mcp-inspect line, whose
// header value comes from the environment, and the curl line; each gets the tool's result.
func TestCopiedCommandsRepeatAnHTTPCall(t *testing.T) {
	srv := testservers.GoEverythingHTTP(t, true)
	frame := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_simple_text","arguments":{}}}`
	tg := repeatcmd.Target{Argv: []string{srv.URL}, Headers: []repeatcmd.Header{repeatcmd.SecretHeader("X-Trace")}, ProtocolVersion: "2025-06-18"}
	line, err := repeatcmd.Inspect([]byte(frame), tg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, `-H "X-Trace: $X_TRACE"`) {
		t.Fatalf("the line %s does not take X-Trace from $X_TRACE", line)
	}
	t.Setenv("X_TRACE", "copied")
	words, err := shellwords.Split(line)
	if err != nil || !slices.Contains(words, "X-Trace: copied") {
		t.Fatalf("line %q reads back as %q, %v", line, words, err)
	}
	copied := inspect(t, nil, words[1:]...)
	direct := inspect(t, nil, "call", "test_simple_text", srv.URL)
	if copied.code != 0 || copied.stdout != direct.stdout || copied.stdout == "" {
		t.Errorf("the copied line %s printed (%d)\n%s%s\nthe call it repeats printed\n%s", line, copied.code, copied.stdout, copied.stderr, direct.stdout)
	}

	curl, ok := repeatcmd.Curl([]byte(frame), tg)
	if !ok {
		t.Fatal("no curl line for a remote server")
	}
	words, err = shellwords.Split(curl)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(words[0], words[1:]...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"id":2`) || !strings.Contains(string(out), `"result"`) {
		t.Errorf("the curl line %s gave %s (%v)", curl, out, err)
	}
}
