package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// batchLookBack bounds how far back the wire detail looks for the request a batched
// response answers (the timeline does not link batch elements itself).
const batchLookBack = 100_000

// batchLines draws the elements of the batch frame ev (at timeline position pos): each
// element's kind, id and method, the request a response answers (#seq, found by id among
// the client's earlier requests) and the element's own problems. The batch as a whole
// keeps its problem (allowed or not by the negotiated version) in the detail's problems.
func (p *wirePane) batchLines(ev *mcpclient.Event, pos, w int) []string {
	st := p.c.st
	elems := mcpclient.ClassifyBatch(ev.Raw)
	if elems == nil {
		return nil
	}
	out := []string{"", st.Title.Render("batch elements") + st.Muted.Render(" ("+clean(batchSummary(elems))+")")}
	for _, el := range elems {
		line := fmt.Sprintf("[%d] %s", el.Index, el.Kind)
		if m := el.Msg; m != nil {
			if m.Method != "" {
				line += " " + clean(m.Method)
			}
			if m.Error != nil {
				line += " " + strconv.FormatInt(m.Error.Code, 10)
			}
			if len(m.ID) > 0 {
				line += " id " + clean(string(m.ID))
			}
			switch el.Kind {
			case mcpclient.KindResponse, mcpclient.KindErrorResponse:
				if seq, method, answered, ok := p.tl.requestByID(pos, m.ID); ok {
					line += fmt.Sprintf(" · answers #%d %s", seq, clean(method))
					if answered != 0 && answered != ev.Seq {
						line += fmt.Sprintf(" (already answered by #%d)", answered)
					}
				} else {
					line += " · no request with this id"
				}
			case mcpclient.KindRequest:
				line += " · answered in a frame of its own"
			}
		}
		out = append(out, wrapStyled(st.Base, line, w)...)
		for _, pr := range el.Problems {
			mark, sty := "  ·", st.Muted
			if pr.Severity >= mcpclient.Warning {
				mark, sty = "  ⚠", st.Warning
			}
			out = append(out, wrapStyled(sty, mark+" "+clean(pr.Text)+" ["+clean(string(pr.Code))+"]", w)...)
		}
	}
	return out
}

// requestByID finds the latest client request before position pos whose id is id (as
// JSON: 1 and "1" differ), within batchLookBack events. answered is the Seq of the response
// the timeline linked to it, 0 when none.
func (t *timeline) requestByID(pos int, id json.RawMessage) (seq uint64, method string, answered uint64, ok bool) {
	want := string(bytes.TrimSpace(id))
	if n, isNum := numericID(id); isNum {
		want = strconv.FormatInt(n, 10)
	}
	for j := pos - 1; j >= 0 && j >= pos-batchLookBack; j-- {
		e := t.evs.at(j)
		if e.dir != mcpclient.ClientToServer || e.kind != mcpclient.KindRequest {
			continue
		}
		if t.idOf(e) == want {
			return e.seq, t.methodOf(e), t.pairOf(e), true
		}
	}
	return 0, "", 0, false
}

// batchSummary says in a few words what a batch holds ("3: 2 responses, 1 notification"),
// each count agreeing with its noun.
func batchSummary(elems []mcpclient.BatchElem) string {
	return mcpclient.BatchSummary(elems, func(k mcpclient.Kind, n int) string {
		name, many := k.String(), k.String()
		switch k {
		case mcpclient.KindRequest, mcpclient.KindNotification, mcpclient.KindResponse, mcpclient.KindErrorResponse:
			many = name + "s"
		}
		return jsontext.Count(n, name, many)
	})
}
