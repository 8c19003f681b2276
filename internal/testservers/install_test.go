package testservers

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// childRootEnv, when set, makes the test binary a child of TestInstallNPMOnce: it runs
// installNPM on that module root and exits, 0 on success.
const childRootEnv = "TESTSERVERS_INSTALL_NPM_ROOT"

func TestMain(m *testing.M) {
	if root := os.Getenv(childRootEnv); root != "" {
		if err := installNPM(root); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeNPM puts an npm on PATH that logs each run to dir/npm-runs and creates the
// node_modules of its --prefix, and returns the log's path.
func fakeNPM(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	runs := filepath.Join(bin, "npm-runs")
	script := "#!/bin/sh\n[ \"$1 $2\" = \"ci --prefix\" ] || exit 9\necho \"$*\" >>" + shellQuote(runs) +
		"\nmkdir -p \"$3/node_modules\"\nsleep 0.3\n"
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return runs
}

// fakeRoot is a module root with testdata/servers/package-lock.json and nothing installed.
func fakeRoot(t *testing.T) (root, lock string) {
	t.Helper()
	root = t.TempDir()
	servers := filepath.Join(root, "testdata", "servers")
	if err := os.MkdirAll(servers, 0o755); err != nil {
		t.Fatal(err)
	}
	lock = filepath.Join(servers, "package-lock.json")
	if err := os.WriteFile(lock, []byte(`{"lockfileVersion": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, lock
}

func npmRuns(t *testing.T, log string) []string {
	t.Helper()
	data, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// TestInstallNPMOnce: four test processes that find testdata/servers/node_modules missing
// at once run `npm ci --prefix testdata/servers --no-audit --no-fund` once between them
// (the others wait on the lock and find the stamp), and stamp node_modules with the
// lockfile's sha256 as .ci/run does; a later lockfile change installs again.
func TestInstallNPMOnce(t *testing.T) {
	runs := fakeNPM(t)
	root, lock := fakeRoot(t)
	var children []*exec.Cmd
	for range 4 {
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), childRootEnv+"="+root)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		children = append(children, c)
	}
	for _, c := range children {
		if err := c.Wait(); err != nil {
			t.Fatalf("a child's install: %v", err)
		}
	}
	servers := filepath.Join(root, "testdata", "servers")
	want := "ci --prefix " + servers + " --no-audit --no-fund"
	if got := npmRuns(t, runs); len(got) != 1 || got[0] != want {
		t.Fatalf("npm runs %q, want one %q", got, want)
	}
	sum, err := fileSHA256(lock)
	if err != nil {
		t.Fatal(err)
	}
	stamp, err := os.ReadFile(filepath.Join(servers, "node_modules", lockStamp))
	if err != nil || string(stamp) != sum+"\n" {
		t.Fatalf("stamp %q (%v), want %q", stamp, err, sum+"\n")
	}

	if err := installNPM(root); err != nil || len(npmRuns(t, runs)) != 1 {
		t.Fatalf("an installed node_modules was installed again (%v): %q", err, npmRuns(t, runs))
	}
	if err := os.WriteFile(lock, []byte(`{"lockfileVersion": 3, "packages": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := installNPM(root); err != nil || len(npmRuns(t, runs)) != 2 {
		t.Fatalf("a changed package-lock.json was not installed (%v): %q", err, npmRuns(t, runs))
	}
}

// TestNodeTooOld: a node older than MinNodeMajor is refused with a message naming the
// version found and the one needed, before any npm install.
func TestNodeTooOld(t *testing.T) {
	runs := fakeNPM(t)
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "node"), []byte("#!/bin/sh\necho v18.19.1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	root, _ := fakeRoot(t)
	err := installNPM(root)
	if err == nil || !strings.Contains(err.Error(), "is Node.js v18.19.1; the tests need Node.js 20 or later") {
		t.Fatalf("installNPM with node v18: %v", err)
	}
	if got := npmRuns(t, runs); len(got) != 0 {
		t.Fatalf("npm ran with a node too old: %q", got)
	}
}

// TestInstallNPMLinked: a node_modules that is a symbolic link to another checkout's, not
// installed from this lockfile, is left alone, with an error saying so, and npm does not run.
func TestInstallNPMLinked(t *testing.T) {
	runs := fakeNPM(t)
	root, _ := fakeRoot(t)
	other := t.TempDir()
	if err := os.Symlink(other, filepath.Join(root, "testdata", "servers", "node_modules")); err != nil {
		t.Fatal(err)
	}
	err := installNPM(root)
	if err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Fatalf("installNPM through a link: %v", err)
	}
	if got := npmRuns(t, runs); len(got) != 0 {
		t.Fatalf("npm ran through a link: %q", got)
	}
}
