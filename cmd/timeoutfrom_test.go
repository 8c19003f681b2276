package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTimeoutSaysWhereItCameFrom: a timeout that a settings profile or the settings file
// gave is named with its source in the timeout message (the flag still changes it); with
// --timeout the message stays short. With --first-id 0 the unanswered initialize says it
// carried id 0 because of the flag.
func TestTimeoutSaysWhereItCameFrom(t *testing.T) {
	t.Parallel()
	cfgHome := t.TempDir()
	file := filepath.Join(cfgHome, "mcp-inspect", "config.toml")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	argv := fakeArgv(t, "drop-id-0")
	body := "timeout = \"500ms\"\n[servers.slow]\ncommand = " + tomlString(argv[0]) + "\nargs = [\"--scenario\", \"drop-id-0\"]\ntimeout = \"400ms\"\n"
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"XDG_CONFIG_HOME=" + cfgHome}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ping", "--first-id", "0", "--server", "slow"}, "(timeout 400ms from profile slow in " + file + "; --timeout changes it)"},
		{cmdline([]string{"ping", "--first-id", "0"}, argv), "(timeout 500ms from the settings file " + file + "; --timeout changes it)"},
		{cmdline([]string{"ping", "--first-id", "0", "--timeout", "300ms"}, argv), "(timeout; --timeout changes it)"},
	} {
		r := inspect(t, env, c.args...)
		wantCode(t, r, exitTimeout)
		if !strings.Contains(r.stderr, c.want) || !strings.Contains(r.stderr, "initialize carried id 0 because of --first-id 0") {
			t.Errorf("%q: stderr %q, want %q", c.args, r.stderr, c.want)
		}
	}
}
