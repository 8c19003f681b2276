package mcpclient

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFramerLongFramesInBlocks: frames longer than blockSize, assembled in blocks, come out
// whole and exactly sized (one allocation of the frame's size, not a grown slice), in both
// modes and however the reads cut them: a one-line frame, a pretty-printed value with a long
// line and one of many short lines, a Content-Length frame, and an oversize frame that keeps
// its head.
func TestFramerLongFramesInBlocks(t *testing.T) {
	long := func(n int) string { return strings.Repeat("é", n/2) } // 2-byte characters
	one := `{"jsonrpc":"2.0","id":1,"result":{"text":"` + long(3*blockSize+blockSize/2) + `"}}` + "\n"
	pretty := "{\n  \"jsonrpc\": \"2.0\",\n  \"text\": \"" + long(2*blockSize+5) + "\",\n  \"id\": 2\n}\n"
	var many strings.Builder
	many.WriteString("[\n")
	for many.Len() < 3*blockSize {
		many.WriteString(`  {"a": "` + strings.Repeat("z", 200) + "\"},\n")
	}
	many.WriteString("  1\n]\n")
	body := `{"jsonrpc":"2.0","method":"m","params":{"x":"` + long(2*blockSize+blockSize/3) + `"}}`
	header := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
	short := "{\"jsonrpc\":\"2.0\",\"method\":\"after\"}\n"
	frames := []string{one, short, pretty, short, many.String(), header, short}
	stream := []byte(strings.Join(frames, ""))
	r := rand.New(rand.NewPCG(3, 4))
	for _, maxChunk := range []int{4096, 64 << 10} {
		chunks := cut(stream, r, maxChunk)
		pull := pullFrames(chunks, 0)
		sameFrames(t, fmt.Sprintf("reads of up to %d", maxChunk), pushFrames(chunks, 0), pull)
		if len(pull) != len(frames) {
			t.Fatalf("reads of up to %d: %d frames, want %d", maxChunk, len(pull), len(frames))
		}
		for i, f := range pull {
			if string(f.Raw) != frames[i] || f.Size != int64(len(frames[i])) || f.Oversize {
				t.Fatalf("reads of up to %d: frame %d is %d bytes (size %d, oversize %v), want %d: %.40q", maxChunk, i, len(f.Raw), f.Size, f.Oversize, len(frames[i]), f.Raw)
			}
			if len(f.Raw) > blockSize && cap(f.Raw) != len(f.Raw) {
				t.Errorf("reads of up to %d: frame %d of %d bytes sits in a slice of %d", maxChunk, i, len(f.Raw), cap(f.Raw))
			}
		}
	}
	// Over the limit in the middle of its blocks: the head is kept, the size counted.
	limit := 2 * blockSize
	over := pullFrames(cut(stream, r, 64<<10), limit)
	if len(over) != len(frames) || !over[0].Oversize || over[0].Size != int64(len(one)) || !bytes.Equal(over[0].Raw, []byte(one[:oversizeHead])) {
		t.Fatalf("oversize: %d frames, the first oversize %v, size %d, head %.40q", len(over), over[0].Oversize, over[0].Size, over[0].Raw)
	}
	if string(over[1].Raw) != short {
		t.Fatalf("the frame after an oversize one: %.60q", over[1].Raw)
	}
}
