package ui

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// screenSecret is an -e value as a server echoes it back (server-everything's get-env).
const screenSecret = "env-secret-value-1234"

// A live session's secrets are masked on screen where the panes draw server text, as the
// trace masks them: a call's result, its structuredContent, a frame in 3 Wire, a stderr
// line in 7 Logs and the status line; X shows them as received and masks them again
// (issue 26).
func TestSecretsMaskedOnScreen(t *testing.T) {
	s := greetSession()
	s.result = &mcpclient.CallToolResult{
		Content:           []mcpclient.ContentBlock{{Type: "text", Text: "API_TOKEN=" + screenSecret + " HOME=/root"}},
		StructuredContent: json.RawMessage(`{"API_TOKEN":"` + screenSecret + `"}`),
	}
	msgs := make(chan tea.Msg, 1024)
	l := fakeLive(t, s, msgs)
	mask := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(screenSecret), []byte("***")) }
	l.m.c.redact, l.m.tl.redact = mask, mask
	run := l.callByName("greet", "")
	l.until("the answer", func() bool { return run.done }, 30*time.Second)
	drive(t, l.m, eventsMsg{events: []mcpclient.Event{
		ev(900, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"token `+screenSecret+`"}}`+"\n"),
		ev(901, mcpclient.Stderr, "loaded "+screenSecret+"\n"),
	}})
	screens := func() map[string]string {
		out := map[string]string{}
		for _, k := range []string{"2", "3", "7"} {
			l.key(k)
			if k == "3" {
				l.key("G")
			}
			out[k] = view(l.m)
		}
		return out
	}
	for pane, v := range screens() {
		if strings.Contains(v, screenSecret) {
			t.Errorf("pane %s shows the secret while masking:\n%s", pane, v)
		}
		if !strings.Contains(v, "***") {
			t.Errorf("pane %s shows no mask:\n%s", pane, v)
		}
	}
	l.key("X")
	if !l.m.c.reveal || !strings.Contains(l.m.flash.text, "secrets shown on screen as received (X masks them again)") {
		t.Fatalf("X: reveal %v, flash %q", l.m.c.reveal, l.m.flash.text)
	}
	for pane, v := range screens() {
		if !strings.Contains(v, screenSecret) {
			t.Errorf("pane %s does not show the secret once revealed:\n%s", pane, v)
		}
	}
	l.key("X")
	for pane, v := range screens() {
		if strings.Contains(v, screenSecret) {
			t.Errorf("pane %s shows the secret after X masked it again:\n%s", pane, v)
		}
	}
	// The result itself is never changed: copy exact and the session keep the bytes.
	if !strings.Contains(run.res.Content[0].Text, screenSecret) {
		t.Errorf("masking changed the result: %q", run.res.Content[0].Text)
	}
}

// Without a redactor (an opened trace, masked when it was recorded) X says there is
// nothing to reveal.
func TestRevealWithoutRedactor(t *testing.T) {
	m := connected(t, moreSession(), 160, 40)
	drive(t, m, keyMsg("X"))
	if m.c.reveal || !strings.Contains(m.flash.text, "nothing to reveal") {
		t.Errorf("reveal %v, flash %q", m.c.reveal, m.flash.text)
	}
}

// A result whose response frame the redactor leaves as it is is shown as it is: no copy of
// its text is made to mask it (a 100 MB result cost 100 MB more), while a result whose frame
// holds a secret is still masked (TestSecretsMaskedOnScreen).
func TestShownResultWithoutSecretsIsNotCopied(t *testing.T) {
	const size = 8 << 20
	text := strings.Repeat("x", size)
	raw := json.RawMessage(`{"content":[{"type":"text","text":"` + text + `"}]}`)
	res := &mcpclient.CallToolResult{Content: []mcpclient.ContentBlock{{Type: "text", Text: text}}}
	mask := func(b []byte) []byte { // as trace.Redactor: b itself when there is nothing to mask
		if !bytes.Contains(b, []byte(screenSecret)) {
			return b
		}
		return bytes.ReplaceAll(b, []byte(screenSecret), []byte("***"))
	}
	c := &common{redact: mask}
	r := &callRun{screen: c, done: true, res: res, resOfResp: true, resp: &mcpclient.Response{Msg: &mcpclient.Message{Result: raw}}}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got := r.shownRes()
	runtime.ReadMemStats(&after)
	if got != res {
		t.Fatal("a result without secrets was replaced by a masked copy")
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size/4 {
		t.Errorf("showing an %d-byte result without secrets allocated %d bytes", size, alloc)
	}
	// A task's result is not decoded from the response: its text is masked itself.
	secret := &mcpclient.CallToolResult{Content: []mcpclient.ContentBlock{{Type: "text", Text: "t " + screenSecret}}}
	r = &callRun{screen: c, done: true, res: secret, resp: &mcpclient.Response{Msg: &mcpclient.Message{Result: raw}}}
	if got := r.shownRes(); strings.Contains(got.Content[0].Text, screenSecret) {
		t.Errorf("a task's result shows the secret: %q", got.Content[0].Text)
	}
}
