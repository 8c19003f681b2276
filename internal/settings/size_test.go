package settings

import (
	"strings"
	"testing"
)

// TestSessionsMaxSize: sessions_max_size takes a size with a unit or a number of bytes,
// and refuses what is not a size, is too small, or is of the wrong type, at its line and
// column.
func TestSessionsMaxSize(t *testing.T) {
	for _, tc := range []struct {
		file string
		want int64
	}{
		{`sessions_max_size = "1GiB"`, 1 << 30},
		{`sessions_max_size = "512 MiB"`, 512 << 20},
		{`sessions_max_size = "1.5GB"`, 1_500_000_000},
		{`sessions_max_size = "800m"`, 800_000_000},
		{`sessions_max_size = "2T"`, 2_000_000_000_000},
		{`sessions_max_size = 2147483648`, 2147483648},
		{`theme = "dark"`, 0},
	} {
		s, err := Parse("c.toml", []byte(tc.file+"\n"), testChecks())
		if err != nil || s.SessionsMaxSize != tc.want {
			t.Errorf("%s: got %d, %v; want %d", tc.file, s.SessionsMaxSize, err, tc.want)
		}
	}
	for _, tc := range []struct{ file, want string }{
		{"sessions_max_size = \"lots\"\n", `c.toml:1:21: sessions_max_size: want a size such as "1GiB", "500MB" or a number of bytes, got "lots"`},
		{"sessions_max_size = \"1e9\"\n", `c.toml:1:21: sessions_max_size: want a size`},
		{"sessions_max_size = \"-1GiB\"\n", `c.toml:1:21: sessions_max_size: want a size`},
		{"sessions_max_size = \"GiB\"\n", `c.toml:1:21: sessions_max_size: want a size`},
		{"sessions_max_size = 4096\n", `c.toml:1:21: sessions_max_size: must be at least 1MiB, got 4096`},
		{"sessions_max_size = \"0\"\n", `c.toml:1:21: sessions_max_size: must be at least 1MiB`},
		{"sessions_max_size = true\n", `c.toml:1:21: sessions_max_size: want a size such as "1GiB" or "500MB", got a boolean`},
		{"session_max_size = \"1GiB\"\n", `c.toml:1:1: unknown key "session_max_size" at the top level (did you mean "sessions_max_size"?)`},
	} {
		s, err := Parse("c.toml", []byte(tc.file), testChecks())
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %+v, %v; want an error starting %s", tc.file, s, err, tc.want)
		}
	}
}

// TestFormatSize: FormatSize writes what ParseSize reads back as the same number.
func TestFormatSize(t *testing.T) {
	for _, n := range []int64{1 << 30, 3 << 20, 1536 << 20, 5 << 40, 1000, 1<<20 + 1} {
		s := FormatSize(n)
		back, err := ParseSize(s)
		if err != nil || back != n {
			t.Errorf("FormatSize(%d) = %q, read back as %d (%v)", n, s, back, err)
		}
	}
	if got := FormatSize(1 << 30); got != "1GiB" {
		t.Errorf("FormatSize(1 GiB) = %q", got)
	}
}
