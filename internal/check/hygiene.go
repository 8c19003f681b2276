package check

import (
	"fmt"
	"slices"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// hygieneRule is the rule a frame problem code breaks, "" for none of the hygiene rules,
// and the level of the finding (the rule's own, but SHOULD for the wire-other codes whose
// rule the spec words as SHOULD or advice).
func hygieneRule(code mcpclient.ProblemCode) (string, Level) {
	switch code {
	case mcpclient.CodeBatch, mcpclient.CodeEmptyBatch, mcpclient.CodeIDReused, mcpclient.CodeModernServerRequest,
		mcpclient.CodeTaskNotDeclared, mcpclient.CodeTaskUnsupportedMethod:
		return "wire-other", Must
	case mcpclient.CodeUnknownNotification, mcpclient.CodeBadProgress, mcpclient.CodeUnknownProgressToken,
		mcpclient.CodeCapabilityNotAdvertised:
		return "wire-other", Should
	}
	return frameRule(code), ""
}

// frameRule is the stdout or envelope rule a frame problem code breaks, "" for none.
func frameRule(code mcpclient.ProblemCode) string {
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
	levels := map[key]Level{}
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
			if w.name == SessionDiscover && ev.Kind == mcpclient.KindErrorResponse {
				// A legacy server's refusal of the probe (over HTTP often a 400 whose body
				// says id null): how it says no is not judged, only that it did.
				continue
			}
			for _, p := range ev.Problems {
				rule, level := hygieneRule(p.Code)
				if rule == "" || p.Severity != mcpclient.Warning && rule != "stdout-crlf" {
					continue
				}
				k := key{rule, p.Code}
				if _, seen := byKey[k]; !seen {
					order = append(order, k)
					text[k] = p.Text
					if level != "" {
						levels[k] = level
					}
				}
				byKey[k] = append(byKey[k], w.ev(ev.Seq)...)
			}
		}
	}
	for _, k := range order {
		level := r.results[k.rule].Level
		if l, ok := levels[k]; ok {
			level = l
		}
		evs := byKey[k]
		what := fmt.Sprintf("%d frame", len(evs))
		if len(evs) != 1 {
			what += "s"
		}
		r.find(k.rule, level, evs, "%s %s; first: %s", what, k.code, text[k])
	}
	for _, id := range []string{"stdout-jsonrpc", "stdout-utf8", "stdout-crlf", "envelope", "wire-other"} {
		if frames == 0 {
			r.na(id, "the server sent no message")
			continue
		}
		if !slices.ContainsFunc(order, func(k key) bool { return k.rule == id }) {
			r.note(id, nil, "%d frames read from the server in %d sessions", frames, len(r.wires))
		}
	}
}

// rawAnswer reports whether ev is the answer to one of the raw probes (a string id, id 0,
// or the -32700 to the line that is not JSON), which the client could not pair.
func (r *run) rawAnswer(w *wire, ev mcpclient.Event) bool {
	return w == r.main && r.rawAnswers[ev.Seq]
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
