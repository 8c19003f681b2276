package ui

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

func (p *wirePane) title() string      { return "Wire" }
func (p *wirePane) inputFocused() bool { return p.find.mode != findNone || p.js.view.searching() }

// handleKey handles the wire pane's keys; it asks nothing of the root.
func (p *wirePane) handleKey(msg tea.KeyPressMsg) (bool, tea.Msg, tea.Cmd) {
	handled, cmd := p.frameKey(msg)
	return handled, nil, cmd
}

func (p *wirePane) bindings() []key.Binding {
	k := &p.c.keys
	if !p.js.explore {
		return k.offered("wire")
	}
	out := append(k.offered("json"), k.List.Up, k.List.Down, k.List.PageUp, k.List.PageDown, k.List.Top, k.List.Bottom)
	// The pane's keys the JSON does not take still act (filter, jump, save): listed too.
	taken := map[string]bool{}
	for _, b := range out {
		for _, key := range b.Keys() {
			taken[key] = true
		}
	}
	for _, b := range k.offered("wire") {
		if !slices.ContainsFunc(b.Keys(), func(key string) bool { return taken[key] }) {
			out = append(out, b)
		}
	}
	return out
}

// frameKey handles the wire pane's keys.
func (p *wirePane) frameKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if p.find.mode != findNone {
		return p.findKey(msg)
	}
	if p.js.explore {
		if ok, cmd := p.jsonKey(msg); ok {
			return true, cmd
		}
	}
	k := p.c.keys
	page := max(p.list.h-1, 1)
	switch {
	case key.Matches(msg, k.Wire.Search):
		return true, p.openFind(findSearch)
	case key.Matches(msg, k.Wire.FilterExpr):
		return true, p.openFind(findFilter)
	case key.Matches(msg, k.Wire.SearchNext):
		// The hits inside the frame first, then the next frame's.
		if !p.stepPageHit(1) {
			p.nextHit(p.sel, 1, false)
		}
	case key.Matches(msg, k.Wire.SearchPrev):
		if !p.stepPageHit(-1) {
			p.nextHit(p.sel, -1, false)
		}
	case k.Detail.pageDetail(msg, &p.detailOff, p.det.h):
	case key.Matches(msg, k.JSON.Explore):
		p.exploreJSON()
	case key.Matches(msg, k.Wire.Jump):
		if i, ok := p.selPos(); ok {
			if seq, ok := p.tl.partner(i); ok {
				p.jump(seq)
			}
		}
	case key.Matches(msg, k.Detail.ShowAll):
		if ev := p.selected(); ev != nil {
			if p.full == ev.seq {
				p.full = 0
			} else {
				p.full = ev.seq
			}
		}
	case key.Matches(msg, k.Detail.Save), key.Matches(msg, k.Detail.SaveRaw):
		if i, ok := p.selPos(); ok && p.tl.evs.at(i).dir != mcpclient.Lifecycle {
			raw, loaded := p.tl.rawAt(i)
			if !loaded {
				// The detail asks for the bytes whenever the frame is selected: they are
				// a moment away.
				p.saved.seq, p.saved.text = p.tl.evs.at(i).seq, "the frame is still loading from the trace: press w again"
				if p.tl.droppedAt(i) {
					p.saved.text = "not saved: " + p.tl.loadErr(p.tl.evs.at(i).seq).Error()
				}
				p.detail.lines = nil
				return true, nil
			}
			return true, p.c.saveFrameAt(p.tl, i, p.tl.evs.at(i).seq, raw, key.Matches(msg, k.Detail.SaveRaw))
		}
	case key.Matches(msg, k.Detail.Copy, k.Detail.CopyParsed, k.Detail.CopyExact, k.Detail.CopyCommand):
		if i, ok := p.selPos(); ok {
			kind, _ := p.c.copyKeyKind(msg, false)
			return true, p.c.copyEvent(p.tl, i, kind)
		}
	case key.Matches(msg, k.Wire.WireFilter):
		p.cyclePreset()
	case key.Matches(msg, k.Wire.Flow) && p.flowsShown():
		p.toggleFlow()
	default:
		d, ok := k.List.scrollStep(msg, page, p.count())
		if !ok {
			return false, nil
		}
		p.move(d)
		p.follow = p.follow || key.Matches(msg, k.List.Bottom)
	}
	return true, nil
}

// frameSaved records where a saved frame went; the detail shows it.
func (p *wirePane) frameSaved(msg frameSavedMsg) string {
	text := fmt.Sprintf("frame #%d saved%s to %s (%s)", msg.seq, msg.note, msg.path, jsontext.Count(msg.n, "byte", "bytes"))
	if msg.err != nil {
		text = fmt.Sprintf("frame #%d not saved: %s", msg.seq, msg.err)
	}
	p.saved.seq, p.saved.text = msg.seq, text
	p.detail.lines = nil
	return text
}
