package trace_test

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// writeSession records frames (client→server when c2s) into a new session of dir.
func writeSession(t *testing.T, dir string, start time.Time, argv []string, frames ...string) string {
	t.Helper()
	w, err := trace.CreateNew(trace.SessionPath(dir, start, 1), trace.Header{Tool: "test", Start: start, Argv: argv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range frames {
		dir := mcpclient.ServerToClient
		if f[0] == '>' {
			dir, f = mcpclient.ClientToServer, f[1:]
		}
		ev := mcpclient.Event{Seq: uint64(i + 1), Time: start.Add(time.Duration(i) * time.Second), Dir: dir, Raw: []byte(f)}
		if err := w.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.Path()
}

// TestSummarize: a session's summary has its server, start, duration, calls (tools/call
// requests) and violations; ListSessions lists sessions newest first and nothing else;
// past the budget the counts are partial.
func TestSummarize(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	p := writeSession(t, dir, start, []string{"srv", "--flag"},
		`>{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`,
		`>{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b"}}`,
		`>{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
		`not json at all`,
	)
	older := writeSession(t, dir, start.Add(-time.Hour), []string{"old"})
	os.WriteFile(dir+"/saved.jsonl", []byte("{}\n"), 0o600)
	list, err := trace.ListSessions(dir)
	if err != nil || !slices.Equal(list, []string{p, older}) {
		t.Fatalf("ListSessions = %v, %v; want newest first, sessions only", list, err)
	}
	s, err := trace.Summarize(p, 0)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := trace.Open(p)
	stats, _ := trace.ComputeStats(tr)
	tr.Close()
	problems := 0
	for _, n := range stats.Problems {
		problems += n
	}
	if !slices.Equal(s.Header.Argv, []string{"srv", "--flag"}) || !s.Header.Start.Equal(start) || s.Calls != 2 || s.Violations != problems || problems == 0 || s.Duration != 4*time.Second || s.Partial {
		t.Errorf("summary %+v; want srv, 2 calls, %d violations (trace stats), 4s, whole", s, problems)
	}
	st, _ := os.Stat(p)
	if s.Size != st.Size() {
		t.Errorf("size %d, file %d", s.Size, st.Size())
	}
	part, err := trace.Summarize(p, 300)
	if err != nil || !part.Partial || part.Calls > 1 || part.Size != st.Size() {
		t.Errorf("within 300 bytes: %+v, %v; want partial counts", part, err)
	}
	if _, err := trace.Summarize(dir+"/saved.jsonl", 0); err == nil {
		t.Error("a file that is not a trace summarized")
	}
}
