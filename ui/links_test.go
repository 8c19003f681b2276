package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Case B20: a resource_link block of a tool result can be read from the Call pane: o sends
// resources/read for its uri and the contents appear under the link; help lists the key.
func TestResourceLinkIsRead(t *testing.T) {
	w := &wireLog{}
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
	mustContain(t, "help", view(l.m), "read the resource_link on screen (resources/read)")
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
