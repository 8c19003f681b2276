package trace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestStatsLatencies: percentiles per method from a trace with known round trips.
func TestStatsLatencies(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	sy := newSynth(&buf)
	emit := sy.emit
	// tools/call with latencies 1..10 ms; one tools/list answered with an error; one ping
	// never answered; a log notification.
	for i := 1; i <= 10; i++ {
		emit(mcpclient.ClientToServer, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"x"}}`, i))
		sy.at = sy.at.Add(time.Duration(i) * time.Millisecond)
		emit(mcpclient.ServerToClient, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, i))
	}
	emit(mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":"l","method":"tools/list"}`)
	sy.at = sy.at.Add(3 * time.Millisecond)
	emit(mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":"l","error":{"code":-32601,"message":"no"}}`)
	emit(mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`)
	emit(mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":99,"method":"ping"}`)
	emit(mcpclient.ServerToClient, `stray text`)
	st, err := trace.ComputeStats(openBytes(t, buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]trace.MethodStats{}
	for _, m := range st.Methods {
		byName[m.Dir+" "+m.Method] = m
	}
	call := byName["c2s tools/call"]
	if call.Count != 10 || call.Answered != 10 || call.P50 != 5*time.Millisecond || call.P90 != 9*time.Millisecond || call.Max != 10*time.Millisecond {
		t.Errorf("tools/call: %+v", call)
	}
	if l := byName["c2s tools/list"]; l.Errors != 1 || l.P50 != 3*time.Millisecond {
		t.Errorf("tools/list: %+v", l)
	}
	if n := byName["s2c notifications/message"]; n.Count != 1 || n.Kind != "notification" {
		t.Errorf("notification: %+v", n)
	}
	if st.Unanswered != 1 || st.ByDir["c2s"] != 12 || st.ByDir["s2c"] != 13 || st.ByKind["not JSON"] != 1 || st.Problems["not-json"] != 1 {
		t.Errorf("stats: %+v", st)
	}
	var out bytes.Buffer
	if err := st.WriteText(&out, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tools/call", "5ms", "9ms", "10ms", "unanswered requests: 1", "not-json 1"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stats text lacks %q:\n%s", want, out.String())
		}
	}
}

// TestCat: markers per direction, escaping for terminals, and --raw --dir c2s reproducing
// exactly what the client wrote to the server's stdin.
func TestCat(t *testing.T) {
	t.Parallel()
	s := record(t, fakeConfig(t, "b23"), nil, func(ctx context.Context, c *mcpclient.Client) {
		c.Initialize(ctx)
		tools, _, _ := c.ListTools(ctx)
		for _, tl := range tools {
			c.CallTool(ctx, tl.Name, json.RawMessage(`{}`))
		}
		time.Sleep(100 * time.Millisecond)
	})
	tr := openTrace(t, s.path)
	var stdin, stdout []byte
	for _, ev := range s.live {
		switch ev.Dir {
		case mcpclient.ClientToServer:
			stdin = append(stdin, ev.Raw...)
		case mcpclient.ServerToClient:
			stdout = append(stdout, ev.Raw...)
		}
	}
	var raw bytes.Buffer
	if err := trace.Cat(tr, &raw, trace.CatOptions{Raw: true, Dirs: []mcpclient.Direction{mcpclient.ClientToServer}}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw.Bytes(), stdin) {
		t.Errorf("--raw --dir c2s:\n%q\nwant\n%q", raw.Bytes(), stdin)
	}
	raw.Reset()
	trace.Cat(tr, &raw, trace.CatOptions{Raw: true, Dirs: []mcpclient.Direction{mcpclient.ServerToClient}})
	if !bytes.Equal(raw.Bytes(), stdout) {
		t.Errorf("--raw --dir s2c differs from the server's stdout")
	}
	var marked bytes.Buffer
	trace.Cat(tr, &marked, trace.CatOptions{Escape: true})
	text := marked.String()
	for _, want := range []string{"\n> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"", "\n< {", "\n! ", "# started pid"} {
		if !strings.Contains("\n"+text, want) {
			t.Errorf("cat lacks %q:\n%s", want, text)
		}
	}
	if strings.ContainsAny(text, "\x1b\x07") {
		t.Errorf("escaped cat output holds raw control characters")
	}
	if !strings.Contains(text, `\x1b`) {
		t.Errorf("the stderr escape sequence is not shown escaped:\n%s", text)
	}
}

// TestStatsAfterLostLines: after an unreadable line, a response to an id no request
// carries is not counted as the server's problem (its request may have been on that line),
// as mcp-inspect open says; before any loss it is.
func TestStatsAfterLostLines(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	sy := newSynth(&buf)
	emit := sy.emit
	emit(mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":7,"result":{}}`)
	emit(mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`)
	emit(mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	sy.w.Close()
	// Cut the tools/call's line in half: it becomes unreadable.
	lines := bytes.SplitAfter(buf.Bytes(), []byte("\n"))
	var damaged []byte
	for _, l := range lines {
		if bytes.Contains(l, []byte(`tools/call`)) && bytes.Contains(l, []byte(`"c2s"`)) {
			l = append(l[:len(l)/2:len(l)/2], '\n')
		}
		damaged = append(damaged, l...)
	}
	st, err := trace.ComputeStats(openBytes(t, damaged))
	if err != nil {
		t.Fatal(err)
	}
	if st.BadLines != 1 || st.Problems["unknown-id"] != 1 {
		t.Fatalf("bad lines %d, unknown-id %d: want 1 and 1 (the one before the loss)", st.BadLines, st.Problems["unknown-id"])
	}
}

// synth writes a made-up trace: each emit is one frame at sy.at (tests move it along).
type synth struct {
	w   *trace.Writer
	at  time.Time
	seq uint64
}

func newSynth(buf *bytes.Buffer) *synth {
	w, _ := trace.NewWriter(buf, trace.Header{Tool: "synth"}, nil)
	return &synth{w: w, at: w.Start()}
}

func (sy *synth) emit(dir mcpclient.Direction, raw string) {
	sy.seq++
	sy.w.Write(mcpclient.Event{Seq: sy.seq, Time: sy.at, Dir: dir, Raw: []byte(raw + "\n"), Size: int64(len(raw) + 1)})
}

// TestStatsTapWritten: the frames a tap wrote itself are counted by mark, and a request the
// tap replaced by its edit (the same id) is not counted as unanswered.
func TestStatsTapWritten(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	sy := newSynth(&buf)
	written := func(dir mcpclient.Direction, raw string, w mcpclient.NoteCond) {
		sy.seq++
		sy.w.Write(mcpclient.Event{Seq: sy.seq, Time: sy.at, Dir: dir, Raw: []byte(raw + "\n"), Size: int64(len(raw) + 1), Written: w})
	}
	sy.emit(mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`)
	written(mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"b"}}`, mcpclient.NoteEdited)
	sy.emit(mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	sy.emit(mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"delete_all"}}`)
	written(mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"no"}}`, mcpclient.NoteInjected)
	sy.emit(mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":3,"method":"ping"}`) // never answered
	st, err := trace.ComputeStats(openBytes(t, buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if st.Unanswered != 1 || st.Written["edited"] != 1 || st.Written["injected"] != 1 {
		t.Errorf("unanswered %d (want 1: the ping), written %v (want edited 1, injected 1)", st.Unanswered, st.Written)
	}
	var text strings.Builder
	st.WriteText(&text, nil)
	if !strings.Contains(text.String(), "by tap    edited 1, injected 1") {
		t.Errorf("the text lacks the tap's frames:\n%s", text.String())
	}
}
