package check

import (
	"fmt"
	"slices"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// hygieneRule is the rule a frame problem code breaks, "" for none of the hygiene rules.
func hygieneRule(code mcpclient.ProblemCode) string {
	switch code {
	case mcpclient.CodeNotJSON, mcpclient.CodeNotJSONRPC, mcpclient.CodeEmpty, mcpclient.CodePartial,
		mcpclient.CodeNoNewline, mcpclient.CodeLSPFraming, mcpclient.CodeMultiline:
		return "stdout-jsonrpc"
	case mcpclient.CodeBOM, mcpclient.CodeInvalidUTF8, mcpclient.CodeUnpairedSurrogate:
		return "stdout-utf8"
	case mcpclient.CodeCRLF:
		return "stdout-crlf"
	case mcpclient.CodeJSONRPCVersion, mcpclient.CodeBadID, mcpclient.CodeNullID, mcpclient.CodeBadMethod,
		mcpclient.CodeMixed, mcpclient.CodeNoID, mcpclient.CodeResultAndError, mcpclient.CodeBadError,
		mcpclient.CodeUnknownID, mcpclient.CodeIDTypeMismatch, mcpclient.CodeDuplicateResponse:
		return "envelope"
	}
	return ""
}

// hygiene checks every frame every session read from the server against the stdout and
// envelope rules, leaving out the answers to the raw probes (their own rules judge them).
func (r *run) hygiene() {
	type key struct {
		rule string
		code mcpclient.ProblemCode
	}
	var order []key
	byKey := map[key][]Event{}
	text := map[key]string{}
	frames := 0
	for _, w := range r.wires {
		for _, ev := range w.all() {
			if ev.Dir != mcpclient.ServerToClient {
				continue
			}
			frames++
			if r.rawAnswer(w, ev) {
				continue
			}
			for _, p := range ev.Problems {
				rule := hygieneRule(p.Code)
				if rule == "" {
					continue
				}
				k := key{rule, p.Code}
				if _, seen := byKey[k]; !seen {
					order = append(order, k)
					text[k] = p.Text
				}
				byKey[k] = append(byKey[k], w.ev(ev.Seq)...)
			}
		}
	}
	for _, k := range order {
		level := r.results[k.rule].Level
		evs := byKey[k]
		what := fmt.Sprintf("%d frame", len(evs))
		if len(evs) != 1 {
			what += "s"
		}
		r.find(k.rule, level, evs, "%s %s; first: %s", what, k.code, text[k])
	}
	for _, id := range []string{"stdout-jsonrpc", "stdout-utf8", "stdout-crlf", "envelope"} {
		if frames == 0 {
			r.na(id, "the server wrote no frame")
			continue
		}
		if !slices.ContainsFunc(order, func(k key) bool { return k.rule == id }) {
			r.note(id, nil, "%d frames read from the server in %d sessions", frames, len(r.wires))
		}
	}
}

// rawAnswer reports whether ev answers one of the raw probes (a string id, id 0, or the
// -32700 to the line that is not JSON).
func (r *run) rawAnswer(w *wire, ev mcpclient.Event) bool {
	if w != r.main || ev.Msg == nil {
		return false
	}
	return r.rawIDs[idValue(ev.Msg.ID)]
}

// idValue is an id's value whatever its JSON type: `"0"` and `0` both give "0", null "null".
func idValue(raw []byte) string {
	s := string(raw)
	if len(s) >= 2 && s[0] == '"' {
		return s[1 : len(s)-1]
	}
	if s == "" {
		return "null"
	}
	return s
}
