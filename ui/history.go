package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// History keeps the last arguments sent to each tool, per server, in
// DIR/history.json (DIR is Options.HistoryDir, normally
// $XDG_STATE_HOME/mcp-inspect). The form prefills from the newest entry
// and ctrl+r recalls earlier ones. File I/O runs only in tea.Cmds; Update
// sees the results as messages.

// historyFile is the file name inside the history directory.
const historyFile = "history.json"

// historyMax is how many argument sets are kept per tool.
const historyMax = 20

// historyEntry is one set of arguments sent to a tool.
type historyEntry struct {
	Args json.RawMessage `json:"args"`
	Time time.Time       `json:"time"`
}

// historyData is the file's content: server name → tool name → entries, newest first.
type historyData struct {
	Version int                                  `json:"version"`
	Servers map[string]map[string][]historyEntry `json:"servers"`
}

// history is the in-memory copy of the file and the key of the current server.
type history struct {
	dir string
	// mu serializes the save commands' read-merge-write of the file; the commands run
	// concurrently with each other, never with Update's state (they hold no model data).
	mu     *sync.Mutex
	server string
	data   historyData
	// err is the last load or save problem, shown in the form's header.
	err error
}

// historyLoadedMsg carries the file's content, read by loadHistory.
type historyLoadedMsg struct {
	data historyData
	err  error
}

// historySavedMsg reports a save's outcome.
type historySavedMsg struct{ err error }

func newHistory(dir string) *history {
	return &history{dir: dir, mu: &sync.Mutex{}, data: historyData{Version: 1, Servers: map[string]map[string][]historyEntry{}}}
}

// setServer sets the key under which this session's tools are kept: the server's
// name from initialize, else fallback (the command line).
func (h *history) setServer(name, fallback string) {
	if name == "" {
		name = fallback
	}
	h.server = name
}

// load returns the command that reads the file; nil when history is off.
func (h *history) load() tea.Cmd {
	if h.dir == "" {
		return nil
	}
	dir := h.dir
	return func() tea.Msg {
		d, err := readHistory(dir)
		return historyLoadedMsg{data: d, err: err}
	}
}

// apply takes a load or save result.
func (h *history) apply(msg tea.Msg) {
	switch msg := msg.(type) {
	case historyLoadedMsg:
		h.err = msg.err
		// Entries recorded before the load finished stay in front of the loaded ones.
		for srv, tools := range msg.data.Servers {
			for tool, entries := range tools {
				for _, e := range entries {
					h.data.add(srv, tool, e, true)
				}
			}
		}
	case historySavedMsg:
		h.err = msg.err
	}
}

// entries returns tool's entries for the current server, newest first.
func (h *history) entries(tool string) []historyEntry {
	if h == nil {
		return nil
	}
	return h.data.Servers[h.server][tool]
}

// record remembers args sent to tool and returns the command that saves them; nil
// when history is off (the entry is still kept for this session).
func (h *history) record(tool string, args json.RawMessage, now time.Time) tea.Cmd {
	e := historyEntry{Args: append(json.RawMessage(nil), args...), Time: now.UTC().Truncate(time.Second)}
	h.data.add(h.server, tool, e, false)
	if h.dir == "" {
		return nil
	}
	dir, mu, srv := h.dir, h.mu, h.server
	return func() tea.Msg {
		mu.Lock()
		defer mu.Unlock()
		// Read, merge, write: other mcp-inspect processes may have saved meanwhile.
		d, err := readHistory(dir)
		var bad *historyCorruptError
		if err != nil && !errors.As(err, &bad) {
			return historySavedMsg{err: err}
		}
		d.add(srv, tool, e, false)
		return historySavedMsg{err: writeHistory(dir, d)}
	}
}

// add puts e first in server/tool's list (last when appending a loaded entry),
// dropping an older entry with the same arguments, and caps the list.
func (d *historyData) add(server, tool string, e historyEntry, appendIt bool) {
	if d.Servers == nil {
		d.Servers = map[string]map[string][]historyEntry{}
	}
	tools := d.Servers[server]
	if tools == nil {
		tools = map[string][]historyEntry{}
		d.Servers[server] = tools
	}
	list := tools[tool]
	for i, old := range list {
		if sameJSON(old.Args, e.Args) {
			if appendIt {
				return
			}
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if appendIt {
		list = append(list, e)
	} else {
		list = append([]historyEntry{e}, list...)
	}
	if len(list) > historyMax {
		list = list[:historyMax]
	}
	tools[tool] = list
}

func sameJSON(a, b json.RawMessage) bool {
	var x, y bytes.Buffer
	if json.Compact(&x, a) != nil || json.Compact(&y, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(x.Bytes(), y.Bytes())
}

// historyCorruptError is a file that exists but does not parse: it is replaced on save.
type historyCorruptError struct {
	path string
	err  error
}

func (e *historyCorruptError) Error() string {
	return fmt.Sprintf("history: %s does not parse (replaced on the next save): %v", e.path, e.err)
}

// readHistory reads DIR/history.json; a missing file is an empty history.
func readHistory(dir string) (historyData, error) {
	d := historyData{Version: 1, Servers: map[string]map[string][]historyEntry{}}
	b, err := os.ReadFile(filepath.Join(dir, historyFile))
	if errors.Is(err, fs.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return d, fmt.Errorf("history: %w", err)
	}
	if err := json.Unmarshal(b, &d); err != nil {
		return historyData{Version: 1, Servers: map[string]map[string][]historyEntry{}}, &historyCorruptError{path: filepath.Join(dir, historyFile), err: err}
	}
	if d.Servers == nil {
		d.Servers = map[string]map[string][]historyEntry{}
	}
	// The file is indented for people; arguments are kept compact, as they were sent.
	for _, tools := range d.Servers {
		for _, list := range tools {
			for i := range list {
				var b bytes.Buffer
				if json.Compact(&b, list[i].Args) == nil {
					list[i].Args = b.Bytes()
				}
			}
		}
	}
	return d, nil
}

// writeHistory replaces DIR/history.json atomically (a temporary file renamed over it),
// readable by the user only: arguments may hold secrets.
func writeHistory(dir string, d historyData) error {
	if err := platform.MkdirPrivate(dir); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	d.Version = 1
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	tmp, err := os.CreateTemp(dir, historyFile+".*")
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	_, werr := tmp.Write(append(b, '\n'))
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), filepath.Join(dir, historyFile))
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("history: %w", werr)
	}
	return nil
}
