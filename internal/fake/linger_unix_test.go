//go:build unix

package fake

import (
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
)

// linger stays up once its stdin ends, until SIGTERM.
func TestLingerWaitsForSIGTERM(t *testing.T) {
	t.Parallel()
	p := scenario(t, "linger")
	p.handshake()
	p.stdin.Close()
	if err := p.cmd.Process.Signal(platformtest.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if e := p.wait(false); e.signal != "TERM" {
		t.Fatalf("exit %+v, want killed by SIGTERM", e)
	}
}

// linger-kill ignores SIGTERM (it still answers a ping sent after it) and its stdin's end;
// only SIGKILL ends it.
func TestLingerKillIgnoresSIGTERM(t *testing.T) {
	t.Parallel()
	p := scenario(t, "linger-kill")
	p.handshake()
	if err := p.cmd.Process.Signal(platformtest.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.exchange(`{"jsonrpc":"2.0","id":"p","method":"ping"}`, `{"jsonrpc":"2.0","id":"p","result":{}}`)
	p.stdin.Close()
	if err := p.cmd.Process.Signal(platformtest.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if e := p.wait(false); e.signal != "KILL" {
		t.Fatalf("exit %+v, want killed by SIGKILL", e)
	}
}
