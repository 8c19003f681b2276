package platform

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"
)

// TestKillEndsTheWholeTree: a server's grandchild goes with it (npx → node), by the
// process group's SIGKILL on Unix and TerminateJobObject on Windows.
func TestKillEndsTheWholeTree(t *testing.T) {
	tree, cmd, lines := child(t, "parent")
	grandchild := pidOf(t, lines)
	if !tree.Alive() || !ProcessExists(grandchild) {
		t.Fatalf("tree alive %v, grandchild %d exists %v: want both", tree.Alive(), grandchild, ProcessExists(grandchild))
	}
	if err := tree.Kill(); err != nil {
		t.Fatal(err)
	}
	ex := waitExit(t, cmd, 10*time.Second)
	if !tree.WaitGone(10 * time.Second) {
		t.Fatal("the tree is still alive 10s after Kill")
	}
	if runtime.GOOS == "windows" {
		if ex.Code != 1 || ex.Signal != "" { // TerminateJobObject's code, as os.Process.Kill's
			t.Errorf("exit %+v, want code 1", ex)
		}
	} else if ex.Signal != "KILL" || ex.Code != -1 {
		t.Errorf("exit %+v, want signal KILL", ex)
	}
	deadline := time.Now().Add(10 * time.Second)
	for ProcessExists(grandchild) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if ProcessExists(grandchild) {
		t.Errorf("grandchild %d outlived Kill", grandchild)
	}
}

// TestTerminateEndsAServerThatDoesNotCatchIt: the polite step (SIGTERM; CTRL_BREAK on
// Windows) ends a program with the default handling.
func TestTerminateEndsAServerThatDoesNotCatchIt(t *testing.T) {
	tree, cmd, _ := child(t, "sleep")
	if err := tree.Terminate(); err != nil {
		t.Fatal(err)
	}
	ex := waitExit(t, cmd, 10*time.Second)
	if runtime.GOOS == "windows" {
		if uint32(ex.Code) != 0xC000013A {
			t.Errorf("exit %+v (%s), want STATUS_CONTROL_C_EXIT", ex, ExitCodeText(ex.Code))
		}
	} else if ex.Signal != "TERM" {
		t.Errorf("exit %+v, want signal TERM", ex)
	}
	if !tree.WaitGone(5 * time.Second) {
		t.Error("tree alive after its only process ended")
	}
}

// TestIgnoreTerminateNeedsKill: a server that ignores the polite step lives on until Kill,
// the shutdown ladder's last step (fake server scenario linger-kill).
func TestIgnoreTerminateNeedsKill(t *testing.T) {
	tree, cmd, _ := child(t, "ignore-term")
	if err := tree.Terminate(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if !tree.Alive() {
		t.Fatal("a process that ignores Terminate ended on it")
	}
	if err := tree.Kill(); err != nil {
		t.Fatal(err)
	}
	waitExit(t, cmd, 10*time.Second)
	if !tree.WaitGone(5 * time.Second) {
		t.Error("tree alive after Kill")
	}
}

func TestExitCode(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"=exit3")
	tree, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tree.Release)
	if ex := waitExit(t, cmd, 10*time.Second); ex.Code != 3 || ex.Signal != "" {
		t.Errorf("exit %+v, want code 3", ex)
	}
}

func TestStartFailureLeavesNothing(t *testing.T) {
	cmd := exec.Command(tempDir(t) + "/no-such-server")
	tree, err := Start(cmd)
	if err == nil || tree != nil {
		t.Fatalf("Start of a missing program: tree %v, err %v", tree, err)
	}
}

func TestExitCodeText(t *testing.T) {
	for code, want := range map[int]string{
		0:          "code 0",
		2:          "code 2",
		137:        "code 137",
		-1:         "code -1",
		3221225477: "code 3221225477 (0xC0000005: access violation)",
		3221225786: "code 3221225786 (0xC000013A: ended by CTRL_C or CTRL_BREAK)",
		3221226505: "code 3221226505 (0xC0000409: stack buffer overrun or fail-fast abort)",
		3221225473: "code 3221225473 (0xC0000001)",
	} {
		if got := ExitCodeText(code); got != want {
			t.Errorf("ExitCodeText(%d) = %q, want %q", code, got, want)
		}
	}
}

func TestSignalExitCodeOf(t *testing.T) {
	for name, want := range map[string]int{"KILL": 137, "TERM": 143, "INT": 130, "SEGV": 139, "NOPE": 1} {
		if got := SignalExitCodeOf(name); got != want {
			t.Errorf("SignalExitCodeOf(%s) = %d, want %d", name, got, want)
		}
	}
}
