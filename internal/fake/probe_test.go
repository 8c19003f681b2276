package fake

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// The probe scenarios play servers that an --era auto probe (server/discover) meets: slow to
// start, slow to answer the probe, or never answering it.

const discoverReq = `{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`

// slow-start reads nothing for FAKE_START_MS, then answers the probe with a DiscoverResult.
func TestProbeSlowStart(t *testing.T) {
	t.Parallel()
	start := time.Now()
	p := scenario(t, "slow-start", EnvStartMS+"=300")
	p.send(discoverReq)
	var got taskLine
	if err := json.Unmarshal([]byte(p.line()), &got); err != nil || string(got.ID) != `"d"` || got.Result["supportedVersions"] == nil {
		t.Fatalf("discover answer %+v (%v)", got, err)
	}
	if took := time.Since(start); took < 300*time.Millisecond {
		t.Errorf("answered after %s, before FAKE_START_MS", took)
	}
	if e := p.wait(true); e.code != 0 || p.stderr.String() != "" {
		t.Errorf("exit %d, stderr %q (slow-start is silent)", e.code, p.stderr.String())
	}
}

// probe-late-*: the banner comes at once; initialize, sent after the probe, is answered
// before the late probe answer.
func TestProbeLate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		modern bool
	}{{"probe-late-legacy", false}, {"probe-late-modern", true}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := scenario(t, tc.name, EnvDiscoverMS+"=300")
			p.send(discoverReq)
			p.send(initReq)
			if l := p.line(); !strings.HasPrefix(l, `{"jsonrpc":"2.0","id":1,"result":`) {
				t.Fatalf("first line %q, want the initialize answer", l)
			}
			// The banner is on another pipe: nothing orders it before the stdout line above.
			if got := p.stderrUntil("starting"); !strings.Contains(got, "starting") {
				t.Errorf("no banner on stderr: %q", got)
			}
			var late taskLine
			if err := json.Unmarshal([]byte(p.line()), &late); err != nil || string(late.ID) != `"d"` {
				t.Fatalf("late answer %+v (%v)", late, err)
			}
			if tc.modern && late.Result["supportedVersions"] == nil {
				t.Errorf("want a DiscoverResult, got %+v", late)
			}
			if !tc.modern && (late.Error == nil || late.Error.Code != -32601) {
				t.Errorf("want -32601, got %+v", late)
			}
			if e := p.wait(true); e.code != 0 {
				t.Errorf("exit %d", e.code)
			}
		})
	}
}

// probe-silent never answers server/discover and writes nothing else.
func TestProbeSilent(t *testing.T) {
	t.Parallel()
	p := scenario(t, "probe-silent")
	p.send(discoverReq)
	p.exchange(`{"jsonrpc":"2.0","id":2,"method":"ping"}`, `{"jsonrpc":"2.0","id":2,"result":{}}`)
	if e := p.wait(true); e.code != 0 || e.stdout != "" || p.stderr.String() != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", e.code, e.stdout, p.stderr.String())
	}
}

// probe-banner-slow: banner first, then silence; once it has answered server/discover it
// refuses initialize, as the go-sdk's dual-era server does.
func TestProbeBannerSlow(t *testing.T) {
	t.Parallel()
	p := scenario(t, "probe-banner-slow", EnvStartMS+"=200")
	p.send(discoverReq)
	p.send(initReq)
	var got taskLine
	if err := json.Unmarshal([]byte(p.line()), &got); err != nil || string(got.ID) != `"d"` || got.Result["supportedVersions"] == nil {
		t.Fatalf("discover answer %+v (%v)", got, err)
	}
	p.expect(`{"jsonrpc":"2.0","id":1,"error":{"code":0,"message":"duplicate \"initialize\" received"}}`)
	if got := p.stderrUntil("starting"); !strings.Contains(got, "starting") {
		t.Errorf("no banner on stderr: %q", got)
	}
	if e := p.wait(true); e.code != 0 {
		t.Errorf("exit %d", e.code)
	}
}
