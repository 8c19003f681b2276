package ui

import (
	"fmt"
	osexec "os/exec"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/media"
	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// setPics gives a finished call's result its pictures before it is rendered: previews
// are at most the pane's height less a few lines, so a picture and its size line fit.
func (p *callPane) setPics(r *callRun) {
	if p.c.gfx == nil {
		return
	}
	if r.pics == nil {
		r.pics = newResultPics(p.c.gfx, 0)
	}
	r.pics.maxRows = max(p.bodyHeight()-4, 3)
	k := p.c.keys.Detail
	r.pics.hint = k.OpenMedia.Help().Key + " opens it in the system viewer · " + k.Save.Help().Key + " saves the decoded file"
}

// graphicsDelay is how long after a change the iTerm2 and sixel pictures are drawn: after
// the renderer flushed the frame with the blank cells they cover (it flushes at 60 Hz).
const graphicsDelay = 50 * time.Millisecond

// gfxDrawMsg asks to draw the iTerm2 or sixel pictures of key, if they are still the
// ones on screen.
type gfxDrawMsg struct {
	key   string
	items []screenPic
}

// screenPic is a graphics preview at a screen cell (0-based).
type screenPic struct {
	row, col int
	pos      picPos
}

// shownPics are the graphics previews of the Call pane on screen now: all of them for
// kitty (their cells scroll with the text), the wholly visible ones for the others.
func (m *model) shownPics() []screenPic {
	p := m.call
	r := p.run
	if m.focus != paneCall || m.help.shown || m.lay.tooSmall || m.width == 0 || m.overlay.front() != nil ||
		p.form != nil || p.past != nil || r == nil || r.running() || r.pics == nil {
		return nil
	}
	head := len(p.historyLines(m.now(), p.r.w))
	bh := max(p.r.h-head, 1)
	off := clampScroll(p.off, len(p.lines), bh)
	var out []screenPic
	for _, pos := range r.pics.at {
		top := pos.line - off
		if pos.proto != media.Kitty && (top < 0 || top+pos.rows > bh) {
			continue
		}
		out = append(out, screenPic{row: p.r.y + head + top, col: p.r.x + pos.col, pos: pos})
	}
	return out
}

// graphicsCmd sends what the screen's pictures need after an update: a kitty picture is
// transmitted once (its placeholder cells then show it wherever they are); iTerm2 and
// sixel pictures are drawn over their blank cells after the frame is out, and when they
// move or go, the screen is cleared and redrawn so no stale pixels stay behind.
func (m *model) graphicsCmd() tea.Cmd {
	g := m.c.gfx
	if g == nil || g.proto == media.Off || g.proto == media.Blocks {
		return nil
	}
	shown := m.shownPics()
	if g.proto == media.Kitty {
		var seqs []picPos
		for _, s := range shown {
			if id := s.pos.pic.id; id != 0 && !g.sent[id] {
				g.sent[id] = true
				seqs = append(seqs, s.pos)
			}
		}
		if len(seqs) == 0 {
			return nil
		}
		return func() tea.Msg {
			var b strings.Builder
			for _, pos := range seqs {
				if seq, err := media.KittyTransmit(pos.pic.img, pos.pic.id, pos.cols, pos.rows); err == nil {
					b.WriteString(seq)
				}
			}
			return tea.RawMsg{Msg: b.String()}
		}
	}
	var kb strings.Builder
	for _, s := range shown {
		fmt.Fprintf(&kb, "%p@%d,%d:%dx%d;", s.pos.pic, s.row, s.col, s.pos.cols, s.pos.rows)
	}
	if len(shown) > 0 {
		fmt.Fprintf(&kb, "in %dx%d", m.width, m.height)
	}
	want := kb.String()
	if want == g.drawn {
		return nil
	}
	var cmds []tea.Cmd
	if g.drawn != "" {
		cmds = append(cmds, tea.ClearScreen)
	}
	g.drawn = want
	if want != "" {
		cmds = append(cmds, m.c.tick(graphicsDelay, func(time.Time) tea.Msg { return gfxDrawMsg{key: want, items: shown} }))
	}
	return tea.Batch(cmds...)
}

// gfxDraw draws the pictures of msg if they are still the ones on screen: the sequences
// are made in the command, not here.
func (m *model) gfxDraw(msg gfxDrawMsg) tea.Cmd {
	g := m.c.gfx
	if g == nil || msg.key != g.drawn {
		return nil
	}
	proto := g.proto
	return func() tea.Msg {
		var b strings.Builder
		for _, s := range msg.items {
			var seq string
			var err error
			if proto == media.Sixel {
				seq, err = media.SixelImage(s.pos.pic.img, s.pos.cols, s.pos.rows)
			} else {
				seq, err = media.ITerm2Image(s.pos.pic.img, s.pos.cols, s.pos.rows)
			}
			if err == nil {
				b.WriteString(media.At(seq, s.row, s.col))
			}
		}
		return tea.RawMsg{Msg: b.String()}
	}
}

// systemViewer is the command that opens a file in the system's viewer: viewer when set,
// else open on macOS, explorer.exe on Windows, xdg-open elsewhere (platform.FileViewer).
func systemViewer(viewer string) string {
	if viewer != "" {
		return viewer
	}
	return platform.FileViewer()
}

// mediaOpenedMsg reports a picture written (or found written: mediaFiles) and handed to
// the system viewer.
type mediaOpenedMsg struct {
	item, path, viewer string
	// err says why the file was not written; noViewer that it was but no viewer started.
	err      error
	noViewer error
}

// openInViewer writes the decoded picture to a new file in dir (or takes known, the file w
// or an earlier O wrote it to, when that still holds it) and starts viewer on it, without
// waiting for it (a viewer that stays open does not hold the UI).
func openInViewer(viewer, dir, base, item, known string, in media.Info) tea.Cmd {
	return func() tea.Msg {
		path, _, err := writeOnce(known, dir, base, in.Ext(), in.Data)
		if err != nil {
			return mediaOpenedMsg{err: err}
		}
		msg := mediaOpenedMsg{item: item, path: path, viewer: viewer}
		bin, err := osexec.LookPath(viewer)
		if err != nil {
			msg.noViewer = fmt.Errorf("no system viewer: %s is not on PATH", viewer)
			return msg
		}
		cmd := osexec.Command(bin, path)
		if err := cmd.Start(); err != nil {
			msg.noViewer = fmt.Errorf("%s did not start: %w", viewer, err)
			return msg
		}
		go func() { _ = cmd.Wait() }() // reaped whenever the viewer exits
		return msg
	}
}

// mediaOpened says what happened to an open request.
func (m *model) mediaOpened(msg mediaOpenedMsg) {
	m.c.gfx.files.keep(msg.item, msg.path)
	switch {
	case msg.err != nil:
		m.note("error", "picture not opened: not saved: "+msg.err.Error())
	case msg.noViewer != nil:
		m.note("error", fmt.Sprintf("%s; the picture is saved at %s", msg.noViewer, msg.path))
	default:
		m.note("info", fmt.Sprintf("opened %s with %s", msg.path, msg.viewer))
	}
}

// mediaKey handles the picture and markdown keys that the focused pane left: open the
// shown picture in the system viewer (Call, Resources), markdown ⇄ raw text.
func (m *model) mediaKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := &m.c.keys
	switch {
	case key.Matches(msg, k.Detail.OpenMedia) && (m.focus == paneCall || m.focus == paneResources):
		return m.openShownPicture(), true
	case key.Matches(msg, k.Detail.RawText) && m.c.md != nil && m.showsMarkdown():
		m.c.md.raw = !m.c.md.raw
		m.call.render()
		what := "markdown rendered"
		if m.c.md.raw {
			what = "raw text (markdown not rendered)"
		}
		m.note("info", "descriptions and markdown resources: "+what)
		return nil, true
	}
	return nil, false
}

// showsMarkdown reports whether the focused pane draws server text as markdown (the
// panes whose help lists the RawText key).
func (m *model) showsMarkdown() bool {
	switch m.focus {
	case paneTools, paneCall, paneServer, paneResources, panePrompts:
		return true
	}
	return false
}

// openShownPicture opens the first picture of the shown result or read resource.
func (m *model) openShownPicture() tea.Cmd {
	dir := saveDir(m.c.hist.dir)
	if m.focus == paneCall {
		if r := m.call.run; r != nil && r.done {
			infos, nums := mediaOf(r.res)
			for i, in := range infos {
				if in.Type == "image" {
					item := blockItem(m.call.shownRespSeq(), nums[i])
					return openInViewer(m.c.gfx.viewer, dir, item, item, m.c.gfx.files[item], in)
				}
			}
		}
		m.note("info", "no picture in the shown result")
		return nil
	}
	if in, n, ok := m.resources.shownPicture(); ok {
		item := resourceItem(m.resources.list.selected().key, n)
		return openInViewer(m.c.gfx.viewer, dir, fmt.Sprintf("resource-content-%d", n), item, m.c.gfx.files[item], in)
	}
	m.note("info", "no picture in the read resource (enter reads it)")
	return nil
}
