package ui

import (
	"bytes"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// shownRaw is what the wire pane shows of an event's bytes: for an HTTP request or
// response (http> / http<), the values of credential headers (Authorization, Cookie,
// X-Api-Key…) and OAuth codes and tokens masked the way a trace masks them
// (trace.HTTPHead, trace.OAuthCredentials), unless showCreds. masked reports a
// change; raw itself is never modified, and the frame save key writes the exact bytes.
func (t *timeline) shownRaw(dir mcpclient.Direction, raw []byte) (shown []byte, masked bool) {
	if t.showCreds || len(raw) == 0 {
		return raw, false
	}
	out := raw
	if dir == mcpclient.HTTPOut || dir == mcpclient.HTTPIn {
		var a, b bool
		out, a = trace.HTTPHead(out)
		out, b = trace.OAuthCredentials(out)
		masked = a || b
	}
	if t.redact != nil {
		// The session's secrets (-e values, tokens…), as the trace masks them (issue 26).
		if o := t.redact(out); !bytes.Equal(o, out) {
			out, masked = o, true
		}
	}
	return out, masked
}

// shownPrefix is shownRaw for the first n bytes of raw (and a margin), the rest as it is:
// a list row draws far less than a large frame, and is drawn on every redraw.
func (t *timeline) shownPrefix(dir mcpclient.Direction, raw []byte, n int) ([]byte, bool) {
	if n >= len(raw)-detailMaskMargin || t.showCreds || t.redact == nil {
		return t.shownRaw(dir, raw)
	}
	part := raw[:n+detailMaskMargin]
	shown, masked := t.shownRaw(dir, part)
	return append(shown[:len(shown):len(shown)], raw[len(part):]...), masked
}

// rowMaskBytes is how much of a frame a Wire list row masks (shownPrefix): more than a row
// can show.
const rowMaskBytes = 1 << 10

// shownDetail is shownRaw for the frame the detail draws, up to limit bytes of it (with a
// margin, so a secret across the cut is masked whole), cached by seq.
func (t *timeline) shownDetail(seq uint64, dir mcpclient.Direction, raw []byte, limit int) ([]byte, bool) {
	if t.showCreds || t.redact == nil {
		return t.shownRaw(dir, raw)
	}
	if c := t.maskedDetail; c.seq == seq && c.limit == limit && c.raw != nil {
		return c.raw, c.masked
	}
	shown, masked := t.shownPrefix(dir, raw, limit)
	t.maskedDetail = maskedFrame{seq: seq, limit: limit, raw: shown, masked: masked}
	return shown, masked
}

// detailMaskMargin is how far past the bytes drawn the detail masks a large frame: the
// longest secret a session is likely to hold.
const detailMaskMargin = 4 << 10
