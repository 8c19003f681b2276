package mcpclient

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"
)

// pullFrames frames the chunks with a pull-mode Framer.
func pullFrames(chunks [][]byte, max int) []Frame {
	fr := NewFramer(&chunkReader{chunks: append([][]byte(nil), chunks...)}, max)
	var out []Frame
	for {
		f, err := fr.Next()
		if err != nil {
			return out
		}
		out = append(out, f)
	}
}

// pushFrames frames the chunks with a push-mode Framer, one Feed per chunk.
func pushFrames(chunks [][]byte, max int) []Frame {
	var out []Frame
	emit := func(f Frame) {
		f.Raw = bytes.Clone(f.Raw) // lent: valid only during emit
		out = append(out, f)
	}
	fr := NewPushFramer(max)
	for _, c := range chunks {
		fr.Feed(c, emit)
	}
	fr.End(emit)
	fr.Feed([]byte("after the end\n"), emit) // ignored
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

func sameFrames(t *testing.T, what string, got, want []Frame) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d frames, the pull mode gives %d", what, len(got), len(want))
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
			t.Fatalf("%s: frame %d: raw %.60q, the pull mode's %.60q", what, i, g.Raw, w.Raw)
		}
		g.Raw, w.Raw = nil, nil
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("%s: frame %d differs:\n got  %+v\n want %+v", what, i, g, w)
		}
	}
}

// TestPushMatchesPull: for every way of cutting a stream into reads, the push mode (the
// tap's) gives exactly the frames the pull mode gives, oversize and partial frames and
// chunk marks included.
func TestPushMatchesPull(t *testing.T) {
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
		for _, max := range []int{DefaultMaxMessage, 1000, 70_000} {
			for _, maxChunk := range []int{1, 7, 4096, 64 << 10} {
				if maxChunk == 1 && len(in) > 20_000 {
					continue
				}
				chunks := cut(in, r, maxChunk)
				sameFrames(t, "input "+string(rune('A'+i)), pushFrames(chunks, max), pullFrames(chunks, max))
			}
		}
	}
}

// FuzzPushFramer compares the push and pull modes on arbitrary bytes and cuts.
func FuzzPushFramer(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\"}\nabc\r\n\n"), uint64(1), uint16(5), uint16(100))
	f.Add([]byte("no newline"), uint64(2), uint16(1), uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64, maxChunk, max uint16) {
		r := rand.New(rand.NewPCG(seed, 0))
		chunks := cut(data, r, int(maxChunk%4096)+1)
		m := int(max) + 1
		sameFrames(t, "fuzz", pushFrames(chunks, m), pullFrames(chunks, m))
	})
}
