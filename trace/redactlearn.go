package trace

import (
	"bytes"
	"sort"
)

// Learn adds the credentials an outgoing HTTP head carries to the secrets scrubbed from then
// on: the values of its credential headers (see CredentialHeader) and the token of an
// Authorization value alone. mcp-inspect does not know beforehand every credential it will
// send: a token the OAuth flow obtains, or refreshes, is first seen here, on its way out,
// before any echo of it can come back from the server (issue 26). It is safe to call
// beside Bytes; a credential already known costs a lookup.
func (r *Redactor) Learn(head []byte) {
	if r == nil {
		return
	}
	end := bytes.Index(head, []byte("\r\n\r\n"))
	if end < 0 {
		end = len(head)
	}
	var found []secretValue
	for start := 0; start < end; {
		lineEnd, next := end, end
		if nl := bytes.IndexByte(head[start:end], '\n'); nl >= 0 {
			lineEnd, next = start+nl, start+nl+1
		}
		line := head[start:lineEnd]
		start = next
		nameEnd, valStart, valEnd, ok := headerLine(line)
		if !ok || valEnd <= valStart || !credentialHeader(line[:nameEnd]) {
			continue
		}
		name, v := string(line[:nameEnd]), line[valStart:valEnd]
		if sp := bytes.IndexByte(v, ' '); sp > 0 {
			// "Bearer TOKEN": the token alone, so the scheme stays readable where it is
			// shown (HTTPHead keeps it too).
			found = append(found, secretValue{name + " token", string(bytes.TrimSpace(v[sp+1:]))})
			continue
		}
		found = append(found, secretValue{name, string(v)})
	}
	for _, f := range found {
		r.learn(f.name, f.value)
	}
}

// secretValue is a credential found in a head, by the header it came in.
type secretValue struct{ name, value string }

// learn adds value (named by name) to the secrets scrubbed, unless it is known or too short.
func (r *Redactor) learn(name, value string) {
	if len(value) < MinScrubLen {
		return
	}
	r.mu.RLock()
	known := r.learned[value]
	r.mu.RUnlock()
	if known {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.learned[value] {
		return
	}
	if r.learned == nil {
		r.learned = map[string]bool{}
	}
	r.learned[value] = true
	for _, s := range r.secrets {
		if string(s.value) == value {
			return // given on the command line: scrubbed already
		}
	}
	r.items = append(r.items, RedactedItem{Kind: "learned", Name: name, Note: "a credential mcp-inspect sent (an OAuth token, say), scrubbed from its first use on"})
	r.addSecret("learned "+name, value) // which registers its clues too
	r.clues.build()
	sort.SliceStable(r.secrets, func(i, j int) bool { return len(r.secrets[i].value) > len(r.secrets[j].value) })
}
