package otlpexport_test

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
)

// jaegerTrace is the part of Jaeger's /api/traces/ID answer the test reads.
type jaegerTrace struct {
	Data []struct {
		Spans []struct {
			SpanID        string `json:"spanID"`
			OperationName string `json:"operationName"`
			References    []struct {
				RefType string `json:"refType"`
				TraceID string `json:"traceID"`
				SpanID  string `json:"spanID"`
			} `json:"references"`
			StartTime int64 `json:"startTime"` // µs since the epoch
			Tags      []struct {
				Key   string `json:"key"`
				Value any    `json:"value"`
			} `json:"tags"`
		} `json:"spans"`
	} `json:"data"`
}

// spansOf polls Jaeger until trace id holds want spans (it stores them in batches).
func spansOf(t *testing.T, j *testservers.JaegerServer, id string, want int) jaegerTrace {
	t.Helper()
	var tr jaegerTrace
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(j.Query + "/api/traces/" + id)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			tr = jaegerTrace{}
			if resp.StatusCode == http.StatusOK && json.Unmarshal(body, &tr) == nil && len(tr.Data) == 1 && len(tr.Data[0].Spans) >= want {
				return tr
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("jaeger has no trace %s with %d spans after 20 s (last: %+v, %v)", id, want, tr, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// searchSpans polls Jaeger for the traces of service until they hold want spans in all,
// and returns them as one trace's spans.
func searchSpans(t *testing.T, j *testservers.JaegerServer, service string, want int) jaegerTrace {
	t.Helper()
	var all jaegerTrace
	deadline := time.Now().Add(20 * time.Second)
	for {
		var tr jaegerTrace
		resp, err := http.Get(j.Query + "/api/traces?limit=100&service=" + service)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if json.Unmarshal(body, &tr) == nil {
				all = jaegerTrace{Data: tr.Data[:min(1, len(tr.Data))]}
				for _, d := range tr.Data[min(1, len(tr.Data)):] {
					all.Data[0].Spans = append(all.Data[0].Spans, d.Spans...)
				}
				if len(all.Data) == 1 && len(all.Data[0].Spans) >= want {
					return all
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("jaeger has no %d spans of service %s after 20 s (last: %+v, %v)", want, service, all, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// traceIDOnly is a fresh random hex id.
func traceIDOnly(t *testing.T) string {
	_, id, _ := traceparent(t)
	return id
}

// traceparent makes a fresh W3C traceparent: the trace id and the parent span id.
func traceparent(t *testing.T) (header, traceID, spanID string) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	traceID, spanID = hex.EncodeToString(b[:16]), hex.EncodeToString(b[16:])
	return "00-" + traceID + "-" + spanID + "-01", traceID, spanID
}

// tapHost runs `mcp-inspect tap ARGS` as a host does, through its stdin and stdout: it
// writes initialize, initialized and a tools/call echo carrying tp as
// params._meta.traceparent, reads the answers, closes stdin and waits for the tap's exit
// (which must be 0); it returns what the tap wrote on stderr.
func tapHost(t *testing.T, env []string, tp string, args ...string) (stderrText string) {
	t.Helper()
	cmd := exec.Command(testservers.BuildInspector(t), append([]string{"tap"}, args...)...)
	cmd.Env = env
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	out := bufio.NewReader(stdout)
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"otlp-test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"traceparent":"` + tp + `"}}}`,
	}
	for _, l := range lines {
		if _, err := io.WriteString(in, l+"\n"); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(l, `"id"`) {
			if _, err := out.ReadString('\n'); err != nil {
				t.Fatalf("no answer to %s: %v (stderr %s)", l, err, stderr.String())
			}
		}
	}
	in.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("tap: %v: %s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the tap did not exit: %s", stderr.String())
	}
	return stderr.String()
}

// tapEnv keeps the tap's state and runtime directories in the test's.
func tapEnv(t *testing.T) []string {
	run := filepath.Join(t.TempDir(), "run")
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), "XDG_STATE_HOME="+t.TempDir(), "XDG_RUNTIME_DIR="+run)
}

// TestOTLPToJaeger (issue 28): a tap with --otlp, and `trace export --otlp` of a recorded
// session, send spans to a real Jaeger: the tools/call's client span is a child of the
// host's traceparent, its server span a child of that, named and tagged by the MCP
// semantic conventions; the durations reach the receiver as metrics.
func TestOTLPToJaeger(t *testing.T) {
	j := testservers.Jaeger(t)
	bin := testservers.BuildInspector(t)
	server := []string{fake.Binary(t), "--scenario", "minimal"}
	env := tapEnv(t)

	check := func(t *testing.T, traceID, parent string) {
		t.Helper()
		tr := spansOf(t, j, traceID, 2)
		tags := map[string]map[string]string{}
		ids := map[string]string{}
		parents := map[string]string{}
		for _, s := range tr.Data[0].Spans {
			m := map[string]string{}
			for _, tg := range s.Tags {
				m[tg.Key] = fmt.Sprint(tg.Value)
			}
			kind := m["span.kind"]
			if s.OperationName != "tools/call echo" {
				t.Errorf("span %q in the trace, want only the tools/call's", s.OperationName)
				continue
			}
			tags[kind], ids[kind] = m, s.SpanID
			for _, r := range s.References {
				if r.RefType == "CHILD_OF" {
					parents[kind] = r.SpanID
				}
			}
		}
		if parents["client"] != parent || parents["server"] != ids["client"] || ids["client"] == "" {
			t.Errorf("parents %v, ids %v: want the client span under the traceparent's span %s and the server span under it", parents, ids, parent)
		}
		for _, kind := range []string{"client", "server"} {
			for k, v := range map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "jsonrpc.request.id": "2", "network.transport": "pipe", "mcp.protocol.version": "2025-11-25"} {
				if tags[kind][k] != v {
					t.Errorf("%s span: %s = %q, want %q (tags %v)", kind, k, tags[kind][k], v, tags[kind])
				}
			}
		}
	}

	t.Run("tap", func(t *testing.T) {
		tp, traceID, parent := traceparent(t)
		tapHost(t, env, tp, append([]string{"--otlp", j.OTLP, "--no-save", "--name", "otlp", "--"}, server...)...)
		check(t, traceID, parent)
		resp, err := http.Get(j.Metrics)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, want := range []string{`mcp_client_operation_duration_seconds_count{`, `mcp_server_operation_duration_seconds_count{`, `mcp_method_name="tools/call"`} {
			if !strings.Contains(string(body), want) {
				t.Errorf("the receiver's metrics lack %s:\n%s", want, body)
			}
		}
	})
	t.Run("trace export", func(t *testing.T) {
		tp, traceID, parent := traceparent(t)
		path := filepath.Join(t.TempDir(), "s.jsonl")
		tapHost(t, env, tp, append([]string{"--record", path, "--name", "otlp-rec", "--"}, server...)...)
		out, err := exec.Command(bin, "trace", "export", "--otlp", j.OTLP, path).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "span(s) of "+path+" sent to "+j.OTLP) {
			t.Fatalf("trace export --otlp: %v\n%s", err, out)
		}
		check(t, traceID, parent)
	})
	t.Run("headless call", func(t *testing.T) {
		// A client session (the TUI, headless commands, check: every command with --record)
		// exports the same spans; OTEL_SERVICE_NAME names the service, as in other SDKs.
		service := "mcp-inspect-test-" + traceIDOnly(t)
		// Given with the traces path, the URL still names the receiver's base.
		cmd := exec.Command(bin, append([]string{"call", "echo", "--args", `{"text":"hi"}`, "--otlp", j.OTLP + "/v1/traces", "--no-save", "--"}, server...)...)
		cmd.Env = append(env, "OTEL_SERVICE_NAME="+service)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("call --otlp: %v\n%s", err, out)
		}
		tr := searchSpans(t, j, service, 4) // initialize and tools/call echo, client and server each
		kinds := map[string]map[string]string{}
		for _, sp := range tr.Data[0].Spans {
			m := map[string]string{}
			for _, tg := range sp.Tags {
				m[tg.Key] = fmt.Sprint(tg.Value)
			}
			kinds[sp.OperationName+" "+m["span.kind"]] = m
		}
		for _, want := range []string{"initialize client", "initialize server", "tools/call echo client", "tools/call echo server"} {
			if kinds[want] == nil {
				t.Errorf("no %s span in %v", want, kinds)
			}
		}
		if m := kinds["tools/call echo client"]; m != nil && (m["network.transport"] != "pipe" || m["gen_ai.tool.name"] != "echo" || m["mcp.protocol.version"] == "") {
			t.Errorf("tools/call echo client span tags %v", m)
		}
	})
	t.Run("bodies masked", func(t *testing.T) {
		// --otlp-bodies sends params and results with the session's secrets masked, also
		// with --no-redact (the trace keeps them then; the receiver never gets them).
		service := "mcp-inspect-test-" + traceIDOnly(t)
		secret := "s3cr3t-" + traceIDOnly(t)
		cmd := exec.Command(bin, append([]string{"call", "echo", "--args", `{"text":"` + secret + `"}`, "-e", "MY_TOKEN=" + secret,
			"--otlp", j.OTLP, "--otlp-bodies", "--no-redact", "--record", filepath.Join(t.TempDir(), "nr.jsonl"), "--"}, server...)...)
		cmd.Env = append(env, "OTEL_SERVICE_NAME="+service)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("call --otlp-bodies: %v\n%s", err, out)
		}
		tr := searchSpans(t, j, service, 4)
		bodies := 0
		for _, sp := range tr.Data[0].Spans {
			for _, tg := range sp.Tags {
				v := fmt.Sprint(tg.Value)
				if strings.Contains(v, secret) {
					t.Errorf("span %s tag %s holds the -e value in clear: %s", sp.OperationName, tg.Key, v)
				}
				if tg.Key == "mcp.request.params" || tg.Key == "mcp.response.body" {
					bodies++
				}
			}
		}
		if bodies == 0 {
			t.Error("no span carries a body with --otlp-bodies")
		}
	})
	t.Run("flags", func(t *testing.T) {
		for _, args := range [][]string{
			{"trace", "export", "--otlp", j.OTLP, "-o", filepath.Join(t.TempDir(), "x.har"), "x.jsonl"},
			{"trace", "export", "--otlp", j.OTLP, "--format", "har", "x.jsonl"},
			append([]string{"tools", "--otlp-bodies", "--no-save", "--"}, server...),
		} {
			out, err := exec.Command(bin, args...).CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "--otlp") {
				t.Errorf("%v: %v, want a usage error (exit 2) naming --otlp:\n%s", args, err, out)
			}
		}
	})
	t.Run("no receiver", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		tp, _, _ := traceparent(t)
		tapHost(t, env, tp, append([]string{"--record", path, "--name", "otlp-none", "--"}, server...)...)
		dead := "http://127.0.0.1:" + fmt.Sprint(testservers.FreePort(t))
		// The tap forwards as ever and ends as the server did; the lost export is one line.
		tp, _, _ = traceparent(t)
		stderr := tapHost(t, env, tp, append([]string{"--otlp", dead, "--no-save", "--name", "otlp-dead", "--"}, server...)...)
		if !strings.Contains(stderr, "mcp-inspect tap: --otlp "+dead+": ") || !strings.Contains(stderr, "spans were not taken") ||
			!strings.Contains(stderr, "(nothing listens there: is the OTLP/HTTP receiver running?)") || strings.Count(stderr, "--otlp") != 1 {
			t.Errorf("the tap's stderr with no receiver: %q", stderr)
		}
		out, err := exec.Command(bin, "trace", "export", "--otlp", dead, path).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "nothing listens there: is the OTLP/HTTP receiver running?") {
			t.Errorf("trace export to a port nobody listens on: %v\n%s", err, out)
		}
	})
}
