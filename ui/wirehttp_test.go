package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/wirefilter"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// SSE frames without a message are named in their wire row.
func TestSSELabels(t *testing.T) {
	for raw, want := range map[string]string{
		"id: 7\nretry: 500\ndata:\n\n": "priming event: id 7, retry 500 ms (a point to resume from)",
		"retry: 1000\n\n":              "retry: 1000 ms (the reconnection delay)",
		": ping\n\n":                   "comment (keep-alive): ping",
	} {
		if got, ok := sseLabel([]byte(raw)); !ok || got != want {
			t.Errorf("%q: %q, want %q", raw, got, want)
		}
	}
	if _, ok := sseLabel([]byte("event: message\ndata: {}\n\n")); ok {
		t.Error("a message frame labelled")
	}
}

// A response head's WWW-Authenticate is parsed into a table under the raw header, with what
// deviates from the grammar said.
func TestChallengeLines(t *testing.T) {
	st := themes.Build(themes.Plain())
	head := "HTTP/1.1 401 Unauthorized\r\nWww-Authenticate: Bearer resource_metadata=\"https://as/x\", scope='files:read'\r\n\r\n"
	out := strings.Join(challengeLines(st, mcpclient.KindHTTPResponse, []byte(head), 80), "\n")
	for _, want := range []string{"WWW-Authenticate", "Bearer", "resource_metadata = https://as/x", "scope = files:read", "single quotes"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if challengeLines(st, mcpclient.KindHTTPResponse, []byte("HTTP/1.1 200 OK\r\n\r\n"), 80) != nil {
		t.Error("lines for a head without a challenge")
	}
}

// An HTTP request's wire row shows its request line and, once paired, the response's status
// and the time to it.
func TestExchangeSummary(t *testing.T) {
	tl := newTimeline()
	at := time.Now()
	tl.add(mcpclient.Event{Seq: 1, Time: at, Dir: mcpclient.HTTPOut, Kind: mcpclient.KindHTTPRequest, Raw: []byte("POST /mcp HTTP/1.1\r\nHost: x\r\n\r\n{}")})
	if got := tl.summary(0); got != "POST /mcp …" {
		t.Errorf("before the response: %q", got)
	}
	tl.add(mcpclient.Event{Seq: 2, Time: at.Add(45 * time.Millisecond), Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPResponse, Raw: []byte("HTTP/1.1 200 OK\r\n\r\n"), Pair: 1})
	if got := tl.summary(0); got != "POST /mcp → 200 OK · 45ms" {
		t.Errorf("after: %q", got)
	}
}

// The filter reads an HTTP event's exchange: the request's own number, and for the
// response's events the request's (ex:N expands a flow).
func TestWireEventExchange(t *testing.T) {
	tl := newTimeline()
	at := time.Now()
	tl.add(mcpclient.Event{Seq: 1, Time: at, Dir: mcpclient.ClientToServer, Kind: mcpclient.KindRequest, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)})
	tl.add(mcpclient.Event{Seq: 2, Time: at, Dir: mcpclient.HTTPOut, Kind: mcpclient.KindHTTPRequest, Raw: []byte("POST /mcp HTTP/1.1\r\n\r\n")})
	tl.add(mcpclient.Event{Seq: 3, Time: at, Dir: mcpclient.HTTPIn, Kind: mcpclient.KindHTTPResponse, Raw: []byte("HTTP/1.1 200 OK\r\n\r\n"), Pair: 2})
	tl.add(mcpclient.Event{Seq: 4, Time: at, Dir: mcpclient.HTTPIn, Kind: mcpclient.KindSSEFrame, Raw: []byte("data: {}\n\n"), Pair: 2})
	f, err := wirefilter.Parse("ex:2")
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for i := range tl.len() {
		if f.Match(wireEv{tl: tl, i: i}) {
			got = append(got, i+1)
		}
	}
	if fmt.Sprint(got) != "[2 3 4]" {
		t.Errorf("ex:2 matches events %v, want [2 3 4]", got)
	}
}
