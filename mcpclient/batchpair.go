package mcpclient

import (
	"encoding/json"
	"strconv"
)

// batchProblem words the "batch" problem by what the negotiated revision allows (MCP
// 2025-03-26 basic/index added "MUST support receiving JSON-RPC batches"; 2025-06-18's
// changelog removed batching; 2024-11-05 never had it).
func batchProblem(version string, n int) Problem {
	what := "JSON-RPC batch (array) of " + strconv.Itoa(n) + " element(s)"
	switch version {
	case "2025-03-26":
		return Problem{Info, CodeBatch, what + ": allowed in the negotiated MCP 2025-03-26 (basic/index: implementations MUST support receiving batches)"}
	case "":
		return Problem{Warning, CodeBatch, what + " before a protocol version was negotiated: only MCP 2025-03-26 allows batches"}
	case "2024-11-05":
		return Problem{Warning, CodeBatch, what + ": not allowed in the negotiated MCP 2024-11-05 (batches exist only in 2025-03-26)"}
	}
	return Problem{Warning, CodeBatch, what + ": not allowed in the negotiated MCP " + version + " (batching was removed in 2025-06-18; only 2025-03-26 allowed it)"}
}

// addBatch fills in a batch frame's elements: each is classified, its problems found, and
// responses paired with their requests through the same rules as single frames. The batch
// problem the classifier added is reworded by the negotiated protocol version.
func (p *Pairer) addBatch(ev *Event) {
	elems := ClassifyBatch(ev.Raw)
	ev.Batch = &Batch{Elems: elems}
	for i, pr := range ev.Problems {
		if pr.Code == CodeBatch {
			version := p.version
			if p.modern {
				version = "2026-07-28" // the modern era negotiates no initialize version
			}
			ev.Problems[i] = batchProblem(version, len(elems))
		}
	}
	if len(elems) == 0 {
		ev.Problems = append(ev.Problems, Problem{Warning, CodeEmptyBatch, "empty batch: JSON-RPC 2.0 §6 answers [] with a single Invalid Request error"})
	}
	if ev.Dir != ServerToClient {
		return
	}
	answersInit, started := false, false
	for i := range elems {
		answersInit = answersInit || p.answersInit(elems[i].Msg)
		started = started || initiated(elems[i].Msg)
	}
	if pr, early := p.beforeInitialize(answersInit); started && early {
		ev.Problems = append(ev.Problems, pr)
	}
	for i := range elems {
		el := &elems[i]
		if el.Msg == nil {
			continue
		}
		// One element is handled as the frame it would be on its own, minus what belongs
		// to the whole frame (before-initialize is said once, above).
		one := Event{Seq: ev.Seq, Dir: ServerToClient, Kind: el.Kind, Msg: el.Msg, Problems: el.Problems, Raw: el.Raw}
		p.inBatch = true
		p.addServer(&one)
		p.inBatch = false
		el.Problems, el.Pair, el.Method = one.Problems, one.Pair, one.Method
		if el.Kind == KindRequest {
			el.Problems = append(el.Problems, Problem{Info, CodeBatchedRequest, "answered in a response frame of its own (JSON-RPC 2.0 §6 would gather the batch's answers in one array)"})
		}
		p.noteVersion(&one)
	}
}

// noteVersion remembers the protocolVersion of the server's answer to initialize, which
// decides whether a batch is allowed.
func (p *Pairer) noteVersion(ev *Event) {
	if ev.Kind != KindResponse || ev.Method != "initialize" || ev.Msg == nil {
		return
	}
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(ev.Msg.Result, &r) == nil {
		p.version = r.ProtocolVersion
	}
}
