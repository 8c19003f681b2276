// Package platform is mcp-inspect's one seam on the operating system: everything Linux,
// macOS and Windows decide differently lives here, in per-OS files, and no other package
// of the module calls syscall or golang.org/x/sys (internal/tools/seamcheck keeps it so).
//
//   - Process trees (tree_*.go): a spawned server and everything it forks, started so the
//     whole tree can be ended: a process group on Unix (plus a parent-death signal on
//     Linux and a watchdog), a Job Object that kills on close on Windows; the shutdown
//     ladder's steps (SIGTERM/SIGKILL, CTRL_BREAK/TerminateJobObject) and "is anything of
//     it left".
//   - Exits and signals (exit_*.go, signal_*.go): exit statuses in words, the signals that
//     stop a command, and their names and 128+n exit codes.
//   - Pipes and writes (pipe_*.go, nbwrite_*.go, pollfd_*.go): close-on-exec pipes, the
//     non-blocking write fast path, and the poll(2) reads of caller-reads mode.
//   - Files (lock_*.go, file_*.go): advisory locks, removing files that are open, opening
//     FIFOs without blocking, private files and directories (modes on Unix, ACLs on
//     Windows).
//   - Places (dirs_*.go): the state directory, the runtime directory for tap sockets, the
//     terminal device, the command that opens a file or URL in the user's viewer.
//   - Network errors (neterr_*.go): connection refused and reset, whatever the OS calls them.
package platform
