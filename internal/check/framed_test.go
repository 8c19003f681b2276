package check_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
)

// The course's first server says nothing to newline JSON: once the client finds it silent,
// a copy is asked framed with Content-Length, the report fails stdout-jsonrpc naming the
// flag, and the rest of the battery runs through that framing.
func TestCheckSilentLSPServer(t *testing.T) {
	opt := fakeOptions(t, "lsp-silent")
	opt.Server.Silence = 500 * time.Millisecond
	opt.Server.Timeout = 20 * time.Second // the switch must not wait for the timeout
	start := time.Now()
	rep, err := check.Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("the check took %v", took)
	}
	sj := result(t, rep, "stdout-jsonrpc")
	if sj.Status != check.StatusFail || !strings.Contains(sj.Findings[0].Text, "--framing content-length") || !strings.Contains(sj.Findings[0].Text, "answered it framed with Content-Length") {
		t.Fatalf("stdout-jsonrpc: %+v", sj)
	}
	for _, id := range []string{"init-responds", "init-result", "list-items", "tool-schemas"} {
		if res := result(t, rep, id); res.Status != check.StatusPass {
			t.Errorf("%s: %s %+v", id, res.Status, res)
		}
	}
	names := []string{}
	for _, s := range rep.Sessions {
		names = append(names, s.Name)
	}
	if !strings.HasPrefix(strings.Join(names, " "), "main content-length") {
		t.Errorf("sessions %q", names)
	}
}
