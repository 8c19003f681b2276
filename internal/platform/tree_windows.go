package platform

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// The shutdown ladder's words on Windows, which has no signals: CTRL_BREAK to the
// server's console process group is the polite step (Node, Python and Go programs end on
// it by default), terminating the Job Object the last.
const (
	// TerminateStep names the polite step.
	TerminateStep = "CTRL_BREAK"
	// KillStep names the last step: TerminateJobObject, every process of the job.
	KillStep = "TerminateJobObject"
	// TerminateAction and KillAction say the steps as lifecycle notes do.
	TerminateAction = "sending CTRL_BREAK to the server's process group"
	KillAction      = "terminating the server's job object (every process in it)"
	// ShutdownLadder is the whole sequence in a few words, for messages.
	ShutdownLadder = "stdin closed, then CTRL_BREAK to its process group, then its job object terminated"
)

// killedExitCode is the exit code TerminateJobObject gives (as os.Process.Kill does).
const killedExitCode = 1

type treeSys struct {
	mu      sync.Mutex
	job     windows.Handle // the Job Object; 0 when none could be made
	proc    windows.Handle // the server process
	warning string         // why there is no job, "" when there is one
}

// jobBasicAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION (winnt.h).
type jobBasicAccounting struct {
	TotalUserTime, TotalKernelTime                     int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime int64
	TotalPageFaultCount                                uint32
	TotalProcesses, ActiveProcesses                    uint32
	TotalTerminatedProcesses                           uint32
}

// stillActive is GetExitCodeProcess's code for a process still running (STILL_ACTIVE).
const stillActive = 259

// prepare starts the child suspended, so it is in its Job Object before it can start a
// child of its own, and in a new console process group, so CTRL_BREAK can be sent to it
// alone and a ctrl+c in the user's console reaches the inspector, not the server.
func prepare(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP}
}

// adopt puts the suspended child in a new Job Object that kills every process in it when
// its last handle closes (this process's, however it ends), then resumes it. Without a job
// (an old system, a sandbox that forbids nesting) the tree is the one process, and
// Warning says so.
func (t *Tree) adopt(*exec.Cmd) error {
	const access = windows.PROCESS_SET_QUOTA | windows.PROCESS_TERMINATE | windows.PROCESS_QUERY_LIMITED_INFORMATION | windows.SYNCHRONIZE
	h, err := windows.OpenProcess(access, false, uint32(t.pid))
	if err != nil {
		return os.NewSyscallError("OpenProcess", err)
	}
	t.sys.proc = h
	job, err := killOnCloseJob()
	if err == nil {
		if aerr := windows.AssignProcessToJobObject(job, h); aerr != nil {
			windows.CloseHandle(job)
			job, err = 0, os.NewSyscallError("AssignProcessToJobObject", aerr)
		}
	}
	if err != nil {
		t.sys.warning = fmt.Sprintf("no job object for the server (%v): processes it starts may outlive it", err)
	}
	t.sys.job = job
	if err := resumeThreads(uint32(t.pid)); err != nil {
		t.Release()
		return err
	}
	return nil
}

// killOnCloseJob creates an unnamed, uninheritable Job Object with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE.
func killOnCloseJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, os.NewSyscallError("CreateJobObject", err)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation, uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, os.NewSyscallError("SetInformationJobObject", err)
	}
	return job, nil
}

// resumeThreads resumes the threads of process pid (the one thread CREATE_SUSPENDED
// left suspended; os/exec closes its handle, so it is found in a thread snapshot).
func resumeThreads(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return os.NewSyscallError("CreateToolhelp32Snapshot", err)
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, oerr := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if oerr != nil {
			continue
		}
		if _, rerr := windows.ResumeThread(th); rerr == nil {
			resumed++
		}
		windows.CloseHandle(th)
	}
	if resumed == 0 {
		return fmt.Errorf("resuming pid %d: no thread of it could be resumed", pid)
	}
	return nil
}

// Warning is "" when the tree is a Job Object, else why it is only the server's process
// (processes it starts may then outlive it). Callers show it once, as a lifecycle note.
func (t *Tree) Warning() string { return t.sys.warning }

// Terminate sends CTRL_BREAK to the server's console process group. It fails when the
// inspector has no console to share with the server (GenerateConsoleCtrlEvent's rule).
func (t *Tree) Terminate() error {
	if t.pid <= 0 {
		return errors.New("no process group")
	}
	// Never group 0: that is every process on the console, the inspector included.
	return os.NewSyscallError("GenerateConsoleCtrlEvent", windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(t.pid)))
}

// Kill terminates every process of the job (or the server's process when there is no
// job), with exit code 1 as os.Process.Kill gives.
func (t *Tree) Kill() error {
	t.sys.mu.Lock()
	defer t.sys.mu.Unlock()
	switch {
	case t.sys.job != 0:
		return os.NewSyscallError("TerminateJobObject", windows.TerminateJobObject(t.sys.job, killedExitCode))
	case t.sys.proc != 0:
		return os.NewSyscallError("TerminateProcess", windows.TerminateProcess(t.sys.proc, killedExitCode))
	}
	return errors.New("the process tree was released")
}

// Signal forwards a signal the inspector received: os.Kill kills the tree, any other
// (ctrl+c, a closed console) sends CTRL_BREAK.
func (t *Tree) Signal(sig os.Signal) error {
	if sig == os.Kill {
		return t.Kill()
	}
	return t.Terminate()
}

// Alive reports whether any process of the job is still running (without a job: whether
// the server's process is).
func (t *Tree) Alive() bool {
	t.sys.mu.Lock()
	defer t.sys.mu.Unlock()
	if t.sys.job != 0 {
		var info jobBasicAccounting
		err := windows.QueryInformationJobObject(t.sys.job, windows.JobObjectBasicAccountingInformation, uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil)
		if err == nil {
			return info.ActiveProcesses > 0
		}
	}
	if t.sys.proc == 0 {
		return false
	}
	var code uint32
	if windows.GetExitCodeProcess(t.sys.proc, &code) != nil {
		return false
	}
	return code == stillActive
}

// Release closes the job's handle (which ends whatever is left in it) and the process's.
// Call it once the tree is gone. Safe more than once.
func (t *Tree) Release() {
	t.sys.mu.Lock()
	defer t.sys.mu.Unlock()
	if t.sys.job != 0 {
		windows.CloseHandle(t.sys.job)
		t.sys.job = 0
	}
	if t.sys.proc != 0 {
		windows.CloseHandle(t.sys.proc)
		t.sys.proc = 0
	}
}
