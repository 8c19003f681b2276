package settings

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// minSessionsSize is the least sessions_max_size accepted (1 MiB): less would prune every
// session but the running one at once, which is surely a unit forgotten.
const minSessionsSize = 1 << 20

// size reads an optional size at key: a string such as "1GiB", "512MiB", "500MB", "2G"
// (K, M, G, T with or without B are powers of 1000; KiB, MiB, GiB, TiB powers of 1024) or
// an integer number of bytes. It must be at least minSessionsSize.
func (r *reader) size(doc map[string]any, key string) (int64, error) {
	v, ok := doc[key]
	if !ok {
		return 0, nil
	}
	var n int64
	switch v := v.(type) {
	case int64:
		n = v
	case string:
		var err error
		if n, err = ParseSize(v); err != nil {
			return 0, r.errAt([]string{key}, "%v", err)
		}
	default:
		return 0, r.errAt([]string{key}, "want a size such as \"1GiB\" or \"500MB\", got %s", kind(v))
	}
	if n < minSessionsSize {
		return 0, r.errAt([]string{key}, "must be at least 1MiB, got %v", v)
	}
	return n, nil
}

// sizeUnit is a unit ParseSize takes, in lower case, and its bytes.
type sizeUnit struct {
	name string
	mult float64
}

// sizeUnits are the units ParseSize takes, longest first so "MiB" is not read as "B".
func sizeUnits() []sizeUnit {
	return []sizeUnit{
		{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
		{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
		{"k", 1e3}, {"m", 1e6}, {"g", 1e9}, {"t", 1e12}, {"b", 1},
	}
}

// ParseSize reads a size in bytes written as a number and an optional unit: "1GiB",
// "1.5 GB", "512MiB", "800M", "4096" (KiB, MiB, GiB, TiB are powers of 1024; K, M, G, T,
// with or without B, powers of 1000; case is ignored).
func ParseSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := 1.0
	for _, u := range sizeUnits() {
		if rest, ok := strings.CutSuffix(t, u.name); ok {
			t, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || t == "" || strings.ContainsAny(t, "enx_+") || f < 0 {
		return 0, fmt.Errorf("want a size such as \"1GiB\", \"500MB\" or a number of bytes, got %q", s)
	}
	b := f * mult
	if b >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return int64(b), nil
}

// FormatSize writes n bytes the way ParseSize reads them back: in the largest binary unit
// that divides it, else in bytes.
func FormatSize(n int64) string {
	for _, u := range []struct {
		name string
		mult int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.mult && n%u.mult == 0 {
			return strconv.FormatInt(n/u.mult, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}
