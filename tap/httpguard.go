package tap

// Who may use the HTTP tap: each request head is checked by the listener's guard
// (internal/listenguard: Host and Origin against DNS rebinding, the per-run token) before
// its body is read or anything reaches the upstream. A refused request gets the guard's
// 403 or 401 and a note in the trace, so that whoever watches the tap sees why a host
// failed; an accepted one goes upstream without the guard's token, Host set to the
// upstream's.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/listenguard"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// maxRefusedNotes is how many refusals the trace notes one by one; after that they are
// counted, and the count is noted when the tap ends (a flood of refused requests must not
// fill the trace).
const maxRefusedNotes = 50

// maxRefusedBody is the longest body of a refused request the tap reads and drops to keep
// the connection; a longer one, or a chunked one, ends the connection instead.
const maxRefusedBody = 64 << 10

// guardRequest is what the guard looks at in the request head rh.
func guardRequest(rh *head) *listenguard.Request {
	r := &listenguard.Request{Origin: rh.origin, Token: rh.token, Authorization: rh.auth}
	r.Host = strings.Join(rh.hosts, ", ") // two Host headers are refused, as neither
	target := requestTarget(rh.first)
	if i := strings.Index(target, "://"); i >= 0 {
		// Absolute form (RFC 9112 §3.2.2): the target's authority is the request's host.
		auth := target[i+3:]
		if j := strings.IndexAny(auth, "/?#"); j >= 0 {
			auth = auth[:j]
		}
		r.Host = auth
	}
	if _, q, ok := strings.Cut(target, "?"); ok {
		r.RawQuery = q
	}
	return r
}

// requestTarget is the target of a request line ("POST /mcp?x=1 HTTP/1.1": "/mcp?x=1").
func requestTarget(first string) string {
	_, rest, _ := strings.Cut(first, " ")
	target, _, _ := strings.Cut(rest, " ")
	return target
}

// refuse answers a request the guard refused and notes it; keep reports whether the
// connection can carry another request (the body was read and dropped).
func (t *httpTap) refuse(br *bufio.Reader, cw *bufio.Writer, rh *head, ref *listenguard.Refusal) (keep bool) {
	keep = !rh.closeConn && !rh.expectContinue && !rh.chunked && rh.contentLength <= maxRefusedBody
	if keep && rh.contentLength > 0 {
		if _, err := io.CopyN(io.Discard, br, rh.contentLength); err != nil {
			keep = false
		}
	}
	_, _ = cw.Write(ref.Response(!keep))
	_ = cw.Flush()
	n := t.refused.Add(1)
	if n > maxRefusedNotes {
		return keep
	}
	method, _, _ := strings.Cut(rh.first, " ")
	path, _, _ := strings.Cut(requestTarget(rh.first), "?") // the query may hold a token
	text := fmt.Sprintf("refused %s %s with %d: %s", method, path, ref.Status, ref.Reason)
	if n == maxRefusedNotes {
		text += fmt.Sprintf("; further refusals are counted, not noted (the first %d are)", maxRefusedNotes)
	}
	t.s.log.Info("http tap refused a request", "method", method, "path", path, "status", ref.Status, "why", ref.Reason)
	t.life(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: text})
	return keep
}

// refusedTotal notes, when the tap ends, how many requests were refused beyond those
// noted one by one.
func (t *httpTap) refusedTotal() {
	if n := t.refused.Load(); n > maxRefusedNotes {
		t.life(mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: fmt.Sprintf("%d requests were refused in all", n)})
	}
}

// outHead is the head of an accepted request as it goes upstream: Host set to the
// upstream's, and the guard's token taken out wherever it came (the token query
// parameter, the Mcp-Inspect-Token header, an Authorization: Bearer holding it); every
// other byte as sent.
func (t *httpTap) outHead(rh *head) []byte {
	g := t.guard
	if !g.TokenRequired() {
		return withHost(rh.raw, t.up.Host)
	}
	target := requestTarget(rh.first)
	path, query, hasQuery := strings.Cut(target, "?")
	newTarget := ""
	if q, changed := g.StripQuery(query); hasQuery && changed {
		newTarget = path
		if q != "" {
			newTarget += "?" + q
		}
	}
	tokenAuth := false
	for _, a := range rh.auth {
		tokenAuth = tokenAuth || g.BearerIsToken(a)
	}
	if newTarget == "" && len(rh.token) == 0 && !tokenAuth {
		return withHost(rh.raw, t.up.Host)
	}
	out := make([]byte, 0, len(rh.raw)+len(t.up.Host))
	i := bytes.IndexByte(rh.raw, '\n') + 1
	first := rh.raw[:i]
	if newTarget != "" {
		first = []byte(strings.Replace(string(first), " "+target+" ", " "+newTarget+" ", 1))
	}
	out = append(out, first...)
	for i < len(rh.raw) {
		j := bytes.IndexByte(rh.raw[i:], '\n')
		if j < 0 {
			out = append(out, rh.raw[i:]...)
			break
		}
		line := rh.raw[i : i+j+1]
		i += j + 1
		name, value, _ := bytes.Cut(line, []byte(":"))
		name, value = bytes.TrimSpace(name), bytes.TrimSpace(value)
		switch {
		case asciiEqualFold(name, "mcp-inspect-token"):
			continue
		case asciiEqualFold(name, "authorization") && g.BearerIsToken(string(value)):
			continue
		case asciiEqualFold(name, "host"):
			out = append(append(append(out, "Host: "...), t.up.Host...), "\r\n"...)
			continue
		}
		out = append(out, line...)
	}
	return out
}
