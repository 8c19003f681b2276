package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// Bounds of what the wire detail draws of one frame (case B03). The preview is computed
// once per selection and cached; "show all" raises the bound to showAllBytes, and the
// save key writes the exact bytes to a file for anything larger.
const (
	// previewBytes is how much of a frame's raw bytes, and of its parsed form, is drawn.
	previewBytes = 64 << 10
	// previewLines caps the indented parsed view (a frame of tiny values makes many lines).
	previewLines = 4000
	// showAllBytes bounds "show all": beyond it, save the frame and use a pager.
	showAllBytes = 16 << 20
)

// runeCut returns n, or the start of the character n falls inside, so a cut never splits
// a UTF-8 sequence (bytes that are not UTF-8 at all are cut anywhere).
func runeCut[T ~string | ~[]byte](b T, n int) int {
	if n >= len(b) {
		return len(b)
	}
	for i := n; i > 0 && i > n-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return n
}

// frameSavedMsg reports where a frame's bytes were written.
type frameSavedMsg struct {
	seq  uint64
	path string
	n    int
	err  error
	// note says which bytes, before the path: " with secrets masked (W: exact bytes)" or
	// " exact, secrets included," ("" without a redactor).
	note string
}

// saveFrame saves a frame to frames/ in the state directory: through the session's
// redactor (secrets masked), or its exact bytes when exact is set (W).
func (c *common) saveFrame(seq uint64, raw []byte, exact bool) tea.Cmd {
	redact, dir := c.redact, saveDir(c.hist.dir)
	if redact == nil {
		return saveFrame(dir, seq, raw, "")
	}
	if exact {
		return saveFrame(dir, seq, raw, " exact, secrets included,")
	}
	return func() tea.Msg {
		return saveFrame(dir, seq, redact(raw), " with secrets masked (W: exact bytes)")()
	}
}

// saveDir is where frames are saved: frames/ in the state directory, or the working
// directory when there is none.
func saveDir(stateDir string) string {
	if stateDir == "" {
		return "."
	}
	return filepath.Join(stateDir, "frames")
}

// saveFrame writes raw to a new file in dir (never over an existing one); raw is not
// modified (event bytes are immutable). note goes into the report.
func saveFrame(dir string, seq uint64, raw []byte, note string) tea.Cmd {
	return func() tea.Msg {
		if err := platform.MkdirPrivate(dir); err != nil {
			return frameSavedMsg{seq: seq, err: err}
		}
		var f *os.File
		var err error
		for i := 0; i < 100; i++ {
			name := fmt.Sprintf("frame-%d.jsonl", seq)
			if i > 0 {
				name = fmt.Sprintf("frame-%d-%d.jsonl", seq, i)
			}
			f, err = platform.CreatePrivate(filepath.Join(dir, name), false)
			if !os.IsExist(err) {
				break
			}
		}
		if err != nil {
			return frameSavedMsg{seq: seq, err: err}
		}
		path := f.Name()
		if abs, aerr := filepath.Abs(path); aerr == nil {
			path = abs
		}
		n, err := f.Write(raw)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return frameSavedMsg{seq: seq, path: path, n: n, err: err, note: note}
	}
}
