package ui

import tea "charm.land/bubbletea/v2"

// readBack reports whether the bytes of the event at position i come from the session's
// recording rather than memory: a live session keeps its latest events' bytes only and
// reads older ones back from its trace (timeline.setReadBack), as recorded, so redacted.
func (t *timeline) readBack(i int) bool {
	_, kept := t.kept(i)
	return t.keep > 0 && !kept
}

// saveFrameAt is common.saveFrame for the event at position i of tl: the exact bytes of a
// frame read back from a redacted recording are no longer at hand, so W saves them as
// recorded and says so rather than calling masked bytes exact.
func (c *common) saveFrameAt(tl *timeline, i int, seq uint64, raw []byte, exact bool) tea.Cmd {
	if exact && c.redact != nil && tl.readBack(i) {
		return saveFrame(saveDir(c.hist.dir), seq, raw, " as recorded, secrets masked (the exact bytes of older frames are not kept)")
	}
	return c.saveFrame(seq, raw, exact)
}
