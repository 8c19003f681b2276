package tap

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// injectTap starts a tap on cat (every host line comes back as a server line) with rules.
func injectTap(t *testing.T, rules ...string) *harness {
	t.Helper()
	rs := mustRules(t, rules...)
	return startTap(t, catArgv(), func(o *Options) { o.Inject = rs })
}

const (
	pingReq  = `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"
	callReq  = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}` + "\n"
	okResp   = `{"jsonrpc":"2.0","id":5,"result":{}}` + "\n"
	listReq  = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n"
	progress = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}` + "\n"
)

// notes are the lifecycle notes of a trace with a condition, as "cond: text".
func notes(evs []mcpclient.Event) []string {
	var out []string
	for _, ev := range evs {
		if ev.Life != nil && ev.Life.Cond != "" {
			out = append(out, string(ev.Life.Cond)+": "+ev.Life.Text)
		}
	}
	return out
}

func TestInjectDrop(t *testing.T) {
	h := injectTap(t, "dir:out method:ping => drop")
	h.write([]byte(pingReq + listReq))
	got := h.waitHost(len(listReq), 10*time.Second)
	h.finish()
	if string(got) != listReq {
		t.Fatalf("host got %q, want only the tools/list echoed (the ping dropped)", got)
	}
	_, evs := readTrace(t, h.trace)
	if c2s := string(stream(evs, mcpclient.ClientToServer)); c2s != pingReq+listReq {
		t.Errorf("trace c2s = %q, want the original frames", c2s)
	}
	n := notes(evs)
	if len(n) != 1 || !strings.HasPrefix(n[0], "dropped: inject rule 1 (dir:out method:ping => drop): dropped request id 1 (ping) from the host") {
		t.Errorf("notes = %q", n)
	}
}

func TestInjectErrorAnswersRequest(t *testing.T) {
	h := injectTap(t, "method:tools/call => error -32000 boom today")
	h.write([]byte(callReq + listReq))
	want := `{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"boom today"}}` + "\n"
	got := h.waitHost(len(want)+len(listReq), 10*time.Second)
	h.finish()
	if string(got) != want+listReq {
		t.Fatalf("host got %q, want the error answer and the echoed tools/list", got)
	}
	_, evs := readTrace(t, h.trace)
	// The trace: the original request, the note, the answer the host got (s2c), and the
	// server's echo of tools/list; the server never got the tools/call (cat did not echo it).
	if s2c := string(stream(evs, mcpclient.ServerToClient)); s2c != want+listReq {
		t.Errorf("trace s2c = %q", s2c)
	}
	if n := notes(evs); len(n) != 1 || !strings.Contains(n[0], "injected: inject rule 1 (method:tools/call => error -32000 boom today): answered request id 7 (tools/call echo) from the host with error -32000") {
		t.Errorf("notes = %q", n)
	}
	// The answer is marked as the tap's own; what the server sent is not.
	for _, ev := range evs {
		if ev.Dir != mcpclient.ServerToClient {
			continue
		}
		want := mcpclient.NoteCond("")
		if strings.Contains(string(ev.Raw), "boom today") {
			want = mcpclient.NoteInjected
		}
		if ev.Written != want {
			t.Errorf("s2c %q: Written %q, want %q", ev.Raw, ev.Written, want)
		}
	}
}

func TestInjectErrorReplacesResponse(t *testing.T) {
	h := injectTap(t, "dir:in kind:response => error -32001 nope")
	h.write([]byte(okResp))
	want := `{"jsonrpc":"2.0","id":5,"error":{"code":-32001,"message":"nope"}}` + "\n"
	got := h.waitHost(len(want), 10*time.Second)
	h.finish()
	if string(got) != want {
		t.Fatalf("host got %q, want %q", got, want)
	}
	_, evs := readTrace(t, h.trace)
	// Original (echoed by cat) then what the host got.
	if s2c := string(stream(evs, mcpclient.ServerToClient)); s2c != okResp+want {
		t.Errorf("trace s2c = %q, want original then edited", s2c)
	}
	if n := notes(evs); len(n) != 1 || !strings.HasPrefix(n[0], "edited: ") {
		t.Errorf("notes = %q", n)
	}
}

func TestInjectReplaceTruncateCorrupt(t *testing.T) {
	h := injectTap(t,
		`dir:out method:tools/list => replace {"jsonrpc": "2.0", "id": 2, "method": "prompts/list"}`,
		"dir:in method:ping => truncate 10",
		"dir:in kind:notification => corrupt",
	)
	h.write([]byte(listReq + pingReq + progress))
	want := `{"jsonrpc":"2.0","id":2,"method":"prompts/list"}` + "\n" + pingReq[:10] + "\n" + "!" + progress[1:]
	got := h.waitHost(len(want), 10*time.Second)
	h.finish()
	if string(got) != want {
		t.Fatalf("host got\n%q\nwant\n%q", got, want)
	}
	// The host sees broken frames: not JSON.
	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	for _, l := range lines[1:] {
		if json.Valid([]byte(l)) {
			t.Errorf("%q is valid JSON, want a broken frame", l)
		}
	}
	_, evs := readTrace(t, h.trace)
	n := notes(evs)
	if len(n) != 3 || !strings.Contains(n[0], "replaced request id 2 (tools/list)") || !strings.Contains(n[1], "truncated request id 1 (ping) from the server from 40 to 10 bytes") || !strings.Contains(n[2], "corrupted notification (notifications/progress) from the server (byte 0 set to '!'") {
		t.Errorf("notes = %q", n)
	}
}

func TestInjectDelayKeepsOrder(t *testing.T) {
	h := injectTap(t, "dir:out method:ping => delay 300ms")
	start := time.Now()
	h.write([]byte(pingReq + listReq))
	got := h.waitHost(len(pingReq)+len(listReq), 10*time.Second)
	took := time.Since(start)
	h.finish()
	if string(got) != pingReq+listReq {
		t.Fatalf("host got %q, want both in order", got)
	}
	if took < 300*time.Millisecond {
		t.Errorf("the delayed frames came back after %v, before the 300ms delay", took)
	}
}

func TestInjectUnmatchedReported(t *testing.T) {
	h := injectTap(t, "method:tools/call => drop", "tool:nothing-like-this => delay 1s")
	h.write([]byte(callReq))
	h.finish()
	want := `mcp-inspect tap: inject rule 2 (tool:nothing-like-this => delay 1s) matched no message`
	if s := h.stderr.String(); !strings.Contains(s, want) || strings.Contains(s, "inject rule 1") {
		t.Errorf("stderr = %q, want only rule 2 reported", s)
	}
	_, evs := readTrace(t, h.trace)
	var unmatched []string
	for _, n := range notes(evs) {
		if strings.HasPrefix(n, "unmatched: ") {
			unmatched = append(unmatched, n)
		}
	}
	if len(unmatched) != 1 || !strings.Contains(unmatched[0], "rule 2") {
		t.Errorf("unmatched notes = %q", unmatched)
	}
}

// TestInjectSplitLines: a frame that arrives in pieces is matched whole, and lines no
// rule matches pass byte for byte (CRLF and all).
func TestInjectSplitLines(t *testing.T) {
	h := injectTap(t, "dir:out method:ping => drop")
	crlf := `{"jsonrpc":"2.0","id":3,"method":"x"}` + "\r\n"
	h.write([]byte(pingReq[:10]))
	time.Sleep(20 * time.Millisecond)
	h.write([]byte(pingReq[10:] + crlf[:5]))
	time.Sleep(20 * time.Millisecond)
	h.write([]byte(crlf[5:] + "not json\n"))
	got := h.waitHost(len(crlf)+len("not json\n"), 10*time.Second)
	h.finish()
	if !bytes.Equal(got, []byte(crlf+"not json\n")) {
		t.Fatalf("host got %q", got)
	}
}

func TestParseRuleErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"method:tools/call", `column 18: no "=>" between the filter and the action`},
		{"method:tools/call => delya 2s", `column 22: unknown action "delya" (did you mean "delay"?)`},
		{"method:tools/call => delay soon", `column 28: delay needs a positive duration such as 2s or 150ms, got "soon"`},
		{"methd:x => drop", `column 1: filter: unknown key "methd"`},
		{" => drop", "column 1: the filter before => is empty"},
		{"kind:request => error x y", `column 23: error needs an integer code`},
		{"kind:request => error -32000", `column 30: error -32000 needs a message`},
		{"kind:request => replace {nope", `column 25: replace needs one JSON value`},
		{"kind:request => truncate -1", `column 26: truncate needs a byte count N >= 0`},
		{"kind:request => drop now", `column 22: drop takes nothing after it`},
		{"kind:request =>", `column 16: the action after => is missing`},
	} {
		_, err := ParseRule(c.src)
		if err == nil {
			t.Errorf("%q parsed", c.src)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "(example: --inject 'method:tools/call => delay 2s')") {
			t.Errorf("%q: %v\nwant %s and the example", c.src, err, c.want)
		}
	}
	r, err := ParseRule(`text:"a => b" => error -32000 no => way`)
	if err != nil || r.Action.Message != "no => way" || r.Filter.String() != `text:"a => b" ` {
		t.Errorf("quoted => : %+v %v", r, err)
	}
}
