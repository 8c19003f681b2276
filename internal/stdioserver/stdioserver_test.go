package stdioserver

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
)

func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", 200_000) // well past bufio.Scanner's 64 KiB default
	in := "a\r\nb\n\n" + long + "\nlast"
	r := bufio.NewReaderSize(strings.NewReader(in), 16)
	want := []string{"a", "b", "", long, "last"}
	for i, w := range want {
		got, err := ReadLine(r)
		if err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if string(got) != w {
			t.Fatalf("line %d: got %d bytes %.20q, want %d bytes %.20q", i, len(got), got, len(w), w)
		}
	}
	if _, err := ReadLine(r); !errors.Is(err, io.EOF) {
		t.Fatalf("after last line: err = %v, want io.EOF", err)
	}
}

func TestParseKinds(t *testing.T) {
	cases := []struct {
		line             string
		req, notif, resp bool
		id               string
		wantErr          bool
	}{
		{line: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, req: true, id: "1"},
		{line: `{"jsonrpc":"2.0","id":"1","method":"ping"}`, req: true, id: `"1"`},
		{line: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, notif: true},
		{line: `{"jsonrpc":"2.0","id":1,"result":{}}`, resp: true, id: "1"},
		{line: `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`, resp: true, id: "null"},
		{line: `not json`, wantErr: true},
	}
	for _, c := range cases {
		m, err := Parse([]byte(c.line))
		if c.wantErr {
			if err == nil {
				t.Errorf("%s: want an error", c.line)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		if m.IsRequest() != c.req || m.IsNotification() != c.notif || m.IsResponse() != c.resp {
			t.Errorf("%s: request=%v notification=%v response=%v", c.line, m.IsRequest(), m.IsNotification(), m.IsResponse())
		}
		if string(m.ID) != c.id {
			t.Errorf("%s: id %q, want %q", c.line, m.ID, c.id)
		}
	}
}

func TestIDKey(t *testing.T) {
	if IDKey([]byte("7")) == IDKey([]byte(`"7"`)) {
		t.Fatal("7 and \"7\" must be different ids")
	}
	if IDKey([]byte(` "a" `)) != `"a"` {
		t.Fatalf("IDKey does not compact: %q", IDKey([]byte(` "a" `)))
	}
}

func TestWriterFrames(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.Respond([]byte(`"x"`), nil); err != nil {
		t.Fatal(err)
	}
	if err := w.RespondError(nil, CodeParseError, "Parse error", nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Notify("notifications/message", map[string]any{"level": "info", "data": "a<b&c"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Request([]byte("1"), "roots/list", struct{}{}); err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":"x","result":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"a<b&c","level":"info"}}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{}}` + "\n"
	if buf.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

// countingWriter records the size of every Write call.
type countingWriter struct {
	mu     sync.Mutex
	writes []int
	buf    bytes.Buffer
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes = append(c.writes, len(p))
	return c.buf.Write(p)
}

func TestWriterConcurrentFramesDoNotInterleave(t *testing.T) {
	cw := &countingWriter{}
	w := NewWriter(cw)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = w.Respond([]byte("1"), map[string]any{"n": i, "pad": strings.Repeat("p", 1000)})
		}()
	}
	wg.Wait()
	if len(cw.writes) != 50 {
		t.Fatalf("%d writes, want 50 (one per frame)", len(cw.writes))
	}
	r := bufio.NewReader(&cw.buf)
	for i := range 50 {
		line, err := ReadLine(r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(line); err != nil {
			t.Fatalf("frame %d is not JSON: %v", i, err)
		}
	}
}
