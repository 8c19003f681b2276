package cmd

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/trace"
)

// replayUsage is replay's usage line, for its errors.
const replayUsage = "Usage: mcp-inspect replay TRACE [flags] [-- COMMAND [ARGS...] | URL]"

// recordedServer is the server to replay TRACE against when no COMMAND or URL is given: the
// one its header recorded, the URL of a remote server, else the command line, run in the
// recorded directory when --cwd is not given and that directory is still there. It says on
// stderr which it uses. The error says what to pass instead: the trace recorded no server,
// or recorded it with values masked (a token in an argument or a URL's userinfo), which
// cannot be run as written.
func (f *sessionFlags) recordedServer(h *trace.Header, tracePath string, stderr io.Writer) ([]string, error) {
	argv := h.Argv
	if h.URL != "" {
		argv = []string{h.URL}
	}
	if len(argv) == 0 || argv[0] == "" {
		return nil, fmt.Errorf("%s records no server command or URL: give the server to replay against after TRACE\n%s", tracePath, replayUsage)
	}
	quote := lineQuoting()
	for _, a := range argv {
		if strings.Contains(a, trace.Mask) {
			return nil, fmt.Errorf("%s records the server as %s, with values masked (%s), which cannot be run as written: give the server after TRACE, as -- COMMAND [ARGS...] or URL\n%s", tracePath, quote.Join(argv), trace.Mask, replayUsage)
		}
	}
	safe := stderrSafe(stderr)
	where := ""
	if h.URL == "" && f.cwd == "" && h.Cwd != "" {
		if st, err := os.Stat(h.Cwd); err == nil && st.IsDir() {
			f.cwd = h.Cwd
			where = " in " + h.Cwd
		} else {
			where = " in this directory (the recorded " + h.Cwd + " is gone)"
		}
	}
	fmt.Fprintf(stderr, "mcp-inspect: replaying against the server %s recorded: %s%s\n", tracePath, safe(quote.Join(argv)), safe(where))
	if len(h.Env) > 0 && len(f.env) == 0 {
		names := make([]string, len(h.Env))
		for i, kv := range h.Env {
			names[i], _, _ = strings.Cut(kv, "=")
		}
		fmt.Fprintf(stderr, "mcp-inspect: the recording gave it %s, whose values a trace does not keep: give them with -e if it needs them\n", safe(strings.Join(names, ", ")))
	}
	return argv, nil
}
