package cmd

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-inspect/mcp-inspect/internal/settings"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestTapInject: the go-sdk client, as the host, starts the go-sdk everything-server through
// `mcp-inspect tap --inject`: its tools/call gets the rule's error, tools/list passes, the
// rule that matched nothing is reported on stderr at the end, and the trace holds the
// original request, the note and the answer the host got.
func TestTapInject(t *testing.T) {
	bin := testservers.BuildInspector(t)
	server := testservers.GoEverything(t)
	rec := filepath.Join(t.TempDir(), "t.jsonl")
	argv := append([]string{"tap", "--record", rec,
		"--inject", "tool:echo => error -32000 boom from the tap",
		"--inject", "method:resources/subscribe => drop", "--"}, server...)
	cmd := exec.Command(bin, argv...)
	cmd.Env = tapEnv(t)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Errorf("tools/list through the tap: %v", err)
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "hi"}})
	if err == nil || !strings.Contains(err.Error(), "boom from the tap") {
		t.Errorf("tools/call echo: %v, want the injected error", err)
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	want := "mcp-inspect tap: inject rule 2 (method:resources/subscribe => drop) matched no message\n"
	if !strings.Contains(stderr.String(), want) || strings.Contains(stderr.String(), "rule 1") {
		t.Errorf("stderr = %q, want only %q", stderr.String(), want)
	}
	evs := traceEvents(t, rec)
	var seen []string
	for _, ev := range evs {
		switch {
		case ev.Dir == mcpclient.Lifecycle && ev.Life.Cond != "":
			seen = append(seen, string(ev.Life.Cond))
		case ev.Msg != nil && ev.Msg.Method == "tools/call":
			seen = append(seen, "request")
		case ev.Msg != nil && ev.Msg.Error != nil && ev.Msg.Error.Message == "boom from the tap":
			seen = append(seen, "error")
		}
	}
	if got := strings.Join(seen, " "); got != "request injected error unmatched" {
		t.Errorf("trace: %s, want the request, the note, the answer, the unmatched rule", got)
	}
}

// TestTapInjectParseError: a rule that does not parse is a usage error naming the column,
// with an example, before anything starts.
func TestTapInjectParseError(t *testing.T) {
	_, errs, code := runIn(t, "tap", "--inject", "method:tools/call => delya 2s", "--", "true")
	want := `--inject "method:tools/call => delya 2s": column 22: unknown action "delya" (did you mean "delay"?); actions: drop, delay DURATION, error CODE MESSAGE, replace JSON, truncate N, corrupt (example: --inject 'method:tools/call => delay 2s')`
	if code != exitUsage || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q\nwant %s", code, errs, want)
	}
}

// TestTapInjectSettings: a [taps.NAME] profile's inject rules are checked when the file is
// read (file:line:column), shown by settings show, and used by tap --name NAME.
func TestTapInjectSettings(t *testing.T) {
	path := useSettings(t, "[taps.fs]\ninject = [\"method:tools/call => delay 2s\", \"dir:in => corrupt now\"]\n")
	_, errs, code := runIn(t, "settings", "show")
	if code != exitUsage || !strings.Contains(errs, path+":2:") || !strings.Contains(errs, `taps.fs.inject[1]: --inject "dir:in => corrupt now": column 19: corrupt takes nothing after it`) {
		t.Errorf("exit %d: %s", code, errs)
	}
	useSettings(t, "[taps.fs]\ninject = [\"method:tools/call => delay 2s\"]\n")
	out, errs, code := runIn(t, "settings", "show")
	if code != 0 || !strings.Contains(out, "[taps.fs] # tap --name fs; --inject replaces these rules\ninject = [\"method:tools/call => delay 2s\"]\n") {
		t.Errorf("settings show: exit %d\n%s%s", code, out, errs)
	}
	var rec tapRecordFlags
	if err := rec.injectRules(settingsForTest(t), "fs"); err != nil || len(rec.rules) != 1 || rec.rules[0].Src != "method:tools/call => delay 2s" {
		t.Errorf("profile rules: %v %+v", err, rec.rules)
	}
	rec.inject = []string{"kind:request => drop"}
	if err := rec.injectRules(settingsForTest(t), "fs"); err != nil || len(rec.rules) != 1 || rec.rules[0].Src != "kind:request => drop" {
		t.Errorf("--inject over the profile: %v %+v", err, rec.rules)
	}
}

// settingsForTest loads the settings file MCP_INSPECT_CONFIG names, as the commands do.
func settingsForTest(t *testing.T) *settings.Settings {
	t.Helper()
	loc, err := settings.Locate(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	s, err := settings.Load(loc, settingsChecks())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTapInjectActionsGoSDKHost: the go-sdk client as the host of the go-sdk
// everything-server through the tap binary, one action at a time: what the client sees.
func TestTapInjectActionsGoSDKHost(t *testing.T) {
	bin := testservers.BuildInspector(t)
	server := testservers.GoEverything(t)
	for _, tc := range []struct {
		name, rule string
		check      func(t *testing.T, err error, took time.Duration)
	}{
		{"drop", "method:tools/list => drop", func(t *testing.T, err error, _ time.Duration) {
			if err == nil || !strings.Contains(err.Error(), "deadline") {
				t.Errorf("tools/list: %v, want no answer (the request dropped)", err)
			}
		}},
		{"delay", "method:tools/list => delay 300ms", func(t *testing.T, err error, took time.Duration) {
			if err != nil || took < 300*time.Millisecond {
				t.Errorf("tools/list: %v after %v, want the answer after the delay", err, took)
			}
		}},
		{"error", "dir:in method:tools/list => error -32099 list failed", func(t *testing.T, err error, _ time.Duration) {
			if err == nil || !strings.Contains(err.Error(), "list failed") {
				t.Errorf("tools/list: %v, want the response replaced by the error", err)
			}
		}},
		{"truncate", "dir:in method:tools/list => truncate 30", func(t *testing.T, err error, _ time.Duration) {
			if err == nil {
				t.Errorf("tools/list succeeded on a truncated answer")
			}
		}},
		{"corrupt", "dir:in method:tools/list => corrupt", func(t *testing.T, err error, _ time.Duration) {
			if err == nil {
				t.Errorf("tools/list succeeded on a corrupted answer")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, append([]string{"tap", "--no-save", "--inject", tc.rule, "--"}, server...)...)
			cmd.Env = tapEnv(t)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			lctx, lcancel := context.WithTimeout(ctx, 2*time.Second)
			defer lcancel()
			start := time.Now()
			_, err = cs.ListTools(lctx, nil)
			tc.check(t, err, time.Since(start))
		})
	}
}
