package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// #14 §3: a server that does not leave on closed stdin is named with the step that ended
// it, after how long: on headless stderr, in --json, and in the TUI's quit line.
func TestShutdownStepIsSaid(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ scenario, step string }{
		{"linger", "SIGTERM"},
		{"linger-kill", "SIGKILL"},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			t.Parallel()
			r := inspect(t, nil, cmdline([]string{"ping", "--json"}, fakeArgv(t, c.scenario))...)
			wantCode(t, r, 0)
			var doc struct {
				Warnings []string
				Shutdown *jsonShutdown
			}
			if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Shutdown == nil || doc.Shutdown.Step != c.step || doc.Shutdown.AfterMs <= 0 {
				t.Fatalf("shutdown %+v, want step %s", doc.Shutdown, c.step)
			}
			want := "did not exit when its stdin was closed: " + c.step + " ended it "
			if !strings.Contains(r.stderr, want) || !strings.Contains(strings.Join(doc.Warnings, "\n"), want) {
				t.Fatalf("stderr and warnings should say %q:\n%s\n%q", want, r.stderr, doc.Warnings)
			}
		})
	}
	t.Run("minimal", func(t *testing.T) {
		t.Parallel()
		r := inspect(t, nil, cmdline([]string{"ping", "--json"}, fakeArgv(t, "minimal"))...)
		if strings.Contains(r.stdout, `"shutdown"`) || strings.Contains(r.stderr, "did not exit") {
			t.Fatalf("a server that left on closed stdin is reported:\n%s\n%s", r.stdout, r.stderr)
		}
	})
	t.Run("quit_line", func(t *testing.T) {
		t.Parallel()
		c, err := mcpclient.Start(mcpclient.Config{Command: fake.Binary(t), Args: []string{"--scenario", "linger"}, Timeout: 10 * time.Second, ShutdownGrace: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			for range c.Events() {
			}
		}()
		if _, err := c.Connect(context.Background()); err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		stopServer(context.Background(), c, &stderr)
		if !strings.Contains(stderr.String(), "did not exit when its stdin was closed: SIGTERM ended it ") {
			t.Fatalf("quit line: %q", stderr.String())
		}
	})
}
