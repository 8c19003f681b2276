package testservers

import (
	"context"
	"debug/buildinfo"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Jaeger, the tracing backend the --otlp tests export to (issue 28), is built from the
// module proxy outside the project's go.mod (it would pull hundreds of modules into it):
// a throwaway module in .ci/cache/jaeger-build requires it, and the binary goes to
// .ci/cache/bin/jaeger. .ci/run builds it first; a test process that finds it missing
// builds it itself, under a lock (several minutes cold).
const (
	JaegerModule  = "github.com/jaegertracing/jaeger"
	JaegerVersion = "v1.75.0"
	jaegerPackage = JaegerModule + "/cmd/jaeger"
)

// JaegerServer is a Jaeger all-in-one listening on 127.0.0.1 only, with in-memory storage.
type JaegerServer struct {
	// OTLP is the OTLP/HTTP receiver's base URL (http://127.0.0.1:PORT).
	OTLP string
	// Query is the query service's HTTP base URL (the /api/traces and /api/services API).
	Query string
	// Metrics is the Prometheus endpoint (http://127.0.0.1:PORT/metrics) where the
	// metrics received over OTLP are exposed.
	Metrics string
}

// jaegerConfig is the collector configuration: OTLP/HTTP in, traces to memory storage and
// the query service, metrics to a Prometheus endpoint; every listener on 127.0.0.1.
const jaegerConfig = `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
    metrics:
      receivers: [otlp]
      exporters: [prometheus]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_storage:
    backends:
      mem:
        memory:
          max_traces: 10000
  jaeger_query:
    storage:
      traces: mem
    http:
      endpoint: 127.0.0.1:%d
    grpc:
      endpoint: 127.0.0.1:%d
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:%d
processors:
  batch:
    timeout: 100ms
exporters:
  jaeger_storage_exporter:
    trace_storage: mem
  prometheus:
    endpoint: 127.0.0.1:%d
`

// Jaeger starts a Jaeger all-in-one for the test (stopped at its end) and waits until its
// query service answers. It fails the test when Jaeger cannot be built or started.
func Jaeger(t testing.TB) *JaegerServer {
	t.Helper()
	root := RepoRoot(t)
	jaegerBuild.once.Do(func() {
		jaegerBuild.path, jaegerBuild.err = buildJaeger(root)
	})
	if jaegerBuild.err != nil {
		t.Fatalf("testservers: jaeger: %v", jaegerBuild.err)
	}
	ports := freePorts(t, 4)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "jaeger.yaml")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, jaegerConfig, ports[0], ports[1], ports[2], ports[3]), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, jaegerBuild.path, "--config", "file:"+cfg)
	logFile, err := os.Create(filepath.Join(dir, "jaeger.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("testservers: start jaeger: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		logFile.Close()
	})
	s := &JaegerServer{
		OTLP:    fmt.Sprintf("http://127.0.0.1:%d", ports[2]),
		Query:   fmt.Sprintf("http://127.0.0.1:%d", ports[0]),
		Metrics: fmt.Sprintf("http://127.0.0.1:%d/metrics", ports[3]),
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(s.Query + "/api/services")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) || cmd.ProcessState != nil {
			log, _ := os.ReadFile(logFile.Name())
			t.Fatalf("testservers: jaeger did not answer on %s within 60 s (last: %v); its log:\n%s", s.Query, err, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// FreePort returns a TCP port on 127.0.0.1 that nothing listens on (at the time of the call).
func FreePort(t testing.TB) int { return freePorts(t, 1)[0] }

// freePorts returns n distinct free TCP ports on 127.0.0.1.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ports []int
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	for _, ln := range lns {
		ln.Close()
	}
	return ports
}

// buildJaeger returns .ci/cache/bin/jaeger, building it when it is missing or of another
// version.
func buildJaeger(root string) (string, error) {
	bin, err := binDir(root)
	if err != nil {
		return "", err
	}
	dst := filepath.Join(bin, "jaeger")
	if jaegerBuiltFrom(dst) {
		return dst, nil
	}
	unlock, err := lockCache(root, "jaeger.lock")
	if err != nil {
		return "", err
	}
	defer unlock()
	if jaegerBuiltFrom(dst) {
		return dst, nil
	}
	mod := filepath.Join(filepath.Dir(bin), "jaeger-build")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		return "", err
	}
	gomod := "module jaegerbuild\n\ngo 1.26\n"
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644); err != nil {
		return "", err
	}
	env := append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	for _, args := range [][]string{
		{"get", "-tool", jaegerPackage + "@" + JaegerVersion}, // the package: go.sum gets all it imports
		{"build", "-o", filepath.Join(mod, "jaeger"), jaegerPackage},
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = mod, env
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go %s (in %s): %w\n%s", strings.Join(args, " "), mod, err, out)
		}
	}
	if err := os.Rename(filepath.Join(mod, "jaeger"), dst); err != nil {
		return "", err
	}
	if !jaegerBuiltFrom(dst) {
		return "", fmt.Errorf("%s was built but its build info does not name %s %s", dst, JaegerModule, JaegerVersion)
	}
	return dst, nil
}

// jaegerBuiltFrom reports whether path is a jaeger binary built from JaegerVersion (a
// tool of the throwaway module reports Jaeger as its main module, a plain dependency among
// the deps).
func jaegerBuiltFrom(path string) bool {
	info, err := buildinfo.ReadFile(path)
	if err != nil || info.Path != jaegerPackage {
		return false
	}
	if info.Main.Path == JaegerModule {
		return info.Main.Version == JaegerVersion
	}
	for _, d := range info.Deps {
		if d.Path == JaegerModule {
			return d.Version == JaegerVersion
		}
	}
	return false
}
