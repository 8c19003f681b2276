package ui

import (
	"fmt"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// The flow view (the "flows" preset of the wire pane, mitmproxy's flow list as the model):
// one row per HTTP exchange, its request line, status and time to the answer, the JSON-RPC
// message it carried and what came back; space opens an exchange to its events (the
// response head, body or SSE events, and the JSON-RPC messages read from them, linked by
// mcpclient.Event.Exchange) and closes it again.

// tlExchange is what the timeline knows of one HTTP exchange, by its request's Seq.
type tlExchange struct {
	// events are the positions of the exchange's other events, in arrival order: the
	// JSON-RPC message the request carried, then the response's events and the messages
	// read from them.
	events []int32
	// sse counts its SSE events, in the JSON-RPC messages read from it; carried is the
	// position of the message the request carried, -1 for none.
	sse, in int32
	carried int32
}

// noteExchange files the event at position i under its HTTP exchange.
func (t *timeline) noteExchange(i int, ev *mcpclient.Event) {
	switch {
	case ev.Kind == mcpclient.KindHTTPRequest:
		t.flows = append(t.flows, int32(i))
		x := &tlExchange{carried: -1}
		if j, ok := t.index(ev.Exchange); ok && ev.Exchange != 0 {
			x.carried = int32(j)
			x.events = append(x.events, int32(j))
		}
		t.exchanges[ev.Seq] = x
	case ev.Dir == mcpclient.HTTPIn && ev.Pair != 0:
		if x := t.exchanges[ev.Pair]; x != nil {
			x.events = append(x.events, int32(i))
			if ev.Kind == mcpclient.KindSSEFrame {
				x.sse++
			}
		}
	case ev.Exchange != 0 && ev.Dir == mcpclient.ServerToClient:
		if x := t.exchanges[ev.Exchange]; x != nil {
			x.events = append(x.events, int32(i))
			x.in++
		}
	}
}

// wireFlows is the flow view's state: the exchanges open (by request Seq) and the rows
// shown while any is, rebuilt when events arrive or one opens or closes.
type wireFlows struct {
	open map[uint64]bool
	rows []int32
}

// flowsShown reports whether the flow view chooses the rows.
func (p *wirePane) flowsShown() bool { return p.filter == filterFlows && !p.exprOn() }

// rebuildFlows lays out the flow rows: every exchange, and under each open one its events.
func (p *wirePane) rebuildFlows() {
	if len(p.flows.open) == 0 {
		p.flows.rows = nil
		return
	}
	rows := p.flows.rows[:0]
	for _, pos := range p.tl.flows {
		rows = append(rows, pos)
		if seq := p.tl.evs.at(int(pos)).seq; p.flows.open[seq] {
			if x := p.tl.exchanges[seq]; x != nil {
				rows = append(rows, x.events...)
			}
		}
	}
	p.flows.rows = rows
}

// flowRow is the flow view's row count and the position at row r.
func (p *wirePane) flowCount() int {
	if len(p.flows.open) == 0 {
		return len(p.tl.flows)
	}
	return len(p.flows.rows)
}

func (p *wirePane) flowAt(r int) int {
	if len(p.flows.open) == 0 {
		return int(p.tl.flows[r])
	}
	return int(p.flows.rows[r])
}

// flowRowOf is the row showing position i, or the exchange after it when no row does.
func (p *wirePane) flowRowOf(i int) int {
	n := p.flowCount()
	for r := range n {
		if p.flowAt(r) == i {
			return r
		}
	}
	for r := range n {
		if pos := p.flowAt(r); pos > i && p.tl.evs.at(pos).kind == mcpclient.KindHTTPRequest {
			return r
		}
	}
	return max(n-1, 0)
}

// toggleFlow opens the selected exchange, or closes it (from its row or any of its
// events' rows); the exchange's row stays selected.
func (p *wirePane) toggleFlow() {
	if !p.flowsShown() || p.flowCount() == 0 {
		return
	}
	r := min(max(p.sel, 0), p.flowCount()-1)
	for r > 0 && p.tl.evs.at(p.flowAt(r)).kind != mcpclient.KindHTTPRequest {
		r--
	}
	pos := p.flowAt(r)
	seq := p.tl.evs.at(pos).seq
	if p.flows.open == nil {
		p.flows.open = map[uint64]bool{}
	}
	if p.flows.open[seq] {
		delete(p.flows.open, seq)
	} else {
		p.flows.open[seq] = true
	}
	p.rebuildFlows()
	p.sel = p.flowRowOf(pos)
	p.follow = false
	p.detailOff = 0
	p.scrollIntoView()
}

// flowSummary is a row's text in the flow view: an exchange's line with a ▸/▾ mark, what
// it carried and what came back; an event of an open exchange indented under it.
func (p *wirePane) flowSummary(pos int) string {
	ev := p.tl.evs.at(pos)
	if ev.kind != mcpclient.KindHTTPRequest {
		return "  └ " + p.tl.summary(pos)
	}
	mark := "▸ "
	if p.flows.open[ev.seq] {
		mark = "▾ "
	}
	parts := []string{mark + p.tl.summary(pos)}
	if x := p.tl.exchanges[ev.seq]; x != nil {
		if x.carried >= 0 {
			parts = append(parts, p.tl.summary(int(x.carried)))
		}
		var back []string
		if x.sse > 0 {
			back = append(back, jsontext.Count(int(x.sse), "SSE event", "SSE events"))
		}
		if x.in > 0 {
			back = append(back, jsontext.Count(int(x.in), "message", "messages"))
		}
		if len(back) > 0 {
			parts = append(parts, "⇐ "+strings.Join(back, ", "))
		}
	}
	return strings.Join(parts, " · ")
}

// flowsEmpty says why the flow view has no rows.
func (p *wirePane) flowsEmpty() string {
	return fmt.Sprintf("no HTTP exchanges in this session (%d events): flows are a remote server's requests and responses", p.tl.len())
}
