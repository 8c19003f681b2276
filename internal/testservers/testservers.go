// Package testservers locates and builds the real MCP servers that
// mcp-inspect's end-to-end tests run, and the mcp-inspect binary itself.
//
// Two reference servers that no one on this project wrote:
//
//   - @modelcontextprotocol/server-everything (npm, legacy era only), pinned
//     in testdata/servers/package.json and installed on first use by
//     `npm ci --prefix testdata/servers` (install.go; .ci/run does the same);
//   - the go-sdk conformance everything-server (Go, both eras), a `tool` in
//     go.mod, prebuilt by .ci/run into .ci/cache/bin and otherwise built on
//     first use.
//
// Installs and builds are shared by the test processes that go test runs at
// once: each is done under a file lock in .ci/cache, so one process does it and
// the others wait and find it done. The tests need Go, Node.js 20 or later
// (with npm) and tmux, and nothing else.
//
// Both also run over HTTP on 127.0.0.1 (http.go): server-everything in its
// streamableHttp and sse modes, the go-sdk server stateful and stateless.
//
// Everything is found relative to the module root, so the helpers work from
// the tests of any package. A server that cannot be found or built fails the
// test: CI skips nothing.
package testservers

import (
	"bufio"
	"bytes"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// ModulePath is the module path of mcp-inspect; RepoRoot looks for the
// go.mod that declares it.
const ModulePath = "github.com/mcp-inspect/mcp-inspect"

// GoSDKModule is the module that provides the conformance everything-server.
const GoSDKModule = "github.com/modelcontextprotocol/go-sdk"

// GoEverythingPackage is the import path of the go-sdk conformance
// everything-server, declared as a `tool` in go.mod.
const GoEverythingPackage = GoSDKModule + "/conformance/everything-server"

// ServerEverythingPackage is the npm name of the TypeScript reference server.
const ServerEverythingPackage = "@modelcontextprotocol/server-everything"

// installHint tells a developer how to get the npm test servers.
const installHint = "delete testdata/servers/node_modules/" + lockStamp + " and run the tests again, or run `npm ci --prefix testdata/servers`"

// buildCache holds the result of a build done at most once per test process.
type buildCache struct {
	once sync.Once
	path string
	err  error
}

// Build caches: each binary is built (or found up to date), and the npm test
// servers installed, once per test process. These are the package's only
// mutable globals.
var (
	goEverythingBuild buildCache
	jaegerBuild       buildCache
	inspectorBuild    buildCache
	npmInstall        buildCache
)

// RepoRoot returns the mcp-inspect module root: the nearest directory, going
// up from the test's working directory, holding a go.mod that declares
// ModulePath. It fails the test if there is none.
func RepoRoot(t testing.TB) string {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatalf("testservers: %v", err)
	}
	return root
}

func repoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("getwd: %w", err)
	}
	for dir := wd; ; {
		if modulePath(filepath.Join(dir, "go.mod")) == ModulePath {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod declaring module %s in %s or any parent", ModulePath, wd)
		}
		dir = parent
	}
}

// modulePath returns the module path a go.mod declares, or "" when the file
// is missing or declares none.
func modulePath(gomod string) string {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// ServerEverything returns the argv that runs @modelcontextprotocol/server-everything
// on stdio: node and the installed package's dist/index.js. It fails the test,
// saying how to install it, when node or the package is missing or the
// installed version is not the one pinned in testdata/servers/package.json.
func ServerEverything(t testing.TB) []string {
	t.Helper()
	argv, err := serverEverything(RepoRoot(t))
	if err != nil {
		t.Fatalf("testservers: %s: %v", ServerEverythingPackage, err)
	}
	return argv
}

func serverEverything(root string) ([]string, error) {
	if err := ensureNPM(root); err != nil {
		return nil, err
	}
	node, err := findNode()
	if err != nil {
		return nil, err
	}
	serversDir := filepath.Join(root, "testdata", "servers")
	want, err := pinnedNPMVersion(filepath.Join(serversDir, "package.json"), ServerEverythingPackage)
	if err != nil {
		return nil, err
	}
	pkgDir := filepath.Join(serversDir, "node_modules", filepath.FromSlash(ServerEverythingPackage))
	got, err := npmPackageVersion(filepath.Join(pkgDir, "package.json"))
	if err != nil {
		return nil, fmt.Errorf("not installed (%v); %s", err, installHint)
	}
	if got != want {
		return nil, fmt.Errorf("installed version %s, but testdata/servers/package.json pins %s; %s", got, want, installHint)
	}
	index := filepath.Join(pkgDir, "dist", "index.js")
	if _, err := os.Stat(index); err != nil {
		return nil, fmt.Errorf("incomplete install (%v); %s", err, installHint)
	}
	return []string{node, index}, nil
}

// pinnedNPMVersion returns the version that a package.json's dependencies
// pin for name.
func pinnedNPMVersion(manifest, name string) (string, error) {
	data, err := os.ReadFile(manifest)
	if err != nil {
		return "", err
	}
	var m struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return "", fmt.Errorf("%s: %w", manifest, err)
	}
	v, ok := m.Dependencies[name]
	if !ok {
		return "", fmt.Errorf("%s does not list %s in dependencies", manifest, name)
	}
	return v, nil
}

// npmPackageVersion returns the version field of an installed package.json.
func npmPackageVersion(manifest string) (string, error) {
	data, err := os.ReadFile(manifest)
	if err != nil {
		return "", err
	}
	var m struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return "", fmt.Errorf("%s: %w", manifest, err)
	}
	return m.Version, nil
}

// GoEverything returns the argv that runs the go-sdk conformance
// everything-server on stdio. It uses the binary that .ci/run prebuilds in
// .ci/cache/bin when that was built from the go-sdk version go.mod requires,
// and otherwise builds it there (once per test process, and under a lock on
// .ci/cache/everything-server.lock so concurrent test processes build it
// once; about 40 s cold).
// It fails the test if the build fails.
func GoEverything(t testing.TB) []string {
	t.Helper()
	root := RepoRoot(t)
	goEverythingBuild.once.Do(func() {
		goEverythingBuild.path, goEverythingBuild.err = goEverything(root)
	})
	if goEverythingBuild.err != nil {
		t.Fatalf("testservers: go-sdk everything-server: %v", goEverythingBuild.err)
	}
	return []string{goEverythingBuild.path}
}

func goEverything(root string) (string, error) {
	want, err := requiredVersion(filepath.Join(root, "go.mod"), GoSDKModule)
	if err != nil {
		return "", err
	}
	bin, err := binDir(root)
	if err != nil {
		return "", err
	}
	dst := filepath.Join(bin, "everything-server")
	if builtFrom(dst, GoSDKModule, want) {
		return dst, nil
	}
	unlock, err := lockCache(root, "everything-server.lock")
	if err != nil {
		return "", err
	}
	defer unlock()
	if builtFrom(dst, GoSDKModule, want) { // another test process built it while this one waited
		return dst, nil
	}
	if err := goBuild(root, GoEverythingPackage, dst); err != nil {
		return "", err
	}
	if !builtFrom(dst, GoSDKModule, want) {
		return "", fmt.Errorf("%s was built but does not report %s %s in its build info", dst, GoSDKModule, want)
	}
	return dst, nil
}

// requiredVersion returns the version of module that a go.mod requires.
func requiredVersion(gomod, module string) (string, error) {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "require" {
			f = f[1:]
		}
		if len(f) >= 2 && f[0] == module {
			return f[1], nil
		}
	}
	return "", fmt.Errorf("%s does not require %s", gomod, module)
}

// builtFrom reports whether the Go binary at path has module at version as
// its main module.
func builtFrom(path, module, version string) bool {
	info, err := buildinfo.ReadFile(path)
	if err != nil {
		return false
	}
	return info.Main.Path == module && info.Main.Version == version
}

// BuildInspector builds the mcp-inspect binary (the module root package) and
// returns its path. It builds once per test process, so every test in the
// process runs the current source, into .ci/cache/bin/mcp-inspect.
// It fails the test if the build fails.
func BuildInspector(t testing.TB) string {
	t.Helper()
	root := RepoRoot(t)
	inspectorBuild.once.Do(func() {
		inspectorBuild.path, inspectorBuild.err = buildInspector(root)
	})
	if inspectorBuild.err != nil {
		t.Fatalf("testservers: build mcp-inspect: %v", inspectorBuild.err)
	}
	return inspectorBuild.path
}

func buildInspector(root string) (string, error) {
	bin, err := binDir(root)
	if err != nil {
		return "", err
	}
	dst := filepath.Join(bin, "mcp-inspect")
	if err := goBuild(root, ".", dst); err != nil {
		return "", err
	}
	if err := statSources(root, "."); err != nil {
		return "", err
	}
	return dst, nil
}

// statSources stats every source file of the main module that pkg is built
// from, and go.sum. go test caches a test's result keyed on the files the
// test process opened or stat-ed; the go build of the binary runs in another
// process, so without this a test of the binary would report a cached "ok"
// after an edit to, say, the UI, which the test binary itself does not import.
func statSources(root, pkg string) error {
	cmd := exec.Command("go", "list", "-deps", "-f",
		`{{if not .Standard}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}`+"\n"+
			`{{end}}{{range .CgoFiles}}{{$d}}/{{.}}`+"\n"+
			`{{end}}{{range .EmbedFiles}}{{$d}}/{{.}}`+"\n"+
			`{{end}}{{end}}`, pkg)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list -deps %s: %w\n%s", pkg, err, stderr.Bytes())
	}
	_, _ = os.Stat(filepath.Join(root, "go.sum"))
	prefix := root + string(filepath.Separator)
	for _, f := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(f, prefix) {
			_, _ = os.Stat(f)
		}
	}
	return nil
}

// binDir returns the directory that test binaries are cached in:
// .ci/cache/bin under the module root (gitignored), or, when that cannot be
// created, mcp-inspect-test/bin under the user's cache directory.
func binDir(root string) (string, error) {
	dir := filepath.Join(root, ".ci", "cache", "bin")
	err := os.MkdirAll(dir, 0o755)
	if err == nil {
		return dir, nil
	}
	cache, cerr := os.UserCacheDir()
	if cerr != nil {
		return "", errors.Join(err, cerr)
	}
	alt := filepath.Join(cache, "mcp-inspect-test", "bin")
	if aerr := os.MkdirAll(alt, 0o755); aerr != nil {
		return "", errors.Join(err, aerr)
	}
	return alt, nil
}

// goBuild runs `go build -o dst pkg` in the module root. It builds into a
// fresh temporary directory beside dst and renames the result over dst, so
// test processes that build the same binary at once never see a partial
// file, and one that is running the old binary keeps running it.
func goBuild(root, pkg, dst string) error {
	tmp, err := os.MkdirTemp(filepath.Dir(dst), ".build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, filepath.Base(dst))
	gobin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("go is not on PATH: %w", err)
	}
	// -buildvcs=false: packages' test processes share dst and rebuild it at different
	// times; stamped from the tree's VCS state, one build said a pseudo-version and the
	// next "(devel)", and a trace recorded by the first no longer matched --version of the
	// second (TestTraceCommands in CI).
	cmd := exec.Command(gobin, "build", "-buildvcs=false", "-o", out, pkg)
	cmd.Dir = root
	output, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go build -o %s %s: %w\n%s", dst, pkg, err, output)
	}
	return os.Rename(out, dst)
}
