package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/media"
	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// mediaOf are the image and audio blocks of a result that decode, in order, with their
// block numbers (1-based, as the result view labels them).
func mediaOf(res *mcpclient.CallToolResult) (infos []media.Info, nums []int) {
	if res == nil {
		return nil, nil
	}
	for i, b := range res.Content {
		if b.Type != "image" && b.Type != "audio" {
			continue
		}
		if in := media.Describe(b.Type, b.MimeType, b.Data); in.Err == nil {
			infos, nums = append(infos, in), append(nums, i+1)
		}
	}
	return infos, nums
}

// mediaSavedMsg reports where a result's decoded image and audio blocks were written:
// paths[i] is items[i]'s file, reused[i] set when it was already there (mediaFiles).
type mediaSavedMsg struct {
	seq    uint64
	items  []string
	paths  []string
	reused []bool
	err    error
}

// blockItem is a result block's mediaFiles key and file name: call-SEQ-block-N.
func blockItem(seq uint64, n int) string { return fmt.Sprintf("call-%d-block-%d", seq, n) }

// saveMedia writes each decoded block to a new file in dir, named after the response and
// the block: call-SEQ-block-N.png (never over an existing file). A block already written
// to known[item] (by O) keeps that file.
func saveMedia(dir string, seq uint64, infos []media.Info, nums []int, known mediaFiles) tea.Cmd {
	prev := make([]string, len(infos))
	for i := range infos {
		prev[i] = known[blockItem(seq, nums[i])]
	}
	return func() tea.Msg {
		msg := mediaSavedMsg{seq: seq}
		for i, in := range infos {
			item := blockItem(seq, nums[i])
			path, reused, err := writeOnce(prev[i], dir, item, in.Ext(), in.Data)
			if err != nil {
				msg.err = err
				return msg
			}
			msg.items, msg.paths, msg.reused = append(msg.items, item), append(msg.paths, path), append(msg.reused, reused)
		}
		return msg
	}
}

// writeNew writes data to dir/base+ext, or base-1+ext … when that exists; the absolute
// path is returned.
func writeNew(dir, base, ext string, data []byte) (string, error) {
	var f *os.File
	var err error
	for i := 0; i < 100; i++ {
		name := base + ext
		if i > 0 {
			name = fmt.Sprintf("%s-%d%s", base, i, ext)
		}
		f, err = platform.CreatePrivate(filepath.Join(dir, name), false)
		if !os.IsExist(err) {
			break
		}
	}
	if err != nil {
		return "", err
	}
	path := f.Name()
	if abs, aerr := filepath.Abs(path); aerr == nil {
		path = abs
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return path, err
}

// mediaSaved says where the blocks went, and remembers it for O.
func (m *model) mediaSaved(msg mediaSavedMsg) {
	for i, item := range msg.items {
		m.c.gfx.files.keep(item, msg.paths[i])
	}
	if msg.err != nil {
		m.note("error", fmt.Sprintf("result #%d: blocks not saved: %s", msg.seq, msg.err))
		return
	}
	shown := make([]string, len(msg.paths))
	for i, p := range msg.paths {
		shown[i] = p
		if msg.reused[i] {
			shown[i] += " (already there)"
		}
	}
	m.note("info", fmt.Sprintf("result #%d: %d decoded block(s) saved: %s", msg.seq, len(msg.paths), strings.Join(shown, ", ")))
}
