package mcpclient

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestContentBlockRawOfHugeBlocks: a text block over MaxRawBlock keeps its text but not a
// second copy of its bytes; smaller blocks, and blocks whose fields do not hold their
// content (an unknown type), keep Raw exactly as received.
func TestContentBlockRawOfHugeBlocks(t *testing.T) {
	big := strings.Repeat("x", MaxRawBlock+1)
	cases := []struct {
		name    string
		block   string
		wantRaw bool
	}{
		{"small text", `{"type":"text","text":"hi"}`, true},
		{"huge text", `{"type":"text","text":"` + big + `"}`, false},
		{"huge image", `{"type":"image","mimeType":"image/png","data":"` + big + `"}`, false},
		{"huge unknown type", `{"type":"sparkle","x":"` + big + `"}`, true},
		{"huge resource", `{"type":"resource","resource":{"uri":"a:b","text":"` + big + `"}}`, true},
	}
	for _, c := range cases {
		var b ContentBlock
		if err := json.Unmarshal([]byte(c.block), &b); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := b.Raw != nil; got != c.wantRaw {
			t.Errorf("%s: Raw kept %v, want %v", c.name, got, c.wantRaw)
		}
		if c.wantRaw && string(b.Raw) != c.block {
			t.Errorf("%s: Raw is not the block as received", c.name)
		}
		if b.Type == "text" && len(b.Text) != len(big) && c.name == "huge text" {
			t.Errorf("%s: text of %d bytes, want %d", c.name, len(b.Text), len(big))
		}
	}
}
