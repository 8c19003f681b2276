package testservers

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// MinNodeMajor is the oldest Node.js major version the test servers run on (the ports of
// the course servers use Object.hasOwn and ??; server-everything needs 20).
const MinNodeMajor = 20

// lockStamp is the file in node_modules that holds the sha256 (hex) of the
// package-lock.json it was installed from; .ci/run writes the same stamp.
const lockStamp = ".ci-lock-sha256"

// NodeModules returns testdata/servers/node_modules, installing it first when it is
// missing or was not installed from the current package-lock.json (see ensureNPM). It
// fails the test when the install fails.
func NodeModules(t testing.TB) string {
	t.Helper()
	root := RepoRoot(t)
	if err := ensureNPM(root); err != nil {
		t.Fatalf("testservers: %v", err)
	}
	return filepath.Join(root, "testdata", "servers", "node_modules")
}

// Node returns the path of node on PATH, failing the test when it is missing or older than
// MinNodeMajor.
func Node(t testing.TB) string {
	t.Helper()
	node, err := findNode()
	if err != nil {
		t.Fatalf("testservers: %v", err)
	}
	return node
}

// findNode returns node on PATH once its `node --version` says MinNodeMajor or later.
func findNode() (string, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return "", fmt.Errorf("node is not on PATH; the tests need Node.js %d or later: %w", MinNodeMajor, err)
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", node, err)
	}
	v := strings.TrimSpace(string(out))
	major, _, _ := strings.Cut(strings.TrimPrefix(v, "v"), ".")
	if n, err := strconv.Atoi(major); err != nil || n < MinNodeMajor {
		return "", fmt.Errorf("%s is Node.js %s; the tests need Node.js %d or later", node, v, MinNodeMajor)
	}
	return node, nil
}

// ensureNPM installs the npm test servers with `npm ci --prefix testdata/servers` unless
// node_modules holds the stamp of the current package-lock.json, and then writes the
// stamp. It runs once per test process, and across processes under an exclusive lock on
// .ci/cache/npm-ci.lock: go test runs packages' tests at once, and the second process
// waits for the first's install and then finds it done.
func ensureNPM(root string) error {
	npmInstall.once.Do(func() { npmInstall.err = installNPM(root) })
	return npmInstall.err
}

func installNPM(root string) error {
	servers := filepath.Join(root, "testdata", "servers")
	want, err := fileSHA256(filepath.Join(servers, "package-lock.json"))
	if err != nil {
		return err
	}
	stamp := filepath.Join(servers, "node_modules", lockStamp)
	if stamped(stamp, want) {
		return nil
	}
	unlock, err := lockCache(root, "npm-ci.lock")
	if err != nil {
		return err
	}
	defer unlock()
	if stamped(stamp, want) { // another test process installed it while this one waited
		return nil
	}
	// A linked node_modules (a worktree sharing another checkout's) is not ours to replace:
	// npm ci would empty the other checkout's.
	modules := filepath.Join(servers, "node_modules")
	if st, err := os.Lstat(modules); err == nil && st.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link, and what it links to was not installed from this package-lock.json (no %s holding its sha256); install there, or remove the link to have the tests install here", modules, lockStamp)
	}
	if _, err := findNode(); err != nil {
		return err
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("npm is not on PATH (it comes with Node.js): %w", err)
	}
	cmd := exec.Command(npm, "ci", "--prefix", servers, "--no-audit", "--no-fund")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci --prefix testdata/servers: %w\n%s", err, out)
	}
	return os.WriteFile(stamp, []byte(want+"\n"), 0o644)
}

// stamped reports whether the stamp file holds sum.
func stamped(stamp, sum string) bool {
	data, err := os.ReadFile(stamp)
	return err == nil && strings.TrimSpace(string(data)) == sum
}

// fileSHA256 returns the hex sha256 of a file's bytes, as sha256sum prints it.
func fileSHA256(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// lockCache takes an exclusive lock on .ci/cache/name (under the module root), waiting for
// another test process that holds it; the returned func releases it.
func lockCache(root, name string) (func(), error) {
	bin, err := binDir(root)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(filepath.Dir(bin), name), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := platform.LockExclusive(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	return func() { f.Close() }, nil
}

// scriptArgv is the argv that runs testdata/servers/name with node.
func scriptArgv(t testing.TB, name string) []string {
	t.Helper()
	return []string{Node(t), filepath.Join(RepoRoot(t), "testdata", "servers", name)}
}
