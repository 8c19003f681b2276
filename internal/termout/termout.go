// Package termout is the one way human-readable output reaches stdout and stderr outside the
// TUI. A Writer wraps a stream; when the stream is a terminal, every byte passes through the
// sanitizer (internal/sanitize) so a server's text cannot drive the terminal (issue 15, case
// B23): C0 and C1 controls (U+009B/9C/9D: 8-bit CSI, ST, OSC), bidi overrides, zero-width
// space and joiner, BOM and tag characters become visible escapes. When the stream is a file
// or a pipe the bytes pass unchanged, so scripts get what the server sent.
//
// The JSON variant (Writer.JSON) escapes the same characters as \uXXXX, which keeps a --json
// document valid JSON (RFC 8259 §7) and its values unchanged for a reader, while a terminal
// showing it acts on none of them.
package termout

import (
	"fmt"
	"io"
	"os"
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/x/term"
	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
)

// Writer is an io.Writer that escapes what it writes when its destination is a terminal.
// It is safe for concurrent use; the Human and JSON variants of one destination share a lock,
// so their writes never interleave.
type Writer struct {
	dst    io.Writer
	escape bool
	json   bool
	mu     *sync.Mutex
	// pending is an incomplete UTF-8 sequence at the end of the last Write (at most 3
	// bytes): a character split across two writes is escaped (or not) whole.
	pending []byte
}

// New wraps f: escaping when f is a terminal (a character device), passing bytes through
// otherwise.
func New(f *os.File) *Writer { return Wrap(f, IsTerminal(f)) }

// Wrap wraps dst, escaping when escape is set (tests use it with a buffer).
func Wrap(dst io.Writer, escape bool) *Writer {
	return &Writer{dst: dst, escape: escape, mu: new(sync.Mutex)}
}

// IsTerminal reports whether f is a terminal (isatty: the terminal ioctl answers). Other
// character devices such as /dev/null are not: escaping a 200 MB result on its way to
// /dev/null cost a second copy of it for nothing.
func IsTerminal(f *os.File) bool {
	return f != nil && term.IsTerminal(f.Fd())
}

// Terminal reports whether w escapes, that is whether its destination is a terminal.
func (w *Writer) Terminal() bool { return w.escape }

// JSON returns the variant of w for JSON text: on a terminal, the characters the human
// variant shows as escapes are written as JSON \uXXXX escapes (a surrogate pair above
// U+FFFF), and invalid UTF-8 as \uFFFD. The input must be JSON text, where such characters
// can only stand inside strings.
func (w *Writer) JSON() *Writer {
	return &Writer{dst: w.dst, escape: w.escape, json: true, mu: w.mu}
}

// JSONOf is w.JSON() when w is a *Writer, and w itself otherwise.
func JSONOf(w io.Writer) io.Writer {
	if tw, ok := w.(*Writer); ok {
		return tw.JSON()
	}
	return w
}

// Write writes p, escaped when the destination is a terminal. It reports len(p) on success:
// the caller's bytes were all taken, though the bytes written differ.
func (w *Writer) Write(p []byte) (int, error) {
	if !w.escape {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.dst.Write(p)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	buf := p
	if len(w.pending) > 0 {
		buf = append(w.pending, p...)
		w.pending = nil
	}
	if tail := incompleteTail(buf); tail > 0 {
		w.pending = append([]byte(nil), buf[len(buf)-tail:]...)
		buf = buf[:len(buf)-tail]
	}
	if _, err := w.dst.Write(w.escapeBytes(buf)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// WriteString is Write for a string.
func (w *Writer) WriteString(s string) (int, error) { return w.Write([]byte(s)) }

// Flush writes a pending incomplete UTF-8 sequence (as escapes): call it when nothing more
// will follow.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) == 0 {
		return nil
	}
	b := w.escapeBytes(w.pending)
	w.pending = nil
	_, err := w.dst.Write(b)
	return err
}

// incompleteTail is the length of an incomplete but possibly valid UTF-8 sequence ending b.
func incompleteTail(b []byte) int {
	for n := 1; n <= 3 && n <= len(b); n++ {
		c := b[len(b)-n]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-n:]) {
				return 0
			}
			return n
		}
	}
	return 0
}

func (w *Writer) escapeBytes(b []byte) []byte {
	if w.json {
		return escapeJSON(b)
	}
	out := make([]byte, 0, len(b)+16)
	sanitize.Visit(b, sanitize.Stream, func(text string, _ bool) { out = append(out, text...) })
	return out
}

// escapeJSON escapes JSON text for a terminal: C0 controls other than the whitespace JSON
// allows between tokens, DEL, and every rune sanitize.Dangerous names become \uXXXX; invalid
// UTF-8 becomes \uFFFD, as encoding/json does for Go strings.
func escapeJSON(b []byte) []byte {
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f {
				out = fmt.Appendf(out, `\u%04x`, c)
			} else {
				out = append(out, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			out = append(out, `\ufffd`...)
		case sanitize.Dangerous(r):
			if r > 0xffff {
				r -= 0x10000
				out = fmt.Appendf(out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		default:
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}
