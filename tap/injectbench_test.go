package tap

import (
	"bytes"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"
)

// injectBlock is how many round trips each peer makes in a row in
// BenchmarkInjectInterleaved.
const injectBlock = 100

// BenchmarkInjectInterleaved is BenchmarkRoundTripInject with the peers interleaved in one
// run: all five are started, and each iteration of the benchmark is one round trip on
// each, in blocks of injectBlock round trips per peer, the peers' order shuffled each block.
// Run one after the other, the later peers ran on a machine the earlier ones had warmed (or
// loaded): a rule-less tap measured after another came out about 10 % faster. The ratios
// are what the target reads: inject-vs-tap is what the tap with three rules that
// match nothing adds at p50 over what the tap without rules adds, break-vs-attached the same
// for an attach's three breakpoints; tap-vs-tap, a second tap without rules over the first,
// is the noise of such a ratio. MI_INJECT_BLOCK sets the block.
func BenchmarkInjectInterleaved(b *testing.B) {
	rules := benchRules(b)
	line := benchLine()
	peers := []*echoPeer{
		directCat(b),
		tappedCat(b),
		tappedRules(b, nil, rules, catArgv()...),
		tappedAttached(b, false),
		tappedBreakpoints(b),
		tappedCat(b),
	}
	defer func() {
		for _, p := range peers {
			p.stop()
		}
	}()
	buf := make([]byte, len(line))
	for _, p := range peers {
		for range 200 { // warm up
			if err := p.roundTrip(line, buf); err != nil {
				b.Fatal(err)
			}
		}
	}
	lat := make([][]time.Duration, len(peers))
	order := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 29))
	perm := []int{0, 1, 2, 3, 4, 5}
	block := injectBlock
	if v, err := strconv.Atoi(os.Getenv("MI_INJECT_BLOCK")); err == nil && v > 0 {
		block = v
	}
	n := max(b.N, block)
	b.ResetTimer()
	for done := 0; done < n; done += block {
		order.Shuffle(len(perm), func(x, y int) { perm[x], perm[y] = perm[y], perm[x] })
		for _, j := range perm {
			for range min(block, n-done) {
				t0 := time.Now()
				if err := peers[j].roundTrip(line, buf); err != nil {
					b.Fatal(err)
				}
				lat[j] = append(lat[j], time.Since(t0))
			}
		}
	}
	b.StopTimer()
	p50 := make([]float64, len(peers))
	for i, d := range lat {
		sort.Slice(d, func(x, y int) bool { return d[x] < d[y] })
		p50[i] = float64(pct(d, .5).Nanoseconds())
	}
	added := func(i int) float64 { return p50[i] - p50[0] }
	b.ReportMetric(p50[0], "direct-p50-ns")
	b.ReportMetric(added(1), "tap-added-ns")
	b.ReportMetric(added(2)/added(1), "inject-vs-tap")
	b.ReportMetric(added(4)/added(3), "break-vs-attached")
	b.ReportMetric(added(3)/added(1), "attached-vs-tap")
	b.ReportMetric(added(5)/added(1), "tap-vs-tap")
}

// benchRules are three --inject rules that match nothing benchLine's round trip sends.
func benchRules(tb testing.TB) []Rule {
	return mustRules(tb, "method:tools/call => delay 2s", "dir:in kind:error => drop", "tool:delete_* => error -32000 no")
}

// benchLine is a 200-byte tools/list request, newline included (cat sends it back).
func benchLine() []byte {
	line := []byte(`{"jsonrpc":"2.0","id":12,"method":"tools/list","params":{"cursor":"`)
	return append(append(line, bytes.Repeat([]byte("c"), 200-len(line)-4)...), `"}}`+"\n"...)
}
