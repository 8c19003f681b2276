package ui

import tea "charm.land/bubbletea/v2"

// liveScan is a scan of the Wire pane's timeline a chunk per message, so a key (ctrl+c
// too) waits for one chunk whatever the history's length: the live search's and the
// filter expression's. gen numbers the scans (a stale scan's message is dropped), done
// counts the events scanned, stepping is set while its wireStepMsg is on its way.
type liveScan struct {
	gen      int
	done     int
	stepping bool
}

// scanWhat says which scan a wireStepMsg steps.
type scanWhat uint8

const (
	scanSearch scanWhat = iota
	scanFilter
)

// wireStepMsg asks for the next chunk of scan gen of what.
type wireStepMsg struct {
	what scanWhat
	gen  int
}

// liveChunkLen is how many events of the timeline one message scans: held in memory,
// 16384 small frames take a millisecond or two, and each message costs a redraw.
const liveChunkLen = 16384

// restart begins a new scan from the first event; the older scan's messages are dropped.
func (s *liveScan) restart() {
	s.gen++
	s.done, s.stepping = 0, false
}

// step scans (by scan, over positions from..to) the next liveChunkLen of the n events at
// most and, while more remain, returns a Cmd asking for the next chunk. One chain of
// messages runs per scan: while one is on its way, new events wait for it.
func (s *liveScan) step(what scanWhat, n int, scan func(from, to int)) tea.Cmd {
	if s.stepping {
		return nil
	}
	to := min(s.done+liveChunkLen, n)
	if s.done < to {
		scan(s.done, to)
		s.done = to
	}
	if s.done >= n {
		return nil
	}
	s.stepping = true
	gen := s.gen
	return func() tea.Msg { return wireStepMsg{what, gen} }
}

// take reports whether a step message belongs to this scan, ending its wait if so.
func (s *liveScan) take(msg wireStepMsg) bool {
	if msg.gen != s.gen {
		return false
	}
	s.stepping = false
	return true
}

// pending reports whether the scan has events of the n still to read by its messages.
func (s *liveScan) pending(n int) bool { return s.stepping && s.done < n }
