package ui

import (
	"bytes"
	"fmt"
	"os"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// mediaFiles remembers the file each decoded picture or block was written to, by w (save)
// or O (open in the system viewer), so that the other key uses that file instead of
// writing a second copy, and says the same path. Keys name the item: "call-SEQ-block-N"
// for a result's block, "resource KEY#N" for a read resource's N-th content item (1-based).
// Update records paths from the messages the writes return; the writes only read it.
type mediaFiles map[string]string

// resourceItem is the mediaFiles key of the n-th content item (1-based) of the resource
// listed under key.
func resourceItem(key string, n int) string { return fmt.Sprintf("resource %s#%d", key, n) }

// keep records where item was written; an empty path (nothing written) is not kept.
func (f mediaFiles) keep(item, path string) {
	if item != "" && path != "" {
		f[item] = path
	}
}

// holds reports whether the file at path still holds exactly data (it may have been
// edited, replaced or deleted since it was written).
func holds(path string, data []byte) bool {
	if path == "" {
		return false
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() != int64(len(data)) {
		return false
	}
	got, err := os.ReadFile(path)
	return err == nil && bytes.Equal(got, data)
}

// writeOnce returns known when that file still holds data (reused), else writes data to a
// new file in dir (writeNew: base+ext, base-1+ext …).
func writeOnce(known, dir, base, ext string, data []byte) (path string, reused bool, err error) {
	if holds(known, data) {
		return known, true, nil
	}
	if err := platform.MkdirPrivate(dir); err != nil {
		return "", false, err
	}
	path, err = writeNew(dir, base, ext, data)
	return path, false, err
}
