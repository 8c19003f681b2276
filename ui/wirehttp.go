package ui

// The wire rows and details of HTTP events that are not messages: content-encoded bodies
// and SSE frames without data.

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/httpauth"
	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// encodedSummary is the wire row of a content-encoded body as received: the coding and the
// sizes as received and decoded ("gzip 1.2K → 4.5K"), or why it did not decode.
func encodedSummary(e *mcpclient.Encoding, size int64) string {
	if e == nil {
		return "content-encoded body"
	}
	s := mcpclient.EncodedNote(clean(e.Coding), size, e.Decoded) + " as received"
	if e.Err != "" {
		s = clean(e.Coding) + " body that mcp-inspect did not decode"
	}
	return s
}

// encodedLines are the detail of a content-encoded body: how it decodes, the bytes as
// received (a hex dump: they are binary), and the decoded text (limit bytes of each),
// its credentials masked by mask as the wire masks a plain body's.
func encodedLines(st *themes.Styles, ev *mcpclient.Event, limit, w int, mask func([]byte) []byte) []string {
	var out []string
	add := func(lines ...string) { out = append(out, lines...) }
	coding := ""
	if e := ev.Encoding; e != nil {
		coding = e.Coding
		add("", st.Title.Render("content encoding"))
		add(wrapStyled(st.Base, encodedSummary(e, ev.Size), w)...)
		if e.Err != "" {
			add(wrapStyled(st.Error, clean(e.Err), w)...)
		}
	}
	raw := ev.Raw
	add("", st.Title.Render("raw bytes")+st.Muted.Render("  (as received, hex)"))
	if len(raw) == 0 && ev.Size > 0 {
		add(wrapStyled(st.Warning, "not kept in the trace (the decoded body held a secret; it is redacted there)", w)...)
	}
	dump := hex.Dump(raw[:min(len(raw), limit)])
	for _, l := range strings.Split(strings.TrimRight(dump, "\n"), "\n") {
		if l != "" {
			add(fit(clean(l), w))
		}
	}
	if more := ev.Size - int64(min(len(raw), limit)); more > 0 {
		add(st.Muted.Render("… " + jsontext.Count(int(more), "byte", "bytes") + " more not shown"))
	}
	if len(raw) == 0 {
		return out
	}
	plain, err := mcpclient.DecodeBytes(coding, raw, int64(limit))
	add("", st.Title.Render("decoded")+st.Muted.Render("  (also the http body or sse frames beside this event, and the messages in them)"))
	if err != nil {
		add(wrapStyled(st.Error, clean(err.Error()), w)...)
	}
	for _, l := range strings.Split(string(mask(plain)), "\n") {
		add(wrap(clean(l), w)...)
	}
	return out
}

// sseLabel names an SSE frame that carries no message, for its wire row: a priming event
// (an id and empty data: a point to resume from, MCP 2025-11-25 basic/transports
// §Resumability), a retry field alone, a comment (a keep-alive); false for other frames,
// whose row is their bytes.
func sseLabel(raw []byte) (string, bool) {
	if len(raw) > 4096 {
		return "", false
	}
	fr, err := mcpclient.NewSSEReader(bytes.NewReader(raw)).Next()
	if err != nil {
		return "", false
	}
	retry := ""
	if fr.HasRetry {
		retry = fmt.Sprintf(", retry %d ms", fr.Retry)
	}
	switch {
	case fr.HasData && fr.Data == "" && fr.HasID:
		return "priming event: id " + clean(fr.ID) + retry + " (a point to resume from)", true
	case !fr.HasData && fr.HasRetry && !fr.HasID:
		return fmt.Sprintf("retry: %d ms (the reconnection delay)", fr.Retry), true
	case !fr.HasData && !fr.HasID && len(fr.Comments) > 0:
		return "comment (keep-alive):" + clean(strings.Join(fr.Comments, " ")), true
	}
	return "", false
}

// challengeLines are the WWW-Authenticate challenges of a response head (an event of kind
// k), parsed (RFC 9110 §11.6.1): a table of each challenge's scheme and parameters under the
// raw header, and what in them deviates from the grammar; none for another kind of event or
// a head without a challenge.
func challengeLines(st *themes.Styles, k mcpclient.Kind, head []byte, w int) []string {
	if k != mcpclient.KindHTTPResponse {
		return nil
	}
	var values []string
	for _, l := range strings.Split(string(head), "\n") {
		name, v, ok := strings.Cut(strings.TrimRight(l, "\r"), ":")
		if ok && strings.EqualFold(strings.TrimSpace(name), "WWW-Authenticate") {
			values = append(values, strings.TrimSpace(v))
		}
	}
	if len(values) == 0 {
		return nil
	}
	cs, warnings := httpauth.Parse(values)
	out := []string{"", st.Title.Render("WWW-Authenticate") + st.Muted.Render("  (parsed, RFC 9110 §11.6.1)")}
	for _, c := range cs {
		out = append(out, fit(st.Accent.Render(clean(c.Scheme)), w))
		if c.Token68 != "" {
			out = append(out, fit("  "+clean(c.Token68), w))
		}
		for _, p := range c.Params {
			out = append(out, wrap("  "+clean(p.Name)+" = "+clean(p.Value), w)...)
		}
	}
	for _, wn := range warnings {
		out = append(out, wrapStyled(st.Warning, "⚠ "+clean(wn), w)...)
	}
	return out
}

// exchangeSummary is the wire row of an HTTP request: its request line and, once its
// response head came, the status and the time to it ("POST /mcp → 200 OK · 45ms").
func (t *timeline) exchangeSummary(i int, raw []byte) string {
	line, _, _ := bytes.Cut(raw, []byte("\r\n"))
	method, rest, _ := bytes.Cut(line, []byte(" "))
	target, _, _ := bytes.Cut(rest, []byte(" "))
	s := clean(string(method) + " " + string(target))
	seq, ok := t.partner(i)
	if !ok {
		return s + " …"
	}
	j, ok := t.index(seq)
	if !ok {
		return s
	}
	head, ok := t.rawAt(j)
	if !ok {
		return s + " → …"
	}
	status, _, _ := bytes.Cut(head, []byte("\r\n"))
	_, code, _ := bytes.Cut(status, []byte(" "))
	took := t.time(j).Sub(t.time(i))
	return s + " → " + clean(string(code)) + " · " + took.Round(time.Millisecond/10).String()
}
