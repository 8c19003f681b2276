package tap

import (
	"bytes"
	"io"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// chunkReader returns its chunks one per Read, as a pipe would.
type chunkReader struct{ chunks [][]byte }

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.chunks[0])
	if n < len(c.chunks[0]) {
		c.chunks[0] = c.chunks[0][n:]
	} else {
		c.chunks = c.chunks[1:]
	}
	return n, nil
}

// framerFrames frames the chunks with mcpclient.Framer.
func framerFrames(chunks [][]byte, max int) []mcpclient.Frame {
	fr := mcpclient.NewFramer(&chunkReader{chunks: append([][]byte(nil), chunks...)}, max)
	var out []mcpclient.Frame
	for {
		f, err := fr.Next()
		if err != nil {
			return out
		}
		out = append(out, f)
	}
}

// splitterFrames frames the chunks with the tap's splitter.
func splitterFrames(chunks [][]byte, max int) []mcpclient.Frame {
	var out []mcpclient.Frame
	sp := &splitter{dir: mcpclient.ClientToServer, max: max, emit: func(f mcpclient.Frame) {
		f.Raw = bytes.Clone(f.Raw) // only valid during emit
		out = append(out, f)
	}}
	for _, c := range chunks {
		sp.push(c)
	}
	sp.end()
	return out
}

// cut splits data into chunks of at most 64 KiB (a pipe read) at the given points.
func cut(data []byte, r *rand.Rand, maxChunk int) [][]byte {
	var chunks [][]byte
	for len(data) > 0 {
		n := 1 + r.IntN(min(maxChunk, len(data)))
		chunks = append(chunks, data[:n])
		data = data[n:]
	}
	return chunks
}

func sameFrames(t *testing.T, what string, got, want []mcpclient.Frame) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d frames, Framer gives %d", what, len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if len(g.Chunks) == 0 {
			g.Chunks = nil
		}
		if len(w.Chunks) == 0 {
			w.Chunks = nil
		}
		if !bytes.Equal(g.Raw, w.Raw) {
			t.Fatalf("%s: frame %d: raw %.60q, Framer's %.60q", what, i, g.Raw, w.Raw)
		}
		g.Raw, w.Raw = nil, nil
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("%s: frame %d differs:\n got  %+v\n want %+v", what, i, g, w)
		}
	}
}

// TestSplitterMatchesFramer: for every way of cutting a stream into reads, the tap's
// push-mode splitter gives exactly the frames mcpclient.Framer gives, oversize and partial
// frames and chunk marks included.
func TestSplitterMatchesFramer(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	inputs := [][]byte{
		[]byte("{\"a\":1}\n{\"b\":2}\r\n\n\nnot json\n"),
		[]byte("tail without newline"),
		bytes.Repeat([]byte("x"), 200_000),
		append(bytes.Repeat([]byte("y"), 150_000), "\nshort\n"...),
		[]byte(""),
	}
	for range 20 {
		var b []byte
		for range 1 + r.IntN(40) {
			b = append(b, bytes.Repeat([]byte{byte('a' + r.IntN(26))}, r.IntN(3000))...)
			if r.IntN(4) > 0 {
				b = append(b, '\n')
			}
		}
		inputs = append(inputs, b)
	}
	for i, in := range inputs {
		for _, max := range []int{mcpclient.DefaultMaxMessage, 1000, 70_000} {
			for _, maxChunk := range []int{1, 7, 4096, 64 << 10} {
				if maxChunk == 1 && len(in) > 20_000 {
					continue
				}
				chunks := cut(in, r, maxChunk)
				sameFrames(t, "input "+string(rune('A'+i)), splitterFrames(chunks, max), framerFrames(chunks, max))
			}
		}
	}
}

// FuzzSplitter compares the splitter with mcpclient.Framer on arbitrary bytes and cuts.
func FuzzSplitter(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\"}\nabc\r\n\n"), uint64(1), uint16(5), uint16(100))
	f.Add([]byte("no newline"), uint64(2), uint16(1), uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64, maxChunk, max uint16) {
		r := rand.New(rand.NewPCG(seed, 0))
		chunks := cut(data, r, int(maxChunk%4096)+1)
		m := int(max) + 1
		sameFrames(t, "fuzz", splitterFrames(chunks, m), framerFrames(chunks, m))
	})
}
