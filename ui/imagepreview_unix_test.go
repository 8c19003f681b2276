//go:build unix

package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
)

// O writes the picture to a file and starts the viewer on it; without a viewer the status
// line says so and where the file is.
func TestOpenPictureInViewer(t *testing.T) {
	dir := t.TempDir()
	opened := filepath.Join(dir, "opened")
	if err := platformtest.Mkfifo(opened); err != nil {
		t.Fatal(err)
	}
	viewer := filepath.Join(dir, "viewer")
	if err := os.WriteFile(viewer, []byte("#!/bin/sh\nprintf %s \"$1\" > "+opened+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	// The viewer writes the path it got into the fifo: reading it waits for the viewer
	// process, and only the deadline (a viewer that never ran) fails the test.
	read := make(chan []byte, 1)
	go func() {
		b, _ := os.ReadFile(opened)
		read <- b
	}()
	m := picModel(t, 100, 30, func(o *Options) { o.HistoryDir, o.Viewer = dir, viewer })
	keys(t, m, "O")
	mustContain(t, "status", m.flash.text, "opened ", ".png with "+viewer)
	var got []byte
	select {
	case got = <-read:
	case <-time.After(10 * time.Second):
		t.Fatal("the viewer did not run in 10 s")
	}
	pic, err := os.ReadFile(string(got))
	if err != nil || !bytes.Equal(pic, quadPNG(t)) {
		t.Errorf("the viewer got %q: %v (want the decoded PNG)", got, err)
	}

	m = picModel(t, 100, 30, func(o *Options) { o.HistoryDir, o.Viewer = dir, "no-such-viewer-for-mcp-inspect" })
	keys(t, m, "O")
	mustContain(t, "status", m.flash.text, "no system viewer: no-such-viewer-for-mcp-inspect is not on PATH", "the picture is saved at "+filepath.Join(dir, "frames"))
}
