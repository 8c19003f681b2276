package trace

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// countingWriter keeps what is written and counts the Write calls.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.Buffer.Write(p)
}

// TestHugeLineInPieces: a frame over pieceSize is written in pieces, never cutting a
// character (a U+2028 and a 4-byte character straddle each piece boundary, with quotes,
// a tab and a control byte around), and the line is byte for byte the one appendRecord
// makes in one piece.
func TestHugeLineInPieces(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"text":"`)
	for sb.Len() < 3*pieceSize+100 {
		// Put a multi-byte character right across the next piece boundary.
		pad := pieceSize - sb.Len()%pieceSize - 1
		sb.WriteString(strings.Repeat("a", max(pad, 0)))
		sb.WriteString("\u2028\"\t\x01\\😀")
	}
	sb.WriteString(`"}}` + "\n")
	raw := []byte(sb.String())
	ev := mcpclient.Event{Seq: 7, Time: time.Now(), Dir: mcpclient.ServerToClient, Kind: mcpclient.KindResponse, Raw: raw, Size: int64(len(raw))}
	var out countingWriter
	w, err := NewWriter(&out, Header{Tool: "test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	head := out.Len()
	out.writes = 0
	if err := w.Write(ev); err != nil {
		t.Fatal(err)
	}
	if out.writes < 3 {
		t.Errorf("a %d-byte frame was written in %d pieces, want at least 3", len(raw), out.writes)
	}
	got := out.Bytes()[head:]
	r := recordOf(&ev, w.start)
	want := appendRecord(nil, r, nil)
	if !bytes.Equal(got, want) {
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		t.Fatalf("the line written in pieces differs from the whole line at byte %d of %d/%d: %q vs %q", i, len(got), len(want), got[i:min(i+20, len(got))], want[i:min(i+20, len(want))])
	}
	if _, n := w.Count(); n != int64(out.Len()) {
		t.Errorf("the writer counts %d bytes, %d were written", n, out.Len())
	}
}
