package session

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

func TestListenFilter(t *testing.T) {
	caps := mcpclient.ServerCapabilities{Tools: &mcpclient.ListChangedCap{ListChanged: true}, Prompts: &mcpclient.ListChangedCap{}}
	f, ok := ListenFilter(caps, []string{"file:///b", "file:///a"})
	if !ok || !f.ToolsListChanged || f.PromptsListChanged || f.ResourcesListChanged || !slices.Equal(f.ResourceSubscriptions, []string{"file:///a", "file:///b"}) {
		t.Fatalf("filter %+v %v", f, ok)
	}
	if _, ok := ListenFilter(mcpclient.ServerCapabilities{}, nil); ok {
		t.Fatal("a filter for nothing")
	}
}

// Opening a stream closes the one before; only the open generation's end is noted.
func TestListenGenerations(t *testing.T) {
	var l Listen
	if _, _, ok := l.Open(context.Background(), mcpclient.ListenFilter{}); ok || l.On() {
		t.Fatal("opened for nothing")
	}
	f := mcpclient.ListenFilter{ToolsListChanged: true}
	g1, ctx1, ok := l.Open(context.Background(), f)
	if !ok || !l.On() || ctx1.Err() != nil {
		t.Fatal("not open")
	}
	g2, ctx2, _ := l.Open(context.Background(), f)
	if g2 == g1 || ctx1.Err() == nil || ctx2.Err() != nil {
		t.Fatal("the first stream was not closed")
	}
	if n := l.Ended(g1, context.Canceled); n != nil || !l.On() {
		t.Fatalf("old generation noted %+v", n)
	}
	if n := l.Ended(g2, errors.New("EOF")); n == nil || *n != (Note{Warning, "subscriptions/listen ended: EOF"}) || l.On() {
		t.Fatalf("error end %+v", n)
	}
	g3, _, _ := l.Open(context.Background(), f)
	if n := l.Ended(g3, nil); n == nil || *n != (Note{Info, "the server ended the subscriptions/listen stream"}) {
		t.Fatalf("server end %+v", n)
	}
	g4, ctx4, _ := l.Open(context.Background(), f)
	l.Stop()
	if ctx4.Err() == nil || l.On() || l.Ended(g4, context.Canceled) != nil {
		t.Fatal("stop")
	}
}
