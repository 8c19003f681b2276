package mcpclient

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// The silent server (issue 24). A stdio server framed LSP-style, as MCP courses teach, reads
// the client's JSON line as a header it does not know and waits, silently, for the blank line
// that ends the headers: the request waits out its timeout and nothing says why. After
// Config.Silence with a request unanswered, nothing on stdout and the process alive, a
// lifecycle note (SilenceNote) says what is likely, from what can be seen: whether the server
// has read what was written to its stdin (Linux tells: platform.PipeUnread), and whether the
// command is a launcher that may still be downloading the server. With FramingAuto, a server
// that read the request and said nothing is then sent the pending requests again framed with
// Content-Length (framing.go follows the answer).

// SilenceNote starts the text of the lifecycle notes about a server that says nothing.
const SilenceNote = "silent server: "

// DefaultSilence is Config.Silence's default: long past a server's usual answer to
// initialize, well before --timeout.
const DefaultSilence = 3 * time.Second

// watchSilenceLocked starts the watch with the first request written to a stdio server.
func (c *Client) watchSilenceLocked() {
	if c.tr != nil || c.silence != nil || c.cfg.Silence < 0 || c.heard.Load() {
		return
	}
	c.silenceFrom = time.Now()
	c.silence = time.AfterFunc(c.silenceAfter(), c.silent)
}

func (c *Client) silenceAfter() time.Duration {
	if c.cfg.Silence > 0 {
		return c.cfg.Silence
	}
	return DefaultSilence
}

// silent runs when the watch fires: it says what is likely once for each thing seen, tries
// Content-Length framing under FramingAuto, and looks again later while the server is silent.
func (c *Client) silent() {
	if c.heard.Load() {
		return
	}
	unread, known := platform.PipeUnread(c.writer.f)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.heard.Load() || c.dead != nil || c.state == StateClosed || len(c.pending) == 0 || c.framingErr != nil {
		return
	}
	waited := time.Since(c.silenceFrom).Round(time.Second)
	again := true
	switch {
	case known && unread > 0:
		if !c.silenceSaid[0] {
			c.silenceSaid[0] = true
			text := fmt.Sprintf(SilenceNote+"no answer after %s and nothing on stdout, and the server has not read its stdin (%d bytes mcp-inspect wrote are still in the pipe): ", waited, unread)
			if l := launcher(c.cfg.Command); l != "" {
				text += l + " may still be downloading or starting it (the first run of a package takes longer)"
			} else {
				text += "it is still starting, or it never reads stdin"
			}
			c.noteLocked(text)
		}
	case c.cfg.Framing == FramingAuto && !c.writeCL:
		c.probeContentLengthLocked(waited, known)
		again = false
	case !c.silenceSaid[1]:
		c.silenceSaid[1] = true
		read := ""
		if known {
			read = ", though it read what mcp-inspect sent"
		}
		text := fmt.Sprintf(SilenceNote+"no answer after %s and nothing on stdout%s: a server framed LSP-style (Content-Length headers, as MCP courses teach) reads the JSON line as a header and waits silently for more (or the server's stdout is block-buffered and holds its answer: python -u, PYTHONUNBUFFERED=1)", waited, read)
		if c.writeCL {
			text = fmt.Sprintf(SilenceNote+"no answer after %s to Content-Length framed messages and nothing on stdout%s: it may read newline JSON (MCP's framing), or be busy", waited, read)
		} else {
			text += "; run again with --framing content-length (or --framing auto, which tries it)"
		}
		if l := launcher(c.cfg.Command); l != "" && !known {
			text += "; or " + l + " is still starting it"
		}
		c.noteLocked(text)
	default:
		again = false
	}
	if again {
		c.silence.Reset(c.silenceAfter())
	}
}

// probeContentLengthLocked is --framing auto on a silent server: the pending requests go
// again framed with Content-Length, and what the server answers decides (framing.go).
func (c *Client) probeContentLengthLocked(waited time.Duration, known bool) {
	c.writeCL, c.probedCL, c.silenceSaid[1] = true, true, true
	pend := c.pendingInOrderLocked()
	read := ""
	if known {
		read = " though it read them"
	}
	c.noteLocked(fmt.Sprintf(FramingAutoNote+"no answer after %s to newline JSON and nothing on stdout%s: re-sending %d pending request(s) framed with Content-Length, as a server framed LSP-style expects (auto tries it because it was asked: MCP stdio is newline JSON)", waited, read, len(pend)))
	for _, p := range pend {
		c.resendLocked(p)
	}
}

// launcher names a command that fetches or starts the server before it runs (so a silent
// start may be a download), "" for another.
func launcher(command string) string {
	base := strings.TrimSuffix(strings.ToLower(filepath.Base(command)), ".cmd")
	base = strings.TrimSuffix(base, ".exe")
	switch base {
	case "npx", "uvx", "pipx", "bunx", "pnpx", "docker", "podman", "uv", "pnpm", "yarn", "deno", "dotnet":
		return base
	}
	return ""
}

// silentHint is what a request's timeout adds about a server that wrote nothing at all:
// the likely cause and the flag, "" when the server spoke or the watch said nothing.
func (c *Client) silentHint() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.heard.Load() || c.tr != nil:
		return ""
	case c.silenceSaid[1] && !c.writeCL:
		return "a server framed LSP-style waits silently for a header (run again with --framing content-length), or one whose stdout is block-buffered holds its answer (python -u, PYTHONUNBUFFERED=1)"
	case c.silenceSaid[0]:
		return "it never read its stdin (still starting?)"
	}
	return ""
}

// BufferedNote starts the note about a server whose answers came only when its stdin
// closed: its stdout is block-buffered on a pipe.
const BufferedNote = "buffered stdout: "

// flushedAtExitLocked says, once, that a response came only after the server's stdin was
// closed (event seq): the server holds its stdout in a buffer a pipe does not flush.
func (c *Client) flushedAtExitLocked(seq uint64) {
	if c.flushSaid {
		return
	}
	c.flushSaid = true
	c.noteLocked(fmt.Sprintf(BufferedNote+"the server's answer (event #%d) came only once its stdin was closed: its stdout is likely block-buffered on a pipe and flushed at exit; flush after each message (%s)", seq, flushFixes))
}

// flushFixes names the fix for block-buffered stdout per language.
const flushFixes = "Python: python -u or PYTHONUNBUFFERED=1, print(..., flush=True); C: setvbuf(stdout, NULL, _IOLBF, 0) or fflush(stdout); Node: write with process.stdout.write, not a buffered logger"
