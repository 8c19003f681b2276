package settings

import (
	"fmt"
	"strings"
	"testing"
)

// deepKeyFile is a settings file of about size bytes: one dotted key a.a.a… = 1.
func deepKeyFile(size int) []byte {
	return []byte(strings.Repeat("a.", size/2) + "a = 1\n")
}

// deepTableFile is the same path as a table header, [a.a.a…], with a key under it.
func deepTableFile(size int) []byte {
	return []byte("[" + strings.Repeat("a.", size/2) + "a]\nb = 1\n")
}

// TestDeepKeyRefused: a key path deeper than MaxKeyDepth, however it is built (a dotted
// key of 200 KB, a table header, nested inline tables or arrays, a table and a dotted
// key together), is refused with the file, line and column where it goes too deep; a
// path of MaxKeyDepth parts is not (it is then just an unknown key).
func TestDeepKeyRefused(t *testing.T) {
	parts := func(n int) string { return strings.TrimSuffix(strings.Repeat("a.", n), ".") }
	for _, tc := range []struct {
		name, file, at string
	}{
		{"dotted key 200 KB", string(deepKeyFile(200 << 10)), "deep.toml:1:65:"},
		{"table header 200 KB", string(deepTableFile(200 << 10)), "deep.toml:1:66:"},
		{"table then key", "mouse = true\n[" + parts(20) + "]\n" + parts(13) + " = 1\n", "deep.toml:3:25:"},
		{"inline tables", "x = " + strings.Repeat("{a = ", 40) + "1" + strings.Repeat("}", 40) + "\n", "deep.toml:1:161:"},
		{"arrays", "x = " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\n", "deep.toml:1:5:"},
	} {
		_, err := Parse("deep.toml", []byte(tc.file), Checks{})
		if err == nil || !strings.HasPrefix(err.Error(), tc.at) || !strings.Contains(err.Error(), fmt.Sprintf("deeper than %d parts", MaxKeyDepth)) {
			t.Errorf("%s: %.200v; want an error at %s saying how deep a key may go", tc.name, err, tc.at)
		}
		if err != nil && len(err.Error()) > 300 {
			t.Errorf("%s: the error is %d bytes long", tc.name, len(err.Error()))
		}
	}
	_, err := Parse("deep.toml", []byte(parts(MaxKeyDepth)+" = 1\n"), Checks{})
	if err == nil || !strings.Contains(err.Error(), `unknown key "a"`) {
		t.Errorf("a key of %d parts: %v; want it read (an unknown key)", MaxKeyDepth, err)
	}
}

// BenchmarkParseDeepKey parses a file with one very deep dotted key (or table header) at
// 40 KB and 200 KB: the time per byte is about the same at both sizes, since the key
// positions are found in linear time and the key is refused at MaxKeyDepth.
func BenchmarkParseDeepKey(b *testing.B) {
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"key-40KB", deepKeyFile(40 << 10)},
		{"key-200KB", deepKeyFile(200 << 10)},
		{"table-40KB", deepTableFile(40 << 10)},
		{"table-200KB", deepTableFile(200 << 10)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.data)))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Parse("deep.toml", tc.data, Checks{})
			}
		})
	}
}
