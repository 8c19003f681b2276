package ui

import (
	"bytes"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The panes mask the session's secrets (the -e and profile values, tokens, credentials in
// the URL, an OAuth token once sent: the recording's redactor) where they draw server text,
// as the trace does, so a shared screen does not show what a server echoes back (issue 26:
// server-everything's get-env tool prints the environment). The reveal key shows them as
// received, and hides them again; --no-redact starts revealed. The bytes themselves are
// never changed: W and alt+y still save and copy them exactly.

// masking reports whether the panes mask secrets now: there is a redactor (a live session
// recorded with redaction; an opened trace was masked when recorded) and nothing revealed.
func (c *common) masking() bool { return c.redact != nil && !c.reveal }

// maskBytes is b as the panes show it: secrets masked while masking, else b itself.
func (c *common) maskBytes(b []byte) []byte {
	if !c.masking() || len(b) == 0 {
		return b
	}
	return c.redact(b)
}

// maskText is maskBytes for a string.
func (c *common) maskText(s string) string {
	if !c.masking() || s == "" {
		return s
	}
	out := c.redact([]byte(s))
	if bytes.Equal(out, []byte(s)) {
		return s
	}
	return string(out)
}

// toggleReveal shows the secrets on screen, or masks them again, and says which.
func (m *model) toggleReveal() {
	if m.c.redact == nil {
		m.note("info", "nothing to reveal: this session's frames are shown as recorded (an opened trace was masked when it was written; --no-redact shows everything)")
		return
	}
	m.c.reveal = !m.c.reveal
	m.tl.showCreds = m.c.reveal
	m.tl.maskedDetail = maskedFrame{}
	m.call.render() // the Call pane keeps its result's lines: draw them again
	if m.c.reveal {
		m.note("warning", "secrets shown on screen as received ("+m.c.keys.Global.Reveal.Help().Key+" masks them again)")
		return
	}
	m.note("info", "secrets masked on screen, as in the trace ("+m.c.keys.Global.Reveal.Help().Key+" shows them)")
}

// maskedFrame caches the masked bytes of the one frame the Wire pane's detail draws, so a
// large frame is not scanned again on every redraw.
type maskedFrame struct {
	seq    uint64
	limit  int
	raw    []byte
	masked bool
}

// maskResult is res with the secrets in its text masked by mask (the text and resource
// text of its content blocks, an unknown block's JSON, its structuredContent); res itself
// when nothing changed.
func maskResult(res *mcpclient.CallToolResult, mask func([]byte) []byte) *mcpclient.CallToolResult {
	if res == nil {
		return nil
	}
	out := *res
	changed := false
	text := func(s string) string {
		m := mask([]byte(s))
		if bytes.Equal(m, []byte(s)) {
			return s
		}
		changed = true
		return string(m)
	}
	out.Content = make([]mcpclient.ContentBlock, len(res.Content))
	for i, b := range res.Content {
		b.Text = text(b.Text)
		if b.Resource != nil {
			r := *b.Resource
			r.Text = text(r.Text)
			b.Resource = &r
		}
		if len(b.Raw) > 0 && b.Type != "text" && b.Type != "image" && b.Type != "audio" {
			b.Raw = []byte(text(string(b.Raw)))
		}
		out.Content[i] = b
	}
	if len(res.StructuredContent) > 0 {
		out.StructuredContent = []byte(text(string(res.StructuredContent)))
	}
	if !changed {
		return res
	}
	return &out
}
