package ui

import tea "charm.land/bubbletea/v2"

// filterLive matches the next liveChunkLen events against the filter expression at most
// and, while more remain, asks for the next chunk by a message (liveScan): applying a
// filter to a long history (a flood) keeps keys and ctrl+c waiting for one chunk, rows
// appear as the chunks are read. The event selected when the filter was applied is
// selected once the scan reaches it, unless a key moved the selection meanwhile.
func (p *wirePane) filterLive() tea.Cmd {
	if !p.exprOn() {
		return nil
	}
	cmd := p.find.scan.step(scanFilter, p.tl.len(), p.matchRows)
	if !p.find.keeping {
		return cmd
	}
	switch {
	case p.find.kept >= 0 && p.sel != p.find.kept:
		p.find.keeping = false // moved by a key
	case p.find.scan.done > p.find.keep || !p.find.scan.pending(p.tl.len()):
		p.find.keeping = false
		p.reselect(p.find.keep, true)
	default:
		p.sel, p.follow = max(p.count()-1, 0), false
		p.find.kept = p.sel
		p.scrollIntoView()
	}
	return cmd
}

// filterStep takes the next chunk of the filter's scan (a stale scan's message is
// dropped); a following view stays at the end.
func (p *wirePane) filterStep(msg wireStepMsg) tea.Cmd {
	if !p.find.scan.take(msg) {
		return nil
	}
	cmd := p.filterLive()
	if p.follow && p.count() > 0 {
		p.sel = p.count() - 1
		p.detailOff = 0
	}
	p.scrollIntoView()
	return cmd
}

// filtering reports whether the filter expression has events still to match.
func (p *wirePane) filtering() bool {
	return p.exprOn() && p.find.scan.pending(p.tl.len())
}
