package trace

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestClueSetStride holds the strided pass to a naive search of every clue at every
// position: clues of two to six bytes over a small alphabet (so they overlap and repeat),
// added in an order that makes the step shrink midway, at every place in texts of every
// length up to 40.
func TestClueSetStride(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const alphabet = "abc:/\\"
	word := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return b
	}
	for round := range 300 {
		var c clueSet
		var added []clue
		for range 1 + rng.IntN(5) {
			x := clue{word(2 + rng.IntN(5)), clueSecret << rng.IntN(2)}
			if round%3 == 0 && len(added) == 2 {
				x.s = word(2) // a two-byte clue after longer ones: the step drops to 1
			}
			c.addKind(x.s, x.kind)
			added = append(added, x)
		}
		c.build()
		for n := range 41 {
			for range 20 {
				text := word(n)
				var want uint8
				for _, x := range added {
					if bytes.Contains(text, x.s) {
						want |= x.kind
					}
				}
				if got := c.kinds(text); got != want {
					t.Fatalf("clues %q, step %d, text %q: kinds %b, want %b", added, c.step, text, got, want)
				}
			}
		}
	}
}
