package ui

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// #14 §3: an image block shows its pixel dimensions; w on a result with image or audio
// blocks saves each decoded (call-SEQ-block-N.png, .wav), not the JSON frame.
func TestResultMediaDimensionsAndSave(t *testing.T) {
	var pngBuf bytes.Buffer
	if err := png.Encode(&pngBuf, image.NewGray(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	wav := []byte("RIFF\x04\x00\x00\x00WAVE")
	dir := t.TempDir()
	m, s := formModel(t, 120, 50, dir, inlineTool("pic", `{"type":"object"}`))
	s.result = &mcpclient.CallToolResult{Content: []mcpclient.ContentBlock{
		{Type: "text", Text: "two files"},
		{Type: "image", MimeType: "image/png", Data: base64.StdEncoding.EncodeToString(pngBuf.Bytes())},
		{Type: "audio", MimeType: "audio/wav", Data: base64.StdEncoding.EncodeToString(wav)},
	}}
	keys(t, m, "ctrl+s")
	all := strings.Join(m.call.lines, "\n")
	for _, want := range []string{"[2] image", "pixels: 3×2 (png)", "[3] audio", "size: 12B decoded (12 bytes)"} {
		if !strings.Contains(all, want) {
			t.Errorf("result lacks %q\n%s", want, all)
		}
	}
	keys(t, m, "w")
	saved := filepath.Join(dir, "frames")
	for name, want := range map[string][]byte{"-block-2.png": pngBuf.Bytes(), "-block-3.wav": wav} {
		matches, _ := filepath.Glob(filepath.Join(saved, "call-*"+name))
		if len(matches) != 1 {
			entries, _ := os.ReadDir(saved)
			t.Fatalf("no single call-*%s in %s: %v", name, saved, entries)
		}
		got, err := os.ReadFile(matches[0])
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s holds %q (%v), want the decoded bytes", matches[0], got, err)
		}
	}
	if jsonl, _ := filepath.Glob(filepath.Join(saved, "*.jsonl")); len(jsonl) != 0 {
		t.Errorf("the JSON frame was saved too: %v", jsonl)
	}
}
