package hostconfig

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzParse: any bytes under any of the hosts' file names parse or fail without a panic,
// the same way every time (no map order leaks into the result), and every server found can
// be looked up by its name.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data, p)
		}
	}
	f.Add([]byte(`{"servers":{"a":{"type":"stdio","command":"x","env":{"B":"${env:B}","A":"1"},"envFile":"e"}},"inputs":[]}`), "/w/.vscode/mcp.json")
	f.Add([]byte(`{"mcpServers":{"h":{"url":"https://x/mcp","headers":{"Authorization":"Bearer ${T}"}}}}`), "/w/.cursor/mcp.json")
	opt := Options{Home: "/home/me", LookupEnv: func(k string) (string, bool) { return "v-" + k, k != "UNSET" }}
	f.Fuzz(func(t *testing.T, data []byte, path string) {
		a, errA := Parse(data, path, opt)
		b, errB := Parse(data, path, opt)
		if (errA == nil) != (errB == nil) || (errA == nil && !reflect.DeepEqual(a, b)) {
			t.Fatalf("two parses differ:\n%+v %v\n%+v %v", a, errA, b, errB)
		}
		if errA != nil {
			return
		}
		for _, s := range a.Servers {
			got, err := a.Lookup(s.Name)
			if err != nil || got.Name != s.Name {
				t.Fatalf("Lookup(%q) = %+v, %v", s.Name, got, err)
			}
		}
	})
}
