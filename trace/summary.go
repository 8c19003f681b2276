package trace

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// SummaryBudget is how many bytes of a trace Summarize reads to count calls and
// violations (2 MiB): the header is always read; past the budget the counts cover the
// first SummaryBudget bytes only (Partial), so listing 20 sessions reads at most 40 MiB
// whatever their sizes.
const SummaryBudget int64 = 2 << 20

// SessionSummary is what the session picker shows of one kept trace.
type SessionSummary struct {
	// Path is the trace's path; Header its first line.
	Path   string
	Header Header
	// Size is the file's size in bytes; Modified its last write.
	Size     int64
	Modified time.Time
	// Duration is from the first event to the last (when Partial: from the header's
	// start to the file's last write).
	Duration time.Duration
	// Calls counts the tools/call requests sent; Violations the protocol problems found
	// (warnings and errors, as trace stats counts them).
	Calls, Violations int
	// Partial is set when the counts cover the first SummaryBudget bytes only.
	Partial bool
}

// ListSessions are the automatic recordings (session-*.jsonl) of dir, newest first (by
// start time, the name). A missing dir is no error: no sessions.
func ListSessions(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if e.Type().IsRegular() && strings.HasPrefix(n, sessionPrefix) && strings.HasSuffix(n, ".jsonl") {
			out = append(out, filepath.Join(dir, n))
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(out)))
	return out, nil
}

// Summarize reads the header of the trace at path and at most budget bytes of its events
// (budget <= 0: SummaryBudget). Errors are those of Open on the header.
func Summarize(path string, budget int64) (SessionSummary, error) {
	if budget <= 0 {
		budget = SummaryBudget
	}
	s := SessionSummary{Path: path}
	f, err := os.Open(path)
	if err != nil {
		return s, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return s, err
	}
	s.Size, s.Modified = st.Size(), st.ModTime()
	n := min(s.Size, budget)
	s.Partial = n < s.Size
	t, err := OpenReader(io.NewSectionReader(f, 0, n), n)
	if err != nil {
		return s, err
	}
	s.Header = t.Header
	stats, err := ComputeStats(t)
	if err != nil {
		return s, err
	}
	for _, p := range stats.Problems {
		s.Violations += p
	}
	for _, m := range stats.Methods {
		if m.Dir == mcpclient.ClientToServer.String() && m.Kind == "request" && m.Method == "tools/call" {
			s.Calls += m.Count
		}
	}
	s.Duration = stats.Duration
	if s.Partial {
		s.Duration = max(s.Modified.Sub(s.Header.Start), 0)
	}
	return s, nil
}
