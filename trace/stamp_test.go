package trace

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestWallStamp holds the cached stamp to time.RFC3339Nano's text, through second, minute,
// day and year boundaries, whole seconds, one-nanosecond fractions, times outside 0000 to
// 9999, and times in other zones.
func TestWallStamp(t *testing.T) {
	var st wallStamp
	base := time.Date(2026, 12, 31, 23, 59, 58, 999_999_000, time.UTC)
	times := []time.Time{
		{}, base, base.Add(time.Microsecond), base.Add(time.Second), base.Add(2 * time.Second),
		time.Date(2026, 12, 6, 5, 55, 34, 0, time.UTC), time.Date(2026, 12, 6, 5, 55, 34, 1, time.UTC),
		time.Date(2026, 12, 6, 5, 55, 34, 100_000_000, time.UTC),
		time.Date(-3, 1, 1, 0, 0, 0, 5, time.UTC), time.Date(12026, 1, 1, 0, 0, 0, 5, time.UTC),
		time.Date(2026, 12, 6, 5, 55, 34, 123, time.FixedZone("x", 5*3600+1800)),
		time.Now(), time.Now().Add(time.Hour),
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		times = append(times, base.Add(time.Duration(rng.Int64N(int64(72*time.Hour)))-36*time.Hour))
		times = append(times, times[len(times)-1].Add(time.Duration(rng.Int64N(int64(time.Second)))))
	}
	for _, tm := range times {
		want := tm.UTC().Format(time.RFC3339Nano)
		if got := string(st.append(nil, tm)); got != want {
			t.Fatalf("%v: stamp %q, want %q", tm, got, want)
		}
		if got := string((*wallStamp)(nil).append(nil, tm)); got != want {
			t.Fatalf("%v: stamp without a cache %q, want %q", tm, got, want)
		}
	}
}
