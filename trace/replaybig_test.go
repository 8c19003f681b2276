package trace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestReplayBigResponseReadBack: a recorded response over 1 MiB is not held while the new
// session runs but read back from the trace when it is compared (issue 26): the same
// result replays the same, a recorded result changed in the trace file is a difference at
// its path with both values whole in the JSON report.
func TestReplayBigResponseReadBack(t *testing.T) {
	t.Parallel()
	const n = 2 << 20
	s := record(t, fakeConfig(t, "b03"), nil, func(ctx context.Context, c *mcpclient.Client) {
		c.Initialize(ctx)
		c.CallTool(ctx, "big", json.RawMessage(`{"bytes":2097152}`))
	})
	if rep := replay(t, openTrace(t, s.path), fakeConfig(t, "b03")); !rep.OK() || rep.Same != 2 {
		t.Fatalf("the same big result does not replay the same:\n%s", reportText(rep))
	}

	data := readFile(t, s.path)
	run := bytes.Repeat([]byte("x"), n)
	at := bytes.Index(data, run)
	if at < 0 {
		t.Fatal("the recorded result is not in the trace")
	}
	changed := bytes.Clone(data)
	changed[at+n/2] = 'y'
	path := t.TempDir() + "/changed.jsonl"
	if err := os.WriteFile(path, changed, 0o600); err != nil {
		t.Fatal(err)
	}
	rep := replay(t, openTrace(t, path), fakeConfig(t, "b03"))
	if rep.OK() || !strings.Contains(reportText(rep), "$.result.content[0].text") {
		t.Fatalf("a changed big result replayed without its path:\n%s", reportText(rep))
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Items []struct {
			Diffs []struct{ Path, Recorded, Got string }
		}
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatalf("the JSON report does not parse: %v", err)
	}
	found := false
	for _, it := range back.Items {
		for _, d := range it.Diffs {
			if d.Path == "$.result.content[0].text" && len(d.Recorded) == n && len(d.Got) == n && d.Recorded[n/2] == 'y' && d.Got == string(run) {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("the JSON report lacks the whole values of the difference")
	}

}
