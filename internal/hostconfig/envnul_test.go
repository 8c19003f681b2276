package hostconfig

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestEnvNULSkipped: an envFile line and an "env" value holding a NUL byte (which no
// environment entry can hold, so the server would not start) are skipped, each with a note
// (the file's entry by file:line); every other entry is kept and the envFile is read to
// its end.
func TestEnvNULSkipped(t *testing.T) {
	dir := t.TempDir()
	ef := filepath.Join(dir, "server.env")
	if err := os.WriteFile(ef, []byte("A=1\nBAD=x\x00y\nC=3\nexport D=\"4\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "mcp.json")
	doc := `{"mcpServers": {"x": {"command": "srv", "envFile": "server.env", "env": {"E": "5", "F": "a\u0000b", "C": "c\u0000"}}}}`
	f, err := Parse([]byte(doc), cfg, Options{LookupEnv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	s := server(t, f, "x")
	if want := []string{"A=1", "C=3", "D=4", "E=5"}; !reflect.DeepEqual(s.Env, want) {
		t.Errorf("env %q, want %q", s.Env, want)
	}
	for _, want := range []string{
		"envFile: " + ef + `:2: "BAD" holds a NUL byte, which no environment entry can: skipped`,
		`env "F" holds a NUL byte, which no environment entry can: skipped`,
		`env "C" holds a NUL byte`,
	} {
		if !hasNote(s.Notes, want) {
			t.Errorf("notes lack %q: %q", want, s.Notes)
		}
	}
}
