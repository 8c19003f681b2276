package trace

import (
	"bytes"
	"strings"
)

// HTTPHead masks the values of credential headers in an HTTP request or response head
// (an event of direction HTTPOut or HTTPIn; the body after the blank line is left to Bytes).
// A header line is a token name at the start of a line, optional blanks, a colon, optional
// blanks and the value up to CR or LF; the value of a credential header (see
// CredentialHeader) becomes Mask, keeping the scheme of an Authorization value. It reports
// whether it changed something; b itself is never modified.
//
// It scans bytes rather than using a regexp: it runs on every HTTP event of a trace
// (heads, bodies, SSE frames), where a regexp cost the HTTP tap most of its recording time.
func HTTPHead(b []byte) ([]byte, bool) {
	end := bytes.Index(b, []byte("\r\n\r\n"))
	if end < 0 {
		end = len(b)
	}
	head := b[:end]
	var out []byte // nil until a value is masked
	done := 0      // head[:done] is already in out
	if first, ok := requestQuery(head); ok {
		// A request line whose target carries a credential in its query (?api_key=…):
		// masked whatever its length, as the -H header it stands for would be.
		out, done = append(out, first...), bytes.IndexByte(head, '\n')
		if done < 0 {
			done = len(head)
		}
	}
	for start := 0; start < len(head); {
		lineEnd, next := len(head), len(head)
		if nl := bytes.IndexByte(head[start:], '\n'); nl >= 0 {
			lineEnd, next = start+nl, start+nl+1
		}
		line := head[start:lineEnd]
		if nameEnd, valStart, valEnd, ok := headerLine(line); ok && valEnd > valStart {
			name := line[:nameEnd]
			if credentialHeader(name) {
				v := line[valStart:valEnd]
				out = append(out, head[done:start+valStart]...)
				// Keep the scheme of an Authorization value (Bearer, Basic): it helps debugging.
				if sp := bytes.IndexByte(v, ' '); sp > 0 && (bytes.EqualFold(name, []byte("authorization")) || bytes.EqualFold(name, []byte("proxy-authorization"))) {
					out = append(out, v[:sp+1]...)
				}
				out = append(out, Mask...)
				done = start + valEnd
			}
		}
		start = next
	}
	if out == nil {
		return b, false
	}
	return append(out, b[done:]...), true
}

// headerLine splits one line (no LF) as a header: the name is line[:nameEnd], the value
// line[valStart:valEnd] (up to a CR). ok is false when the line is not a header.
func headerLine(line []byte) (nameEnd, valStart, valEnd int, ok bool) {
	for nameEnd < len(line) && tokenByte(line[nameEnd]) {
		nameEnd++
	}
	if nameEnd == 0 {
		return 0, 0, 0, false
	}
	i := nameEnd
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i == len(line) || line[i] != ':' {
		return 0, 0, 0, false
	}
	i++
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	valEnd = i
	for valEnd < len(line) && line[valEnd] != '\r' {
		valEnd++
	}
	return nameEnd, i, valEnd, true
}

// tokenByte reports whether c may appear in a header name (RFC 9110 tchar).
func tokenByte(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_|~", c) >= 0
}

// requestQuery returns the first line of head (a request line, up to its LF) with the
// values of its target's secret-named query parameters masked; ok is false when there are
// none (a response head, a target without a query, no such parameter).
func requestQuery(head []byte) ([]byte, bool) {
	line := head
	if nl := bytes.IndexByte(head, '\n'); nl >= 0 {
		line = head[:nl]
	}
	q := bytes.IndexByte(line, '?')
	if q < 0 || bytes.HasPrefix(line, []byte("HTTP/")) {
		return nil, false
	}
	out, changed := maskQuery(string(line), nil)
	return []byte(out), changed
}
