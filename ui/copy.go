package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/internal/repeatcmd"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// copyKind is what a copy key copies (issue 16): the frame's bytes, its parsed message
// indented, a call's result, or a shell line that repeats the request.
type copyKind int

const (
	copyFrame copyKind = iota
	copyExact
	copyParsed
	copyResult
	copyCommand
)

// clipboardFile is the copy's file fallback in the state directory: a terminal without
// OSC 52 (or with it turned off, as tmux's default set-clipboard external is in some
// setups) still leaves the text somewhere the user can cat. Each copy replaces it.
const clipboardFile = "clipboard.txt"

// osc52Max is the longest text a copy sends to the terminal's clipboard (OSC 52), in
// bytes. Terminals cap the sequence (kitty near 6 MB of base64, Ghostty 32 MB, some
// multiplexers 200 KB) and drop a longer one without a word, while sending it costs its
// base64 twice over in memory (a 100 MB copy peaked at 8x the result): a longer copy goes
// to the system clipboard and the file, and the note says why not to the terminal.
const osc52Max = 8 << 20

// copiedMsg reports a copy: text goes to the clipboard (OSC 52); system names what else
// took it (Options.SystemClipboard: pbcopy on macOS, the Windows clipboard; "" for none);
// path is the file fallback ("" when there is no state directory or it could not be
// written: fileErr).
type copiedMsg struct {
	what string
	text string
	// size is the copy's length; over osc52Max the copy is fileOnly: text is "" and only
	// the file (path) holds it.
	size     int
	fileOnly bool
	system   string
	path     string
	fileErr  error
	// err is why nothing was copied (text is then empty).
	err error
}

// copyKeyKind maps a key to what it copies; inCall: y copies the shown call's result.
func (c *common) copyKeyKind(msg tea.KeyPressMsg, inCall bool) (copyKind, bool) {
	k := c.keys.Detail
	switch {
	case key.Matches(msg, k.Copy) && inCall:
		return copyResult, true
	case key.Matches(msg, k.Copy):
		return copyFrame, true
	case key.Matches(msg, k.CopyParsed):
		return copyParsed, true
	case key.Matches(msg, k.CopyExact):
		return copyExact, true
	case key.Matches(msg, k.CopyCommand):
		return copyCommand, true
	}
	return 0, false
}

// copyEvent copies what kind asks of the event at position i of tl. The bytes are
// masked through the session's redactor unless kind is copyExact; the masking, the
// formatting and the file fallback run in the returned Cmd (no I/O in Update).
func (c *common) copyEvent(tl *timeline, i int, kind copyKind) tea.Cmd {
	fail := func(err error) tea.Cmd { return func() tea.Msg { return copiedMsg{err: err} } }
	e := tl.evs.at(i)
	if e.dir == mcpclient.Lifecycle {
		return fail(errors.New("a lifecycle event has no frame to copy"))
	}
	seq := e.seq
	if kind == copyCommand && e.kind != mcpclient.KindRequest {
		// A response repeats the request it answers.
		j, ok := tl.index(tl.pairOf(e))
		if e.pair == 0 || !ok || tl.evs.at(j).kind != mcpclient.KindRequest {
			return fail(fmt.Errorf("frame #%d is not a request and answers none", seq))
		}
		i, seq = j, tl.pairOf(e)
	}
	raw, loaded := tl.rawAt(i)
	if !loaded {
		return fail(fmt.Errorf("frame #%d is still loading from the trace: press again", seq))
	}
	redact, dir, sysClip, target := c.redact, c.hist.dir, c.sysClip, repeatcmd.Target{}
	if kind == copyCommand && c.target != nil {
		target = c.target()
	}
	return func() tea.Msg {
		b := raw
		if redact != nil && kind != copyExact {
			b = redact(raw)
		}
		if len(bytes.TrimRight(b, "\r\n")) > osc52Max && kind != copyCommand {
			msg := bigCopy(b, seq, kind, dir, sysClip)
			if redact != nil && kind != copyExact {
				msg.what += ", secrets masked"
			}
			return msg
		}
		what, text, err := copyText(b, seq, kind, target)
		if redact != nil && kind != copyExact {
			what += ", secrets masked"
		}
		if err != nil {
			return copiedMsg{err: err}
		}
		return keepCopy(what, text, dir, sysClip)
	}
}

// copyText is the text a copy of frame b (#seq) gives, and its name for the status line.
func copyText(b []byte, seq uint64, kind copyKind, target repeatcmd.Target) (what, text string, err error) {
	b = bytes.TrimRight(b, "\r\n")
	switch kind {
	case copyFrame:
		return fmt.Sprintf("frame #%d (%s", seq, humanSize(int64(len(b)))), string(b), nil
	case copyExact:
		return fmt.Sprintf("frame #%d (%s, exact bytes, secrets included", seq, humanSize(int64(len(b)))), string(b), nil
	case copyParsed:
		out, ok := jsontext.Indent(b)
		if !ok {
			return "", "", fmt.Errorf("frame #%d is not a JSON message (y copies its bytes)", seq)
		}
		return fmt.Sprintf("message #%d (%s", seq, humanSize(int64(len(out)))), out, nil
	case copyResult:
		part, name := resultPart(b)
		out, ok := jsontext.Indent(part)
		if part == nil || !ok {
			return "", "", fmt.Errorf("frame #%d holds no result", seq)
		}
		return fmt.Sprintf("the %s of #%d (%s", name, seq, humanSize(int64(len(out)))), out, nil
	}
	line, err := repeatcmd.Inspect(b, target)
	if err != nil {
		return "", "", fmt.Errorf("frame #%d: %w", seq, err)
	}
	what = fmt.Sprintf("a command repeating #%d (mcp-inspect", seq)
	if curl, ok := repeatcmd.Curl(b, target); ok {
		line += "\n" + curl
		what += " and curl lines"
	} else {
		what += " line"
	}
	return what, line + "\n", nil
}

// resultPart is the result of response frame b, or its error (name says which); nil
// when b is neither. It is a slice of b.
func resultPart(b []byte) (part []byte, name string) {
	var m struct {
		Result rawSpan `json:"result"`
		Error  rawSpan `json:"error"`
	}
	if json.Unmarshal(b, &m) != nil {
		return nil, "result"
	}
	if m.Result == nil {
		return m.Error, "error"
	}
	return m.Result, "result"
}

// bigCopy copies what kind asks of frame b (#seq), longer than the terminal's clipboard
// takes (osc52Max), straight into the file fallback in dir, indenting as it writes: a
// 100 MB result costs no copy of itself (issue 26: y peaked at 8x). The copy is fileOnly;
// the system clipboard (sysClip, nil for none), which takes a string, gets one made for
// it. It does I/O: call it from a tea.Cmd.
func bigCopy(b []byte, seq uint64, kind copyKind, dir string, sysClip func(string) (string, error)) copiedMsg {
	b = bytes.TrimRight(b, "\r\n")
	write := func(w io.Writer) error { _, err := w.Write(b); return err }
	var what string
	switch kind {
	case copyExact:
		what = fmt.Sprintf("frame #%d (%%s, exact bytes, secrets included", seq)
	case copyParsed, copyResult:
		part, name := b, ""
		if kind == copyResult {
			part, name = resultPart(b)
			if part == nil {
				return copiedMsg{err: fmt.Errorf("frame #%d holds no result", seq)}
			}
			what = fmt.Sprintf("the %s of #%d (%%s", name, seq)
		} else {
			what = fmt.Sprintf("message #%d (%%s", seq)
		}
		if !json.Valid(part) {
			return copiedMsg{err: fmt.Errorf("frame #%d is not a JSON message (y copies its bytes)", seq)}
		}
		write = func(w io.Writer) error { _, err := jsontext.WriteIndent(w, part); return err }
	default:
		what = fmt.Sprintf("frame #%d (%%s", seq)
	}
	msg := copiedMsg{fileOnly: true}
	if sysClip != nil {
		var sb strings.Builder
		sb.Grow(len(b) + len(b)/4)
		if err := write(&sb); err == nil {
			if via, err := sysClip(sb.String()); err == nil {
				msg.system = via
			}
		}
	}
	if dir == "" {
		msg.size = len(b)
		msg.what = fmt.Sprintf(what, humanSize(int64(len(b))))
		return msg
	}
	n := &countingWriter{}
	msg.path, msg.fileErr = writeClipboardFileWith(dir, func(w io.Writer) error {
		n.w = w
		return write(n)
	})
	msg.size = int(n.n)
	msg.what = fmt.Sprintf(what, humanSize(n.n))
	return msg
}

// countingWriter counts what goes through it to w.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	k, err := c.w.Write(p)
	c.n += int64(k)
	return k, err
}

// keepCopy puts a copy where the terminal's clipboard may not reach: the system clipboard
// (sysClip, nil for none) and the file fallback in dir. It does I/O: call it from a
// tea.Cmd.
func keepCopy(what, text, dir string, sysClip func(string) (string, error)) copiedMsg {
	msg := copiedMsg{what: what, text: text, size: len(text)}
	if len(text) > osc52Max {
		msg.text, msg.fileOnly = "", true // not sent to the terminal: not held either
	}
	if sysClip != nil {
		if via, err := sysClip(text); err == nil {
			msg.system = via
		}
	}
	if dir != "" {
		msg.path, msg.fileErr = writeClipboardFile(dir, text)
	}
	return msg
}

// writeClipboardFile writes text to clipboard.txt in dir (0600: an exact copy can hold
// secrets) and returns its absolute path.
func writeClipboardFile(dir, text string) (string, error) {
	return writeClipboardFileWith(dir, func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	})
}

// writeClipboardFileWith is writeClipboardFile with the contents written by write.
func writeClipboardFileWith(dir string, write func(io.Writer) error) (string, error) {
	if err := platform.MkdirPrivate(dir); err != nil {
		return "", err
	}
	path := filepath.Join(dir, clipboardFile)
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	// A new file renamed over the old one, never written through a symlink.
	f, err := platform.CreatePrivate(path, true)
	if err != nil {
		return "", err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	return path, nil
}

// copied puts a copy on the clipboard (OSC 52: tea.SetClipboard, which reaches the local
// terminal over SSH and through tmux with set-clipboard on) and says where it went.
func (m *model) copied(msg copiedMsg) tea.Cmd {
	if msg.err != nil {
		m.note("warning", "nothing copied: "+msg.err.Error())
		return nil
	}
	if msg.fileOnly {
		return m.copiedTooBig(msg)
	}
	text := "copied " + msg.what + ") to the clipboard (OSC 52"
	if msg.system != "" {
		text += " and " + msg.system
	}
	text += ")"
	switch {
	case msg.path != "":
		text += " and " + msg.path
	case msg.fileErr != nil:
		text += "; the file copy failed: " + msg.fileErr.Error()
	}
	m.note("info", text)
	return tea.SetClipboard(msg.text)
}

// copiedTooBig reports a copy longer than osc52Max, which the terminal's clipboard was not
// sent: where it went instead, or that it went nowhere.
func (m *model) copiedTooBig(msg copiedMsg) tea.Cmd {
	why := fmt.Sprintf("over %s, too big for the terminal's clipboard (OSC 52)", humanSize(osc52Max))
	var to []string
	if msg.system != "" {
		to = append(to, msg.system)
	}
	if msg.path != "" {
		to = append(to, msg.path)
	}
	if len(to) == 0 {
		text := "nothing copied: " + msg.what + ") is " + why
		if msg.fileErr != nil {
			text += ", and the file copy failed: " + msg.fileErr.Error()
		}
		m.note("warning", text+"; "+m.c.keys.Detail.Save.Help().Key+" saves it to a file")
		return nil
	}
	m.note("info", "copied "+msg.what+") to "+strings.Join(to, " and ")+"; not to the terminal's clipboard: "+why)
	return nil
}

// repeatTarget is the server "copy as command" lines talk to.
func (m *model) repeatTarget() repeatcmd.Target {
	t := repeatcmd.Target{Argv: m.launch.argv, EnvKeys: m.launch.envKeys, Headers: m.launch.headers, SessionID: m.state().SessionID, Quoting: m.launch.quoting}
	if m.state().Init != nil {
		t.ProtocolVersion = m.state().Init.ProtocolVersion
	}
	return t
}

// copy copies from the shown call: its response, or while none came its request (C
// repeats a call that is still running).
func (p *callPane) copy(msg tea.KeyPressMsg) tea.Cmd {
	seq := p.shownRespSeq()
	if r := p.run; seq == 0 && r != nil {
		seq = r.reqSeq
	}
	i, ok := p.tl.index(seq)
	if seq == 0 || !ok {
		return func() tea.Msg { return copiedMsg{err: errors.New("no call shown")} }
	}
	kind, _ := p.c.copyKeyKind(msg, true)
	return p.c.copyEvent(p.tl, i, kind)
}

// rawSpan is a JSON value kept as the slice of the input it spans, not copied as
// json.RawMessage copies it: copyText indents a 100 MB result straight from the frame
// (issue 26). Valid only while the input is.
type rawSpan []byte

func (r *rawSpan) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}
