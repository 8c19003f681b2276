package tap

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// DefaultMemoryHistory is how many bytes of its newest trace lines a tap with no trace file
// (--no-save) keeps in memory for the viewers that attach later (64 MiB): older lines are
// dropped, and a viewer is told how many.
const DefaultMemoryHistory = 64 << 20

// memHistory is the trace kept in memory for viewers when no file holds it: the header
// line, then the newest whole lines up to limit bytes, in blocks of memBlock bytes that are
// filled and never moved (so a snapshot stays valid while lines are added). Lines are
// added whole (the recorder writes whole lines); the oldest blocks are dropped, and with
// them the rest of a line they began.
type memHistory struct {
	limit int64
	// why says why there is no file, for the viewer's notice.
	why string
	// head is the header line; headDone once its newline came.
	head     []byte
	headDone bool
	blocks   [][]byte
	// starts holds, per block, where the first line that starts in it starts (-1: none).
	starts []int
	// off is where the kept lines begin in blocks[0]; kept counts the bytes from there.
	off  int
	kept int64
	// lineStart says the next byte added starts a line.
	lineStart bool
	// droppedLines and droppedBytes count what was dropped.
	droppedLines, droppedBytes int64
}

func newMemHistory(limit int64, why string) *memHistory {
	if limit <= 0 {
		limit = DefaultMemoryHistory
	}
	if why == "" {
		why = "the tap keeps no trace file"
	}
	return &memHistory{limit: limit, why: why, lineStart: true}
}

// add appends trace bytes (whole lines), then drops the oldest lines beyond the limit.
func (m *memHistory) add(p []byte) {
	if !m.headDone {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			m.head = append(m.head, p...)
			return
		}
		m.head, m.headDone = append(m.head, p[:i+1]...), true
		p = p[i+1:]
	}
	m.kept += int64(len(p))
	for len(p) > 0 {
		if len(m.blocks) == 0 || len(m.blocks[len(m.blocks)-1]) == memBlock {
			m.blocks = append(m.blocks, make([]byte, 0, memBlock))
			m.starts = append(m.starts, -1)
		}
		k := len(m.blocks) - 1
		o := len(m.blocks[k])
		chunk := p[:min(len(p), memBlock-o)]
		if m.starts[k] < 0 {
			if m.lineStart {
				m.starts[k] = o
			} else if i := bytes.IndexByte(chunk, '\n'); i >= 0 && i+1 < len(chunk) {
				m.starts[k] = o + i + 1
			}
		}
		m.blocks[k] = append(m.blocks[k], chunk...)
		m.lineStart = chunk[len(chunk)-1] == '\n'
		p = p[len(chunk):]
	}
	for m.kept > m.limit && len(m.blocks) > 1 {
		m.dropFirst()
	}
}

// dropFirst drops the oldest block, and the rest of the line it ends in.
func (m *memHistory) dropFirst() {
	m.drop(m.blocks[0][m.off:])
	m.shift()
	for len(m.blocks) > 0 && m.starts[0] != 0 {
		if s := m.starts[0]; s > 0 {
			m.drop(m.blocks[0][:s])
			m.off = s
			return
		}
		m.drop(m.blocks[0]) // all of it is the dropped line's
		m.shift()
	}
}

func (m *memHistory) shift() {
	m.blocks[0] = nil
	m.blocks, m.starts, m.off = m.blocks[1:], m.starts[1:], 0
}

func (m *memHistory) drop(b []byte) {
	m.droppedLines += int64(bytes.Count(b, []byte{'\n'}))
	m.droppedBytes += int64(len(b))
	m.kept -= int64(len(b))
}

// snapshot is the history as it is now, for one viewer: the header, a control line saying
// what was dropped (when anything was), then the kept lines. Later adds do not show in it.
func (m *memHistory) snapshot() [][]byte {
	out := [][]byte{m.head[:len(m.head):len(m.head)]}
	if m.droppedLines > 0 || m.droppedBytes > 0 {
		out = append(out, historyControl(m.notice(), m.droppedLines, m.droppedBytes))
	}
	for i, b := range m.blocks {
		if i == 0 {
			b = b[m.off:]
		}
		out = append(out, b[:len(b):len(b)])
	}
	return out
}

// notice says what was dropped and why.
func (m *memHistory) notice() string {
	return fmt.Sprintf("%s: %d earlier events (%.1f MiB) dropped, the newest %d MiB kept", m.why, m.droppedLines, float64(m.droppedBytes)/(1<<20), m.limit>>20)
}

// historyControl is the control line that tells a viewer earlier events were dropped:
// {"tap":"history-dropped","reason":"…","events":N,"bytes":B}.
func historyControl(reason string, events, size int64) []byte {
	b, _ := json.Marshal(struct {
		Tap    string `json:"tap"`
		Reason string `json:"reason"`
		Events int64  `json:"events"`
		Bytes  int64  `json:"bytes"`
	}{"history-dropped", reason, events, size})
	return append(b, '\n')
}
