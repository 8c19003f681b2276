package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcp-inspect/mcp-inspect/internal/wirefilter"
)

// pageHit is one occurrence of the search in the selected frame's detail page (its
// header, raw bytes, parsed view and notes, as drawn): the display columns it covers on
// each page line it spans (two or more when it wraps).
type pageHit struct {
	parts []hitPart
}

// hitPart is the part of a hit on page line line: display columns [from, to).
type hitPart struct {
	line, from, to int
}

// pageHits are the search's occurrences in the selected frame's detail page, kept by
// sync for one frame, width, show-all state, layout and query (View only reads them).
type pageHits struct {
	key  pageHitsKey
	hits []pageHit
	// at is the hit n/N stand on (-1: none yet in this frame).
	at int
}

// pageHitsKey is what pageHits were found for.
type pageHitsKey struct {
	seq       uint64
	w, lines  int
	full      bool
	query     string
	jsonLines int
}

// hitWant is where the detail goes once the selected frame's hits are known.
type hitWant uint8

const (
	wantNone  hitWant = iota
	wantFirst         // a search or n landed on the frame: its first hit
	wantLast          // N landed on the frame: its last hit
)

// findPageHits finds the query in the page lines; a line that continues the one above it
// (raw bytes wrapped at the full width, a JSON string's continuation row) is searched as
// one text with it, so a hit that wraps is found and marked on both lines.
func findPageHits(lines []string, cont []bool, q string) []pageHit {
	type seg struct{ line, start, col0 int }
	var text strings.Builder
	var segs []seg
	for i, l := range lines {
		plain := ansi.Strip(l)
		col0 := 0
		if cont[i] {
			trimmed := strings.TrimLeft(plain, " ")
			col0 = len(plain) - len(trimmed)
			plain = trimmed
		} else if i > 0 {
			text.WriteByte('\n')
		}
		segs = append(segs, seg{i, text.Len(), col0})
		text.WriteString(plain)
	}
	all := text.String()
	var out []pageHit
	k := 0
	for off := 0; off < len(all); {
		i, j := wirefilter.Find([]byte(all[off:]), q)
		if i < 0 || j <= i {
			break
		}
		s, e := off+i, off+j
		for k+1 < len(segs) && segs[k+1].start <= s {
			k++
		}
		var h pageHit
		for m := k; m < len(segs) && segs[m].start < e; m++ {
			end := len(all)
			if m+1 < len(segs) {
				end = segs[m+1].start
			}
			from, to := max(s, segs[m].start), min(e, end)
			if from >= to {
				continue
			}
			c := segs[m].col0 + ansi.StringWidth(all[segs[m].start:from])
			h.parts = append(h.parts, hitPart{segs[m].line, c, c + ansi.StringWidth(all[from:to])})
		}
		out = append(out, h)
		off = e
	}
	return out
}

// pageLines is the selected frame's detail page as drawn (without the JSON cursor), and
// which lines continue the line above them.
func (p *wirePane) pageLines() ([]string, []bool) {
	head := p.detail.lines
	lines := append([]string(nil), head...)
	cont := make([]bool, len(head), len(head)+p.js.len())
	w := p.det.w
	for i := 1; i < len(head); i++ {
		cont[i] = ansi.StringWidth(head[i-1]) >= w
	}
	if v := p.js.view; v != nil {
		lines = append(lines, v.rowsText(p.c.st, 0, v.len(), false)...)
		for r := range v.len() {
			cont = append(cont, v.rows[r].part > 0)
		}
	}
	lines = append(lines, p.js.tail...)
	return lines, append(cont, make([]bool, len(p.js.tail))...)
}

// syncPageHits finds the search in the selected frame's page when the frame, its layout
// or the query changed, and scrolls to the hit a search or n/N asked for (want).
func (p *wirePane) syncPageHits() {
	ph := &p.find.page
	if p.find.query == "" || p.detail.lines == nil {
		return
	}
	k := pageHitsKey{p.detail.seq, p.det.w, len(p.detail.lines), p.detail.full, p.find.query, p.js.len()}
	if ph.key != k {
		lines, cont := p.pageLines()
		at := -1
		if ph.key.seq == k.seq && ph.key.query == k.query {
			at = ph.at // the same frame folded or resized: stay on its hit
		}
		ph.key, ph.hits, ph.at = k, findPageHits(lines, cont, p.find.query), at
		ph.at = min(ph.at, len(ph.hits)-1)
	}
	switch p.find.want {
	case wantFirst:
		ph.at = min(0, len(ph.hits)-1)
	case wantLast:
		ph.at = len(ph.hits) - 1
	default:
		return
	}
	p.find.want = wantNone
	p.showPageHit()
}

// showPageHit scrolls the detail so the current hit is in view, a third from the top.
func (p *wirePane) showPageHit() {
	ph := &p.find.page
	if ph.at < 0 || ph.at >= len(ph.hits) || p.js.explore {
		return
	}
	h := p.js.rows(p.det.h)
	line := ph.hits[ph.at].parts[0].line
	p.detailOff = clampScroll(max(line-h/3, 0), len(p.detail.lines)+p.js.len(), h)
}

// stepPageHit moves to the next (d > 0) or previous hit inside the selected frame; false
// when there is none that way (n/N then go to the next or previous frame).
func (p *wirePane) stepPageHit(d int) bool {
	ph := &p.find.page
	if ev := p.selected(); ev == nil || p.detail.lines == nil || ph.key.seq != ev.seq || ph.key.query != p.find.query {
		return false
	}
	at := ph.at + d
	if ph.at < 0 && d < 0 {
		return false
	}
	if at < 0 || at >= len(ph.hits) {
		return false
	}
	ph.at = at
	p.showPageHit()
	return true
}

// markPageHits highlights the hits on the drawn detail lines out (page lines from off
// on): the current one underlined too, so n/N show where they are.
func (p *wirePane) markPageHits(out []string, off int) bool {
	ph := &p.find.page
	ev := p.selected()
	if ev == nil || ph.key.seq != ev.seq || ph.key.query != p.find.query || p.detail.lines == nil {
		return false
	}
	ranges := make([][]lipgloss.Range, len(out))
	cur := p.c.st.MatchCurrent
	for k, h := range ph.hits {
		st := p.c.st.Match
		if k == ph.at {
			st = cur
		}
		for _, part := range h.parts {
			if i := part.line - off; i >= 0 && i < len(ranges) {
				ranges[i] = append(ranges[i], lipgloss.NewRange(part.from, part.to, st))
			}
		}
	}
	for i, rs := range ranges {
		if len(rs) > 0 {
			out[i] = lipgloss.StyleRanges(out[i], rs...)
		}
	}
	return true
}

// inFrame says which of the selected frame's hits n/N stand on, when it has more than one
// (n visits them before the next frame).
func (p *wirePane) inFrame() string {
	ph := &p.find.page
	ev := p.selected()
	if ev == nil || ph.key.seq != ev.seq || ph.key.query != p.find.query || len(ph.hits) < 2 {
		return ""
	}
	if ph.at < 0 {
		return fmt.Sprintf(", %d in the frame", len(ph.hits))
	}
	return fmt.Sprintf(", %d/%d in the frame", ph.at+1, len(ph.hits))
}
