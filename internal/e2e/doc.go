// Package e2e holds the end-to-end tests of the mcp-inspect binary: the real program, run in a
// private tmux server (internal/tmuxtest), typed at and read as a person would, against real
// servers nobody here wrote (internal/testservers) and the fake servers of ../shared/cases.md
// (internal/fake). It has no non-test code.
package e2e
