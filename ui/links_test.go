package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Case B20: a resource_link block of a tool result can be read from the Call pane: o sends
// resources/read for its uri and the contents appear under the link; help lists the key.
func TestResourceLinkIsRead(t *testing.T) {
	w := newWireLog()
	l := startLive(t, []string{fake.Binary(t), "--scenario", "b20"}, mcpclient.Config{OnEvent: w.add}, Options{})
	l.until("tools", func() bool { return len(l.m.tools.tools) == 1 }, 20*time.Second)
	run := l.sendTool("find_docs")
	l.until("the result", func() bool { return run.done }, 20*time.Second)
	if run.err != nil {
		t.Fatalf("call err %v", run.err)
	}
	mustContain(t, "result", view(l.m), "[2] resource_link", "uri:  file:///workspace/README.md", "o reads this resource (resources/read)")
	if strings.Contains(view(l.m), "The README of the fake workspace.") {
		t.Fatal("the contents are shown before the read")
	}
	l.key("?")
	mustContain(t, "help", view(l.m), "read the next resource_link not read yet (resources/read)")
	l.key("esc")

	l.key("o")
	lr := run.links[1]
	if lr == nil {
		t.Fatalf("o started no read\n%s", view(l.m))
	}
	l.until("the read", func() bool { return lr.done }, 20*time.Second)
	if lr.err != nil || lr.res == nil || len(lr.res.Contents) != 1 {
		t.Fatalf("read: res %+v err %v", lr.res, lr.err)
	}
	mustContain(t, "read under the link", view(l.m), "resources/read file:///workspace/README.md", "1 content item(s)", "The README of the fake workspace.")
	reads := w.settled(t, mcpclient.ClientToServer, "resources/read", func(f []string) bool { return len(f) > 0 })
	if len(reads) != 1 || !strings.Contains(reads[0], `"uri":"file:///workspace/README.md"`) {
		t.Errorf("resources/read on the wire: %q", reads)
	}
	// The call's own result is unchanged: the read is beside it.
	if run.err != nil || run.res == nil || len(run.res.Content) != 4 {
		t.Errorf("the call changed: %+v %v", run.res, run.err)
	}
}

// Without a resource_link the key does nothing and help does not offer it.
func TestReadLinkKeyWithoutLink(t *testing.T) {
	l := startLive(t, []string{fake.Binary(t), "--scenario", "b12"}, mcpclient.Config{Env: []string{"FAKE_SLEEP_MS=10"}}, Options{})
	l.until("tools", func() bool { return len(l.m.tools.tools) == 1 }, 20*time.Second)
	run := l.sendTool("sleep")
	l.until("the result", func() bool { return run.done }, 20*time.Second)
	l.key("o")
	if len(run.links) != 0 || strings.Contains(view(l.m), "reads this resource") {
		t.Errorf("o on a result without links: %+v\n%s", run.links, view(l.m))
	}
	l.key("?")
	if strings.Contains(view(l.m), "read the resource_link") {
		t.Errorf("help offers the read key without a link\n%s", view(l.m))
	}
}

// pressRead presses the read key and delivers the read's answer (the test helpers' run
// feeds back only some messages); commands that block (ticks) are left.
func pressRead(t *testing.T, m *model) {
	t.Helper()
	_, cmd := m.Update(keyMsg("o"))
	var deliver func(c tea.Cmd)
	deliver = func(c tea.Cmd) {
		if c == nil {
			return
		}
		msg, _ := runCmd(t, c)
		switch msg := msg.(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				deliver(c)
			}
		case linkReadMsg:
			m.Update(msg)
		}
	}
	deliver(cmd)
}

// A result with several resource_links (server-everything's get-resource-links count=5):
// only the link o will read carries the hint, and repeated presses read every link in
// turn, scrolling each into view, even those below the screen; with all read, o reads the
// one on screen again. On a result without a link, o says so.
func TestReadLinkWalksEveryLink(t *testing.T) {
	s := greetSession()
	const n = 6
	s.result = &mcpclient.CallToolResult{Content: []mcpclient.ContentBlock{{Type: "text", Text: "six links follow"}}}
	s.contents = map[string]*mcpclient.ReadResourceResult{}
	var uris []string
	for i := 1; i <= n; i++ {
		uri := fmt.Sprintf("demo://resource/%d", i)
		uris = append(uris, uri)
		s.result.Content = append(s.result.Content, mcpclient.ContentBlock{Type: "resource_link", URI: uri, Name: fmt.Sprintf("res-%d", i), Description: "a linked resource"})
		s.contents[uri] = &mcpclient.ReadResourceResult{Contents: []mcpclient.ResourceContents{{URI: uri, MimeType: "text/plain", Text: fmt.Sprintf("body of resource %d", i)}}}
	}
	m := newTestModel(t, s, 100, 24)
	exec(t, m, m.Init(), 0)
	keys(t, m, "enter")
	typeIn(t, m, "1")
	keys(t, m, "tab")
	typeIn(t, m, "2")
	keys(t, m, "ctrl+s")
	if r := m.call.run; r == nil || !r.done || len(r.linkAt) != n {
		t.Fatalf("call: %+v", r)
	}
	hint := "o reads this resource (resources/read)"
	if v := view(m); strings.Count(v, hint) != 1 || !strings.Contains(v, "6 links not read yet") {
		t.Fatalf("want the hint on one link only\n%s", v)
	}
	for i := 1; i <= n; i++ {
		pressRead(t, m)
		if len(s.reads) != i || s.reads[i-1] != uris[i-1] {
			t.Fatalf("press %d read %q, want %q", i, s.reads, uris[:i])
		}
		v := view(m)
		mustContain(t, fmt.Sprintf("read %d", i), v, "uri:  "+uris[i-1], "resources/read "+uris[i-1], fmt.Sprintf("body of resource %d", i))
		mustContain(t, fmt.Sprintf("note %d", i), m.statusBar(), fmt.Sprintf("resource_link %d of %d", i, n))
		if c := strings.Count(v, hint); i < n && c > 1 || i == n && c != 0 {
			t.Fatalf("after read %d the hint shows %d times\n%s", i, c, v)
		}
	}
	pressRead(t, m)
	if len(s.reads) != n+1 {
		t.Fatalf("with every link read, o read nothing: %q", s.reads)
	}
	mustContain(t, "read again", m.statusBar(), "again")

	// A result without a link: o says so.
	s.result = &mcpclient.CallToolResult{Content: []mcpclient.ContentBlock{{Type: "text", Text: "no links"}}}
	keys(t, m, "e", "ctrl+s")
	if r := m.call.run; r == nil || !r.done || len(r.linkAt) != 0 {
		t.Fatalf("second call: %+v", r)
	}
	pressRead(t, m)
	if len(s.reads) != n+1 {
		t.Errorf("o read something from a result without links: %q", s.reads)
	}
	mustContain(t, "no link", m.statusBar(), "has no resource_link to read")
}
