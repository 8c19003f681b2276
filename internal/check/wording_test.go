package check_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/check"
)

// TestFirstIDZeroTimeoutSaysWhy: with --first-id 0 against a server that drops id 0, the
// unanswered initialize says it carried id 0 because of the flag.
func TestFirstIDZeroTimeoutSaysWhy(t *testing.T) {
	t.Parallel()
	opt := fakeOptions(t, "drop-id-0")
	opt.Server.FirstIDZero = true
	opt.Server.Timeout = 500 * time.Millisecond
	rep, _ := check.Run(context.Background(), opt)
	res := rep.Result("init-responds")
	if res.Status != check.StatusFail || len(res.Findings) == 0 || !strings.Contains(res.Findings[0].Text, "initialize carried id 0 because of --first-id 0") {
		t.Fatalf("init-responds: %s %+v", res.Status, res.Findings)
	}
}

// TestReportSessionCount: the summary line says "1 session", not "1 sessions".
func TestReportSessionCount(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{1: " 1 session)", 2: " 2 sessions)"} {
		rep := &check.Report{Sessions: make([]check.Session, n)}
		var out bytes.Buffer
		rep.Human(&out, func(s string) string { return s })
		if !strings.Contains(out.String(), want) {
			t.Errorf("%d sessions: %q lacks %q", n, out.String(), want)
		}
	}
}
