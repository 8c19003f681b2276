package cmd

import (
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/repeatcmd"
	"github.com/mcp-inspect/mcp-inspect/internal/shellwords"
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
