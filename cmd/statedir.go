package cmd

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// The state directory holds the log, kept and saved sessions, argument history and OAuth
// tokens, so it must be the user's alone: an existing one that others can reach is
// tightened to 0700 (and mcp-inspect says so), one another user owns is refused (and
// mcp-inspect says what to do) and nothing is kept in it. openLog, which every command runs
// first, checks it and speaks; after that the directory is private, or still refused, and
// later checks (usableStateDir, stateSubdir) have nothing more to say about it.

// checkStateDir checks the state directory (platform.EnsurePrivateDir) and says on stderr
// what it found worth saying: that it tightened the directory, or that it refuses it and
// what to do. It returns the directory, "" when it cannot be used, and the note for the
// log.
func checkStateDir(stderr io.Writer) (dir, note string) {
	dir = stateDir()
	note, err := platform.EnsurePrivateDir(dir)
	if note != "" {
		fmt.Fprintf(stderr, "mcp-inspect: %s\n", note)
	}
	if err != nil {
		var no *platform.NotOwnedError
		if errors.As(err, &no) {
			note = refusedDir("state directory", no)
			fmt.Fprintf(stderr, "mcp-inspect: %s\n", note)
		}
		return "", note
	}
	return dir, note
}

// refusedDir says that the directory of no (what names it) is refused, why, and what to do.
func refusedDir(what string, no *platform.NotOwnedError) string {
	mode := ""
	if no.Mode != 0 {
		mode = fmt.Sprintf(" and has mode %#o", no.Mode)
	}
	return fmt.Sprintf("refusing the %s %s: it belongs to %s, not to you (%s)%s, so it cannot be made private, and nothing is kept in it. Remove it (its owner or an administrator can), or set XDG_STATE_HOME to a directory of your own",
		what, no.Dir, no.Owner, no.Me, mode)
}

// usableStateDir is the state directory when it is the user's and private (tightened if
// need be, silently: openLog has spoken), else "".
func usableStateDir() string {
	dir := stateDir()
	if _, err := platform.EnsurePrivateDir(dir); err != nil {
		return ""
	}
	return dir
}

// stateSubdir makes the directory sub/… of the state directory, and each one on the way,
// private (platform.EnsurePrivateDir) and returns it. A directory it tightened is said on
// stderr and in the log; one of them that another user owns is refused, with what to do, on
// stderr. A refused state directory is an error here and nothing more (openLog said so).
func stateSubdir(logger *slog.Logger, stderr io.Writer, sub ...string) (string, error) {
	dir := usableStateDir()
	if dir == "" {
		return "", fmt.Errorf("the state directory %s is not used", stateDir())
	}
	for _, s := range sub {
		dir = filepath.Join(dir, s)
		note, err := platform.EnsurePrivateDir(dir)
		if note != "" {
			fmt.Fprintf(stderr, "mcp-inspect: %s\n", note)
			logger.Warn(note)
		}
		var no *platform.NotOwnedError
		if errors.As(err, &no) {
			fmt.Fprintf(stderr, "mcp-inspect: %s\n", refusedDir("directory", no))
		}
		if err != nil {
			return "", err
		}
	}
	return dir, nil
}
