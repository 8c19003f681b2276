package tap

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpsession "github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestBreakpointsHTTP: the go-sdk client, a real host, calls a go-sdk Streamable HTTP
// server's tool through an HTTP tap; an attach holds the tools/call and sends it on
// edited (the tool sees the edit), then answers the next one itself (the tool never runs),
// then holds the server's tools/list answer and forwards it unchanged.
func TestBreakpointsHTTP(t *testing.T) {
	seen := make(chan string, 4)
	u := echoUpstream(t, func(m string) { seen <- m })
	ln, g := tapListener(t)
	var rec, stderr lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	sock := make(chan string, 1)
	go func() {
		_, _ = RunHTTP(ctx, HTTPOptions{Listener: ln, Upstream: u, Trace: &rec, Stderr: &stderr, SocketDir: filepath.Join(t.TempDir(), "run"),
			Header: trace.Header{Tool: "test"}, Guard: g, OnStart: func(s string) { sock <- s }})
		close(done)
	}()
	st, err := Attach(<-sock)
	if err != nil {
		t.Fatal(err)
	}
	ch := st.Updates()
	go func() {
		for {
			if _, err := st.Next(); err != nil {
				return
			}
		}
	}()
	setBreakpoints(t, st, ch, time.Minute, "dir:out method:tools/call", "dir:in method:tools/list")

	cctx, ccancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer ccancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "0"}, nil).Connect(cctx, &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	call := func(msg string) (*mcp.CallToolResult, error) {
		type res struct {
			r   *mcp.CallToolResult
			err error
		}
		out := make(chan res, 1)
		go func() {
			r, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"message": msg}})
			out <- res{r, err}
		}()
		hd := heldNext(t, ch)
		if !hd.Request || !strings.Contains(string(hd.Raw), `"message":"`+msg+`"`) {
			t.Fatalf("hold = %+v", hd)
		}
		if msg == "edit me" {
			edited := strings.Replace(string(hd.Raw), "edit me", "edited by the attach", 1)
			_ = st.Decide(hd.ID, mcpsession.HoldDecision{Kind: mcpsession.HoldSend, Message: []byte(edited)})
		} else {
			id := hd.Raw[strings.Index(string(hd.Raw), `"id":`)+5:]
			id = id[:strings.IndexAny(string(id), ",}")]
			answer := `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"content":[{"type":"text","text":"from the attach"}]}}`
			_ = st.Decide(hd.ID, mcpsession.HoldDecision{Kind: mcpsession.HoldAnswer, Message: []byte(answer)})
		}
		endedNext(t, ch)
		r := <-out
		return r.r, r.err
	}
	r, err := call("edit me")
	if err != nil || r.Content[0].(*mcp.TextContent).Text != "edited by the attach" {
		t.Fatalf("edited call: %+v, %v", r, err)
	}
	if got := <-seen; got != "edited by the attach" {
		t.Errorf("the tool saw %q", got)
	}
	r, err = call("answer me")
	if err != nil || r.Content[0].(*mcp.TextContent).Text != "from the attach" {
		t.Fatalf("answered call: %+v, %v", r, err)
	}
	select {
	case got := <-seen:
		t.Errorf("the tool ran (%q); the attach answered in its place", got)
	default:
	}

	lres := make(chan error, 1)
	go func() {
		_, err := cs.ListTools(cctx, nil)
		lres <- err
	}()
	hd := heldNext(t, ch)
	if hd.Request || !strings.Contains(hd.What, "tools/list") {
		t.Fatalf("hold = %+v", hd)
	}
	_ = st.Decide(hd.ID, mcpsession.HoldDecision{Kind: mcpsession.HoldForward})
	if e := endedNext(t, ch); e.How != "forwarded" {
		t.Fatalf("end = %+v", e)
	}
	if err := <-lres; err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	_ = cs.Close()
	st.Close()
	cancel()
	<-done
	tr := rec.String()
	for _, w := range []string{
		`sent an edited message in place of request id 3 (tools/call echo)`,
		`answered request id 4 (tools/call echo)`,
		`forwarded response id 5 (tools/list)`,
		`"cond":"held"`,
	} {
		if !strings.Contains(tr, w) {
			t.Errorf("the trace lacks %s", w)
		}
	}
	// The held answer is in the trace before the note that holds it.
	answer := strings.Index(tr, `"dir":"s2c","raw":"{\"jsonrpc\":\"2.0\",\"id\":5,\"result\"`)
	note := strings.Index(tr, `holding response id 5 (tools/list)`)
	if answer < 0 || note < 0 || answer > note {
		t.Errorf("trace order: the answer at %d, the hold's note at %d", answer, note)
	}
	// So is a held request, once: as it came, then the hold's note, then the edit.
	req := strings.Index(tr, `\"message\":\"edit me\"`)
	held := strings.Index(tr, `holding request id 3 (tools/call echo)`)
	edit := strings.Index(tr, `"tap":"edited"`)
	if req < 0 || held < 0 || edit < 0 || !(req < held && held < edit) || strings.Count(tr, `\"message\":\"edit me\"`) != 1 {
		t.Errorf("trace order: the request at %d (%d times), the hold's note at %d, the edit at %d", req, strings.Count(tr, `\"message\":\"edit me\"`), held, edit)
	}
	if t.Failed() {
		t.Log(tr)
	}
}
