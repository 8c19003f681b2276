package trace

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// CatOptions tune Cat.
type CatOptions struct {
	// Raw writes the frames' exact bytes with no markers and no escaping: with Dirs set to
	// one stream it reproduces that stream byte for byte (`trace cat --raw --dir c2s` is
	// what the client wrote to the server's stdin).
	Raw bool
	// Dirs limits the output to these directions (nil: all).
	Dirs []mcpclient.Direction
	// Escape shows control characters other than tab as \xNN and invalid UTF-8 as \xNN,
	// so the dump is safe on a terminal. Ignored with Raw.
	Escape bool
}

// Cat prints the trace as it was on the wire, in order. Each line starts with a marker:
// "> " for client→server, "< " for server→client, "! " for a stderr line and "# " for a
// lifecycle event. A frame without a final newline gets one, followed by a note; an
// oversize frame shows its kept head and a note with the full size.
func Cat(t *Trace, w io.Writer, opt CatOptions) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if opt.Raw && len(opt.Dirs) == 0 && t.httpTrace() {
		// The HTTP lines are the wire; c2s and s2c repeat the messages inside them.
		opt.Dirs = []mcpclient.Direction{mcpclient.HTTPOut, mcpclient.HTTPIn}
	}
	want := func(d mcpclient.Direction) bool {
		if len(opt.Dirs) == 0 {
			return true
		}
		for _, x := range opt.Dirs {
			if x == d {
				return true
			}
		}
		return false
	}
	for r, err := range t.Records() {
		if err != nil {
			if !opt.Raw {
				fmt.Fprintf(bw, "# unreadable: %v\n", err)
			}
			continue
		}
		if !want(r.Dir) {
			continue
		}
		if opt.Raw {
			if r.Dir != mcpclient.Lifecycle {
				bw.Write(r.Raw)
			}
			continue
		}
		switch r.Dir {
		case mcpclient.ClientToServer:
			bw.WriteString("> ")
		case mcpclient.ServerToClient:
			bw.WriteString("< ")
		case mcpclient.Stderr:
			bw.WriteString("! ")
		case mcpclient.HTTPOut:
			bw.WriteString(">> ")
		case mcpclient.HTTPIn:
			bw.WriteString("<< ")
		case mcpclient.Lifecycle:
			bw.WriteString("# ")
			text := ""
			if r.Life != nil {
				text = r.Life.Text
				if text == "" {
					text = r.Life.Kind
				}
			}
			writeText(bw, []byte(text), opt.Escape)
			bw.WriteByte('\n')
			continue
		}
		if r.HTTPKind == "encoded" && r.Encoding != nil {
			// Compressed bytes are binary: say how they decode; the decoded body follows.
			e := r.Encoding
			writeText(bw, fmt.Appendf(nil, "[%s body as received, %d bytes kept: %s]", e.Coding, len(r.Raw), mcpclient.EncodedNote(e.Coding, r.Size, e.Decoded)), opt.Escape)
			bw.WriteByte('\n')
			if e.Err != "" {
				bw.WriteString("# ")
				writeText(bw, []byte(e.Err), opt.Escape)
				bw.WriteByte('\n')
			}
			continue
		}
		raw := r.Raw
		nl := len(raw) > 0 && raw[len(raw)-1] == '\n'
		if nl {
			raw = raw[:len(raw)-1]
		}
		writeText(bw, raw, opt.Escape)
		bw.WriteByte('\n')
		switch {
		case r.Truncated:
			fmt.Fprintf(bw, "# (frame of %d bytes; only the first %d were recorded)\n", r.Size, len(r.Raw))
		case !nl && !t.httpTrace() && !mcpclient.Complete(r.Raw):
			// (HTTP frames messages itself, and a Content-Length frame ends with its body:
			// no newline is expected there.)
			bw.WriteString("# (no newline at the end of this frame)\n")
		}
		if len(r.Redacted) > 0 && opt.Escape {
			// Only on a terminal: a pasted dump should stay the wire text.
			fmt.Fprintf(bw, "# (redacted: %v)\n", r.Redacted)
		}
	}
	return bw.Flush()
}

// writeText writes b, escaping control bytes and invalid UTF-8 when escape is set.
func writeText(w *bufio.Writer, b []byte, escape bool) {
	if !escape {
		w.Write(b)
		return
	}
	for len(b) > 0 {
		c := b[0]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\t') || c == 0x7f {
				w.WriteString(`\x`)
				w.WriteString(strconv.FormatUint(uint64(c)|0x100, 16)[1:])
			} else {
				w.WriteByte(c)
			}
			b = b[1:]
			continue
		}
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			w.WriteString(`\x`)
			w.WriteString(strconv.FormatUint(uint64(c)|0x100, 16)[1:])
			b = b[1:]
			continue
		}
		// C1 controls and bidi overrides are escaped too: they reorder or hijack a terminal.
		if (r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			fmt.Fprintf(w, `\u%04x`, r)
		} else {
			w.Write(b[:size])
		}
		b = b[size:]
	}
}
