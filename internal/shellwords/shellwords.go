// Package shellwords writes and reads command lines as a user pastes them into a shell:
// Join quotes argv so the shell reads it back as the same words; Split reads a line the way
// the shell does, running nothing. Join and Split are POSIX sh's; JoinWindows and
// SplitWindows are cmd.exe's with CommandLineToArgvW's word rules; a Quoting value picks one
// of the two by OS (For).
package shellwords

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/shell"
)

// Join writes argv so it can be pasted into a POSIX shell and read back as the same
// arguments (the UI and the command line show every command line this way). A word with
// no character the shell treats specially is written as is; any other is single-quoted.
func Join(argv []string) string {
	var parts []string
	for _, a := range argv {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
			parts = append(parts, a)
			continue
		}
		parts = append(parts, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	return strings.Join(parts, " ")
}

// ErrEmpty is Split's error for a line that holds no word.
var ErrEmpty = errors.New("the command line is empty")

// Split reads a command line the way sh does (quotes, escapes, $VAR from the
// environment), without running anything. It fails on a line sh cannot read and with
// ErrEmpty on a line of no words.
func Split(line string) ([]string, error) {
	argv, err := shell.Fields(line, nil)
	if err != nil {
		return nil, fmt.Errorf("cannot read the command line: %v", err)
	}
	if len(argv) == 0 {
		return nil, ErrEmpty
	}
	return argv, nil
}
