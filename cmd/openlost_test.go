package cmd

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// TestFeedTraceNotesLostLines: a trace whose tools/call request line is corrupt opens with
// a note on the next event that a line was lost there, and the response to that request
// is not counted as the server's unknown-id violation (an Info note says why).
func TestFeedTraceNotesLostLines(t *testing.T) {
	frames := []struct {
		dir mcpclient.Direction
		raw string
	}{
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{}}}`},
		{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":5,"result":{"content":[]}}`},
	}
	var buf bytes.Buffer
	start := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	w, err := trace.NewWriter(&buf, trace.Header{Start: start, Argv: []string{"demo"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range frames {
		raw := f.raw + "\n"
		kind, msg, probs := mcpclient.Classify([]byte(raw))
		e := mcpclient.Event{Seq: uint64(i + 1), Time: start.Add(time.Duration(i+1) * time.Millisecond), Dir: f.dir, Kind: kind, Msg: msg, Problems: probs, Raw: []byte(raw), Size: int64(len(raw))}
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// Corrupt the line of the tools/call request (the header is line 1).
	lines := strings.SplitAfter(buf.String(), "\n")
	if !strings.Contains(lines[4], "tools/call") {
		t.Fatalf("line 5 is not the tools/call request: %s", lines[4])
	}
	lines[4] = "{this line is corrupt\n"
	data := []byte(strings.Join(lines, ""))
	tr, err := trace.OpenReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	events := make(chan mcpclient.Event, 16)
	feedTrace(context.Background(), tr, events, slog.New(slog.NewTextHandler(io.Discard, nil)))
	close(events)
	var evs []mcpclient.Event
	for ev := range events {
		evs = append(evs, ev)
	}
	if len(evs) != len(frames)-1 {
		t.Fatalf("fed %d events, want %d", len(evs), len(frames)-1)
	}
	last := evs[len(evs)-1]
	if last.LostLines != 1 {
		t.Errorf("the event after the lost line counts %d lost lines, want 1", last.LostLines)
	}
	var noted, unknown bool
	for _, p := range last.Problems {
		switch p.Code {
		case mcpclient.CodeTraceLinesLost:
			noted = strings.Contains(p.Text, "1 trace line(s) just before this event could not be read (the line at byte ")
		case "unknown-id":
			unknown = true
			if p.Severity >= mcpclient.Warning || !strings.Contains(p.Text, "trace lines were lost") {
				t.Errorf("the answer to the lost request is blamed on the server: %+v", p)
			}
		}
	}
	if !noted || !unknown {
		t.Errorf("the event after the lost line lacks the note (%v) or the pairing problem (%v): %+v", noted, unknown, last.Problems)
	}
	for _, ev := range evs[:len(evs)-1] {
		for _, p := range ev.Problems {
			if p.Code == mcpclient.CodeTraceLinesLost {
				t.Errorf("event #%d before the lost line carries the note", ev.Seq)
			}
		}
	}
}
