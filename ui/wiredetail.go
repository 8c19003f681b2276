package ui

import "strings"

// viewDetail draws the selected frame: header, raw bytes, parsed message, problems. It
// reads the lines sync kept; before a sync (or while the bytes load) it draws them anew.
func (p *wirePane) viewDetail() string {
	w, h := p.det.w, p.det.h
	if h <= 0 || w <= 0 {
		return ""
	}
	pos, ok := p.selPos()
	if !ok {
		return strings.Join(window(nil, 0, h, w), "\n")
	}
	lines, js := p.detail.lines, p.js
	if !p.detailKept(pos) {
		ev, loaded := p.tl.event(pos)
		js = wireJSON{}
		lines = p.detailLines(&ev, pos, w, p.full == ev.Seq, loaded, &js)
	}
	h = js.rows(h)
	off := clampScroll(p.detailOff, len(lines)+js.len(), h)
	out := pageWindow(p.c.st, lines, &js, off, h, w)
	if p.find.query != "" && !p.markPageHits(out, off) {
		for i := range out {
			out[i] = p.highlight(out[i])
		}
	}
	if js.explore {
		out = append(out, js.view.pathLine(p.c.st, &p.c.keys, w))
	}
	return strings.Join(out, "\n")
}

// detailKept reports whether the kept detail lines are those of the frame at pos, at the
// detail's width and show-all state.
func (p *wirePane) detailKept(pos int) bool {
	seq := p.tl.evs.at(pos).seq
	return p.detail.lines != nil && p.detail.seq == seq && p.detail.w == p.det.w && p.detail.full == (p.full == seq)
}

// sync draws the selected frame's detail once per selection, width and show-all state
// (never per frame), and keeps the detail offset in range. Lines drawn while the bytes
// load are not kept: drawn again once they are read (the pane asked for them).
func (p *wirePane) sync() {
	p.syncHits()
	w, h := p.det.w, p.det.h
	pos, ok := p.selPos()
	if h <= 0 || w <= 0 || !ok {
		return
	}
	if p.detailKept(pos) {
		p.detailOff = clampScroll(p.detailOff, len(p.detail.lines)+p.js.len(), p.js.rows(h))
		if p.js.explore {
			p.keepCursor() // a shorter pane must still show the node the path line names
		}
		p.syncPageHits()
		return
	}
	seq := p.tl.evs.at(pos).seq
	ev, loaded := p.tl.event(pos)
	var js wireJSON
	lines := p.detailLines(&ev, pos, w, p.full == seq, loaded, &js)
	p.renders++
	p.detail.seq, p.detail.w, p.detail.full, p.detail.lines = seq, w, p.full == seq, lines
	// The focus stays in the JSON while it is the same frame's (a resize, a save note).
	js.explore = p.js.explore && js.view != nil && js.view == p.js.view
	if js.view != nil {
		js.view.layout(w)
	}
	p.js = js
	if !loaded {
		p.detail.lines = nil
	}
	p.detailOff = clampScroll(p.detailOff, len(lines)+js.len(), js.rows(h))
	if p.js.explore {
		p.keepCursor() // re-wrapped raw lines above moved the node the path line names
	}
	p.syncPageHits()
}
