package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/shellwords"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/tap"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// inspectorPackage is the official MCP inspector; its CLI is a real host nobody here wrote.
const inspectorPackage = "@modelcontextprotocol/inspector"

// inspectorCLI returns the path of the inspector's CLI entry point (its package.json "bin"),
// failing the test when it is not installed.
func inspectorCLI(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(testservers.NodeModules(t), filepath.FromSlash(inspectorPackage))
	var pkg struct {
		Version string            `json:"version"`
		Bin     map[string]string `json:"bin"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err == nil {
		err = json.Unmarshal(data, &pkg)
	}
	if err != nil || pkg.Bin["mcp-inspector"] == "" {
		t.Fatalf("%s is not installed (%v) though node_modules is stamped as installed from package-lock.json", inspectorPackage, err)
	}
	return filepath.Join(dir, filepath.FromSlash(pkg.Bin["mcp-inspector"]))
}

// tapEnv is an environment with private state and runtime directories.
func tapEnv(t testing.TB) []string {
	t.Helper()
	run := filepath.Join(t.TempDir(), "run")
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), "XDG_STATE_HOME="+t.TempDir(), "XDG_RUNTIME_DIR="+run)
}

// runHost runs a host command and returns its stdout, stderr and exit code.
func runHost(t *testing.T, env []string, argv ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%q: %v", argv, err)
	}
	return out.String(), errb.String(), code
}

// traceEvents reads a trace with derived data.
func traceEvents(t *testing.T, path string) []mcpclient.Event {
	t.Helper()
	tr, err := trace.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var evs []mcpclient.Event
	for ev, err := range tr.Events() {
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	return evs
}

func rawStream(evs []mcpclient.Event, dir mcpclient.Direction) []byte {
	var b []byte
	for _, ev := range evs {
		if ev.Dir == dir {
			b = append(b, ev.Raw...)
		}
	}
	return b
}

// TestTapInspectorCLI: the official inspector's CLI, a host nobody here wrote, talks to
// server-everything directly and through `mcp-inspect tap`: its output is the same both
// ways. A wrapper script records what the server itself read and wrote; the trace holds
// exactly those bytes, every request is answered in it, and the trace works with replay
// and mock (the inspector gets the same output from the mock).
func TestTapInspectorCLI(t *testing.T) {
	bin := testservers.BuildInspector(t)
	cli := inspectorCLI(t)
	se := testservers.ServerEverything(t)
	env := tapEnv(t)
	dir := t.TempDir()

	// The server as the host starts it, with its own stdin and stdout copied to files.
	wrapper := filepath.Join(dir, "server.sh")
	script := fmt.Sprintf("#!/bin/sh\ntee \"$TAP_TEST_IN\" | %s | tee \"$TAP_TEST_OUT\"\n", shellwords.Join(se))
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	calls := []struct {
		name string
		args []string
	}{
		{"tools_list", []string{"--method", "tools/list"}},
		{"tools_call", []string{"--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hello through the tap"}},
		{"resources_list", []string{"--method", "resources/list"}},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			direct, derr, code := runHost(t, env, append(append([]string{"node", cli, "--cli"}, se...), c.args...)...)
			if code != 0 || !strings.HasPrefix(direct, "{") {
				t.Fatalf("direct run: exit %d\n%s\n%s", code, direct, derr)
			}
			trace := filepath.Join(dir, c.name+".jsonl")
			in, out := filepath.Join(dir, c.name+".in"), filepath.Join(dir, c.name+".out")
			tenv := append(append([]string(nil), env...), "TAP_TEST_IN="+in, "TAP_TEST_OUT="+out)
			argv := append([]string{"node", cli, "--cli", bin, "tap", "--name", "everything", "--record", trace, "--", wrapper}, c.args...)
			tapped, terr, code := runHost(t, tenv, argv...)
			if code != 0 {
				t.Fatalf("through the tap: exit %d\n%s\n%s", code, tapped, terr)
			}
			if tapped != direct {
				t.Fatalf("the inspector's output differs through the tap:\n--- direct\n%s\n--- tap\n%s", direct, tapped)
			}
			if strings.Contains(terr, "mcp-inspect tap:") {
				t.Errorf("the tap complained: %s", terr)
			}

			evs := traceEvents(t, trace)
			serverIn, _ := os.ReadFile(in)
			serverOut, _ := os.ReadFile(out)
			if c2s := rawStream(evs, mcpclient.ClientToServer); !bytes.Equal(c2s, serverIn) || len(c2s) == 0 {
				t.Errorf("trace c2s (%d bytes) differs from what the server read (%d bytes)", len(c2s), len(serverIn))
			}
			if s2c := rawStream(evs, mcpclient.ServerToClient); !bytes.Equal(s2c, serverOut) || len(s2c) == 0 {
				t.Errorf("trace s2c (%d bytes) differs from what the server wrote (%d bytes)", len(s2c), len(serverOut))
			}
			methods := map[string]bool{}
			answered := map[uint64]bool{}
			initialized := false
			for _, ev := range evs {
				if ev.Life != nil && ev.Life.Kind == mcpclient.LifeInitialized && strings.HasPrefix(ev.Life.Text, "initialized: ") {
					initialized = true
				}
				if ev.Dir == mcpclient.ServerToClient && ev.Pair != 0 {
					answered[ev.Pair] = true
				}
				if ev.Dir == mcpclient.ClientToServer && ev.Msg != nil {
					methods[ev.Msg.Method] = true
				}
			}
			for _, ev := range evs {
				if ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindRequest && !answered[ev.Seq] {
					t.Errorf("request %s (seq %d) has no response in the trace", ev.Msg.Method, ev.Seq)
				}
			}
			if !initialized {
				t.Error("the trace has no initialized lifecycle event")
			}
			for _, m := range []string{"initialize", "notifications/initialized", c.args[1]} {
				if !methods[m] {
					t.Errorf("the trace has no %s from the host (has %v)", m, methods)
				}
			}

			// The trace is a trace: the mock answers the inspector as the server did...
			mocked, merr, code := runHost(t, env, append([]string{"node", cli, "--cli", bin, "mock", trace}, c.args...)...)
			if code != 0 || mocked != direct {
				t.Errorf("the inspector through `mcp-inspect mock` of the tap's trace: exit %d\n%s\n%s", code, mocked, merr)
			}
			// ...and replaying it against the server finds no difference.
			rout, rerr, code := runHost(t, env, append([]string{bin, "replay", trace, "--"}, se...)...)
			if code != 0 {
				t.Errorf("replay of the tap's trace: exit %d\n%s\n%s", code, rout, rerr)
			}
		})
	}
}

// startTapProcess starts the real binary as `tap ARGS` with pipes for the host side.
type tapProcess struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    io.ReadCloser
	stderr *bytes.Buffer
}

func startTapProcess(t *testing.T, env []string, args ...string) *tapProcess {
	t.Helper()
	bin := testservers.BuildInspector(t)
	cmd := exec.Command(bin, append([]string{"tap"}, args...)...)
	cmd.Env = env
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &tapProcess{cmd: cmd, in: in, out: out, stderr: &bytes.Buffer{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return p
}

// wait waits for the tap to exit and returns its exit code.
func (p *tapProcess) wait(t *testing.T) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		t.Fatal("the tap did not exit")
	}
	return p.cmd.ProcessState.ExitCode()
}

// serverPID finds the server's pid in a trace ("started pid N").
func serverPID(t *testing.T, trace string) int {
	t.Helper()
	for _, ev := range traceEvents(t, trace) {
		if ev.Life != nil && ev.Life.Kind == mcpclient.LifeStarted {
			return ev.Life.PID
		}
	}
	t.Fatal("no started event in the trace")
	return 0
}

// TestTapBinaryBytes: the real binary as a fake host sees it: bytes that are not JSON,
// split writes and a 10 MB message come back byte for byte through a tee server, which
// saw them byte for byte too; nothing else reaches stdout.
func TestTapBinaryBytes(t *testing.T) {
	env := tapEnv(t)
	dir := t.TempDir()
	serverIn := filepath.Join(dir, "in.bin")
	trace := filepath.Join(dir, "t.jsonl")
	p := startTapProcess(t, env, "--record", trace, "--", "tee", serverIn)

	var input bytes.Buffer
	parts := [][]byte{
		[]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}` + "\n"),
		[]byte("Content-Length: 12\r\n\r\nnot json at all\n"),
		[]byte("\x00\xff\xfe invalid utf-8\n"),
		[]byte(`{"jsonrpc":"2.0",`), []byte(`"id":2,"method":"ping"}` + "\n"),
		append(append([]byte(`{"jsonrpc":"2.0","id":3,"method":"x","params":"`), bytes.Repeat([]byte("z"), 10<<20)...), "\"}\n"...),
		[]byte("no newline at the end"),
	}
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(p.out)
		got <- b
	}()
	for _, part := range parts {
		input.Write(part)
		if _, err := p.in.Write(part); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.in.Close()
	hostGot := <-got
	if code := p.wait(t); code != 0 {
		t.Fatalf("exit %d: %s", code, p.stderr)
	}
	if !bytes.Equal(hostGot, input.Bytes()) {
		t.Fatalf("host got %d bytes, sent %d", len(hostGot), input.Len())
	}
	onServer, _ := os.ReadFile(serverIn)
	if !bytes.Equal(onServer, input.Bytes()) {
		t.Fatalf("server read %d bytes, host sent %d", len(onServer), input.Len())
	}
	if p.stderr.Len() != 0 {
		t.Errorf("stderr: %q", p.stderr)
	}
	evs := traceEvents(t, trace)
	if !bytes.Equal(rawStream(evs, mcpclient.ClientToServer), input.Bytes()) || !bytes.Equal(rawStream(evs, mcpclient.ServerToClient), input.Bytes()) {
		t.Error("the trace does not hold the bytes both ways")
	}
}

// TestTapDefaultRecording: without --record the trace goes to the state directory, under
// the tap's name.
func TestTapDefaultRecording(t *testing.T) {
	env := tapEnv(t)
	var state string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_STATE_HOME="); ok {
			state = v
		}
	}
	p := startTapProcess(t, env, "--name", "my/server", "--", "cat")
	p.in.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"))
	p.in.Close()
	io.ReadAll(p.out)
	if code := p.wait(t); code != 0 {
		t.Fatalf("exit %d: %s", code, p.stderr)
	}
	files, _ := filepath.Glob(filepath.Join(state, "mcp-inspect", "taps", "my_server", "session-*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("recordings: %v", files)
	}
	evs := traceEvents(t, files[0])
	if got := string(rawStream(evs, mcpclient.ClientToServer)); got != `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n" {
		t.Errorf("trace c2s %q", got)
	}
}

// TestAttachBinary: `attach --list` shows a running tap; `attach NAME --raw` gets its
// history and live lines; killing the viewer changes nothing for the host.
func TestAttachBinary(t *testing.T) {
	env := tapEnv(t)
	bin := testservers.BuildInspector(t)
	p := startTapProcess(t, env, "--name", "echo-srv", "--no-save", "--", "cat")
	br := bufio.NewReader(p.out)
	exchange := func(i int) {
		t.Helper()
		line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i)
		if _, err := p.in.Write([]byte(line)); err != nil {
			t.Fatal(err)
		}
		if got, _ := br.ReadString('\n'); got != line {
			t.Fatalf("host got %q, want %q", got, line)
		}
	}
	for i := 1; i <= 3; i++ {
		exchange(i)
	}
	var listed string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		out, errs, code := runHost(t, env, bin, "attach", "--list")
		if code != 0 {
			t.Fatalf("attach --list: %d %s", code, errs)
		}
		if listed = out; strings.Contains(out, "echo-srv") && strings.Contains(out, " 6 ") {
			break
		}
	}
	if !strings.Contains(listed, "echo-srv") || !strings.Contains(listed, strconv.Itoa(p.cmd.Process.Pid)) || !strings.Contains(listed, "cat") {
		t.Fatalf("attach --list:\n%s", listed)
	}
	// Without a terminal, attach with no name prints the list and asks for a name.
	if out, errs, code := runHost(t, env, bin, "attach"); code != exitUsage || !strings.Contains(out, "echo-srv") || !strings.Contains(errs, "say which tap") {
		t.Errorf("attach without a name or terminal: %d\n%s\n%s", code, out, errs)
	}

	viewer := exec.Command(bin, "attach", "echo-srv", "--raw")
	viewer.Env = env
	vout, err := viewer.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := viewer.Start(); err != nil {
		t.Fatal(err)
	}
	vr := bufio.NewReader(vout)
	readFrames := func(n int) []string {
		t.Helper()
		var raws []string
		for len(raws) < n {
			line, err := vr.ReadBytes('\n')
			if err != nil {
				t.Fatalf("viewer: %v after %d frames", err, len(raws))
			}
			if bytes.HasPrefix(line, []byte(`{"format"`)) {
				continue
			}
			r, err := trace.ParseRecord(line)
			if err != nil {
				t.Fatalf("viewer line %q: %v", line, err)
			}
			if r.Dir == mcpclient.ClientToServer || r.Dir == mcpclient.ServerToClient {
				raws = append(raws, string(r.Raw))
			}
		}
		return raws
	}
	hist := readFrames(6)
	if !strings.Contains(hist[0], `"id":1`) || !strings.Contains(hist[5], `"id":3`) {
		t.Errorf("history %q", hist)
	}
	exchange(4)
	if live := readFrames(2); !strings.Contains(live[0], `"id":4`) || !strings.Contains(live[1], `"id":4`) {
		t.Errorf("live %q", live)
	}
	_ = viewer.Process.Kill()
	_ = viewer.Wait()
	for i := 5; i <= 7; i++ {
		exchange(i)
	}
	p.in.Close()
	if code := p.wait(t); code != 0 {
		t.Errorf("tap exit %d: %s", code, p.stderr)
	}
	// The socket is gone with the tap.
	taps, _ := tap.List(filepath.Join(envValue(env, "XDG_RUNTIME_DIR"), "mcp-inspect"))
	if len(taps) != 0 {
		t.Errorf("taps left: %+v", taps)
	}
}

func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if x, ok := strings.CutPrefix(kv, key+"="); ok {
			v = x
		}
	}
	return v
}
