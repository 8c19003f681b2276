package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
)

// clean and block are the only doors for server text into the UI: one line, or a block
// with line breaks kept. Both go through the one sanitizer.
func clean(s string) string { return sanitize.OneLine(s) }
func block(s string) string { return sanitize.Block(s) }

// fit truncates s (which may hold styling) to w cells and pads it to exactly w.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// wrap breaks already-sanitized text into lines of at most w cells: words where it can,
// hard breaks where it must. Nothing is trimmed away.
func wrap(s string, w int) []string {
	if w < 1 {
		w = 1
	}
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if len(line) > longLine && asciiPrefix(line, len(line)) == len(line) {
			out = wrapASCII(out, line, w)
			continue
		}
		if ansi.StringWidth(line) <= w {
			out = append(out, line)
			continue
		}
		out = append(out, strings.Split(ansi.Wrap(line, w, ""), "\n")...)
	}
	return out
}

// wrapSpaces wraps plain text at spaces only: wrap (ansi.Wrap) also breaks after a hyphen,
// which cuts a date (2025-11-25) or a flag in two. A word wider than w is broken hard.
func wrapSpaces(s string, w int) []string {
	w = max(w, 1)
	var out []string
	for _, para := range strings.Split(s, "\n") {
		lines := wrapWords(para, w)
		if len(lines) == 0 {
			out = append(out, "")
		}
		for _, line := range lines {
			if ansi.StringWidth(line) <= w {
				out = append(out, line)
				continue
			}
			out = append(out, strings.Split(ansi.Hardwrap(line, w, false), "\n")...)
		}
	}
	return out
}

// longLine is the length from which an ASCII line is wrapped by wrapASCII, in one pass,
// instead of by ansi.Wrap (which measures grapheme by grapheme: seconds for a 5 MiB line).
const longLine = 4096

// wrapASCII appends line, printable ASCII without escapes (one cell per byte), broken into
// lines of at most w: at the last space that fits, else hard.
func wrapASCII(out []string, line string, w int) []string {
	for len(line) > w {
		cut := strings.LastIndexByte(line[:w+1], ' ')
		if cut <= 0 {
			out = append(out, line[:w])
			line = line[w:]
			continue
		}
		out = append(out, line[:cut])
		line = line[cut+1:]
	}
	return append(out, line)
}

// humanSize writes a byte count briefly.
func humanSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%dB", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1fK", float64(n)/1024)
	case n < 1024*1024*1024:
		return fmt.Sprintf("%.1fM", float64(n)/(1024*1024))
	}
	return fmt.Sprintf("%.1fG", float64(n)/(1024*1024*1024))
}

// window returns the lines [off, off+h) of lines, padded with empty lines to h, each fitted to w.
func window(lines []string, off, h, w int) []string {
	out := make([]string, 0, h)
	for i := off; i < off+h; i++ {
		if i >= 0 && i < len(lines) {
			out = append(out, fit(lines[i], w))
		} else {
			out = append(out, strings.Repeat(" ", max(w, 0)))
		}
	}
	return out
}

// clampScroll keeps a scroll offset inside content of n lines shown h at a time.
// topFor is the first row to show of n rows in h so that row sel is in view, moving from
// top as little as it can (the wire, the logs and the item lists scroll so).
func topFor(top, sel, n, h int) int {
	if sel < top {
		top = sel
	}
	if sel >= top+h {
		top = sel - h + 1
	}
	return clampScroll(top, n, h)
}

func clampScroll(off, n, h int) int {
	if off > n-h {
		off = n - h
	}
	if off < 0 {
		off = 0
	}
	return off
}
