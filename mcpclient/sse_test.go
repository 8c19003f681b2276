package mcpclient

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// sseChunks returns its chunks one per Read, as a network connection delivers
// separate writes, then io.EOF (or err, when set).
type sseChunks struct {
	chunks []string
	err    error
}

func (r *sseChunks) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		return 0, io.EOF
	}
	n := copy(p, r.chunks[0])
	r.chunks[0] = r.chunks[0][n:]
	if r.chunks[0] == "" {
		r.chunks = r.chunks[1:]
	}
	return n, nil
}

// readAllFrames reads frames until an error and returns both.
func readAllFrames(t *testing.T, r io.Reader) ([]SSEFrame, error) {
	t.Helper()
	sr := NewSSEReader(r)
	var frames []SSEFrame
	for {
		f, err := sr.Next()
		if err != nil {
			if len(frames) > 10000 {
				t.Fatal("too many frames")
			}
			return frames, err
		}
		frames = append(frames, f)
	}
}

func TestSSEReaderFrames(t *testing.T) {
	long := strings.Repeat("x", 1<<20+17) // over any bufio.Scanner default
	tests := []struct {
		name   string
		chunks []string // the stream, one Read each
		want   []SSEFrame
	}{
		{
			name:   "LF event with type",
			chunks: []string{"event: message\ndata: {\"a\":1}\n\n"},
			want: []SSEFrame{{
				Raw: []byte("event: message\ndata: {\"a\":1}\n\n"), Event: "message",
				Data: `{"a":1}`, HasData: true,
			}},
		},
		{
			name:   "CRLF line endings",
			chunks: []string{"id: 1\r\ndata: x\r\n\r\n"},
			want: []SSEFrame{{
				Raw: []byte("id: 1\r\ndata: x\r\n\r\n"), ID: "1", HasID: true, LastEventID: "1",
				Data: "x", HasData: true,
			}},
		},
		{
			name:   "bare CR line endings and multi-line data",
			chunks: []string{"data: a\rdata: b\r\rdata: c\r\r"},
			want: []SSEFrame{
				{Raw: []byte("data: a\rdata: b\r\r"), Data: "a\nb", HasData: true},
				{Offset: 17, Raw: []byte("data: c\r\r"), Data: "c", HasData: true},
			},
		},
		{
			name:   "mixed endings in one frame",
			chunks: []string{"data: a\r\ndata: b\rdata: c\n\r\n"},
			want:   []SSEFrame{{Raw: []byte("data: a\r\ndata: b\rdata: c\n\r\n"), Data: "a\nb\nc", HasData: true}},
		},
		{
			name:   "field without colon and one leading space stripped",
			chunks: []string{"data\ndata:  two\ndata:three\n\n"},
			want: []SSEFrame{{
				Raw: []byte("data\ndata:  two\ndata:three\n\n"), Data: "\n two\nthree", HasData: true,
			}},
		},
		{
			name:   "value holding colons",
			chunks: []string{"data: a: b:c\n\n"},
			want:   []SSEFrame{{Raw: []byte("data: a: b:c\n\n"), Data: "a: b:c", HasData: true}},
		},
		{
			name:   "keep-alive comments",
			chunks: []string{": ping\n\n:\n\n"},
			want: []SSEFrame{
				{Raw: []byte(": ping\n\n"), Comments: []string{" ping"}},
				{Offset: 8, Raw: []byte(":\n\n"), Comments: []string{""}},
			},
		},
		{
			name:   "comment inside an event",
			chunks: []string{"data: a\n: note\ndata: b\n\n"},
			want: []SSEFrame{{
				Raw: []byte("data: a\n: note\ndata: b\n\n"), Data: "a\nb", HasData: true, Comments: []string{" note"},
			}},
		},
		{
			name:   "priming event: id and empty data",
			chunks: []string{"id: 0a1b\ndata:\n\n", "event: message\nid: 0a1c\ndata: {}\n\n"},
			want: []SSEFrame{
				{Raw: []byte("id: 0a1b\ndata:\n\n"), ID: "0a1b", HasID: true, LastEventID: "0a1b", HasData: true},
				{
					Offset: 16, Raw: []byte("event: message\nid: 0a1c\ndata: {}\n\n"), Event: "message",
					ID: "0a1c", HasID: true, LastEventID: "0a1c", Data: "{}", HasData: true,
				},
			},
		},
		{
			name:   "last event ID carries over; an empty id resets it",
			chunks: []string{"id: 5\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: 6\n\nid:\n\n"},
			want: []SSEFrame{
				{Raw: []byte("id: 5\ndata: a\n\n"), ID: "5", HasID: true, LastEventID: "5", Data: "a", HasData: true},
				{Offset: 15, Raw: []byte("data: b\n\n"), LastEventID: "5", Data: "b", HasData: true},
				{Offset: 24, Raw: []byte("id\ndata: c\n\n"), HasID: true, Data: "c", HasData: true},
				{Offset: 36, Raw: []byte("id: 6\n\n"), ID: "6", HasID: true, LastEventID: "6"},
				{Offset: 43, Raw: []byte("id:\n\n"), HasID: true},
			},
		},
		{
			name:   "id holding NUL is ignored",
			chunks: []string{"id: 1\ndata: a\n\nid: a\x00b\ndata: b\n\n"},
			want: []SSEFrame{
				{Raw: []byte("id: 1\ndata: a\n\n"), ID: "1", HasID: true, LastEventID: "1", Data: "a", HasData: true},
				{
					Offset: 15, Raw: []byte("id: a\x00b\ndata: b\n\n"), LastEventID: "1", Data: "b", HasData: true,
					Ignored: []string{"id: a\x00b"},
				},
			},
		},
		{
			name:   "retry: digits only, last valid one wins",
			chunks: []string{"retry: 500\nretry: 5s\nretry: -1\nretry:\nretry: 99999999999999999999\nretry: +7\n\n"},
			want: []SSEFrame{{
				Raw:   []byte("retry: 500\nretry: 5s\nretry: -1\nretry:\nretry: 99999999999999999999\nretry: +7\n\n"),
				Retry: 500, HasRetry: true,
				Ignored: []string{"retry: 5s", "retry: -1", "retry:", "retry: 99999999999999999999", "retry: +7"},
			}},
		},
		{
			name:   "unknown fields are ignored; last event type wins",
			chunks: []string{"foo: bar\nData: x\nevent: a\nevent: endpoint\ndata: /message?sessionId=1\n\n"},
			want: []SSEFrame{{
				Raw:   []byte("foo: bar\nData: x\nevent: a\nevent: endpoint\ndata: /message?sessionId=1\n\n"),
				Event: "endpoint", Data: "/message?sessionId=1", HasData: true,
				Ignored: []string{"foo: bar", "Data: x"},
			}},
		},
		{
			name:   "lone blank lines",
			chunks: []string{"\n\r\n\r"},
			want: []SSEFrame{
				{Raw: []byte("\n")},
				{Offset: 1, Raw: []byte("\r\n")},
				{Offset: 3, Raw: []byte("\r")},
			},
		},
		{
			name:   "BOM at stream start",
			chunks: []string{"\xEF\xBB\xBFdata: x\n\n"},
			want:   []SSEFrame{{Raw: []byte("\xEF\xBB\xBFdata: x\n\n"), BOM: true, Data: "x", HasData: true}},
		},
		{
			name:   "BOM split over reads",
			chunks: []string{"\xEF", "\xBB", "\xBFdata: x\n\n"},
			want:   []SSEFrame{{Raw: []byte("\xEF\xBB\xBFdata: x\n\n"), BOM: true, Data: "x", HasData: true}},
		},
		{
			name:   "only one BOM is stripped",
			chunks: []string{"\xEF\xBB\xBF\xEF\xBB\xBFdata: x\n\n"},
			want: []SSEFrame{{
				Raw: []byte("\xEF\xBB\xBF\xEF\xBB\xBFdata: x\n\n"), BOM: true,
				Ignored: []string{"\xEF\xBB\xBFdata: x"},
			}},
		},
		{
			name:   "a partial BOM is content",
			chunks: []string{"\xEF\xBBdata: x\n\n"},
			want:   []SSEFrame{{Raw: []byte("\xEF\xBBdata: x\n\n"), Ignored: []string{"\xEF\xBBdata: x"}}},
		},
		{
			name:   "BOM only",
			chunks: []string{"\xEF\xBB\xBF"},
			want:   []SSEFrame{{Raw: []byte("\xEF\xBB\xBF"), BOM: true, Unterminated: true}},
		},
		{
			name:   "unterminated last event: complete lines parsed, id not applied",
			chunks: []string{"id: 1\ndata: a\n\nid: 7\ndata: b\n"},
			want: []SSEFrame{
				{Raw: []byte("id: 1\ndata: a\n\n"), ID: "1", HasID: true, LastEventID: "1", Data: "a", HasData: true},
				{
					Offset: 15, Raw: []byte("id: 7\ndata: b\n"), ID: "7", HasID: true, LastEventID: "1",
					Data: "b", HasData: true, Unterminated: true,
				},
			},
		},
		{
			name:   "unterminated last line is raw only",
			chunks: []string{"data: a\n\ndata: part"},
			want: []SSEFrame{
				{Raw: []byte("data: a\n\n"), Data: "a", HasData: true},
				{Offset: 9, Raw: []byte("data: part"), Unterminated: true},
			},
		},
		{
			name:   "line ending in CR at EOF is complete",
			chunks: []string{"data: a\r"},
			want:   []SSEFrame{{Raw: []byte("data: a\r"), Data: "a", HasData: true, Unterminated: true}},
		},
		{
			name:   "CRLF split across reads mid-frame",
			chunks: []string{"data: a\r", "\ndata: b\r", "\n\r\n"},
			want:   []SSEFrame{{Raw: []byte("data: a\r\ndata: b\r\n\r\n"), Data: "a\nb", HasData: true}},
		},
		{
			name:   "dispatching CR at a read boundary: the LF comes with the next frame",
			chunks: []string{"data: a\r\r", "\ndata: b\n\n"},
			want: []SSEFrame{
				{Raw: []byte("data: a\r\r"), Data: "a", HasData: true},
				{Offset: 9, Raw: []byte("\ndata: b\n\n"), Continued: true, Data: "b", HasData: true},
			},
		},
		{
			name:   "dispatching CR at a read boundary, then a bare CR stream",
			chunks: []string{"data: a\r\r", "data: b\r\r"},
			want: []SSEFrame{
				{Raw: []byte("data: a\r\r"), Data: "a", HasData: true},
				{Offset: 9, Raw: []byte("data: b\r\r"), Data: "b", HasData: true},
			},
		},
		{
			name:   "dispatching CR at a read boundary, then only the LF",
			chunks: []string{"data: a\r\r", "\n"},
			want: []SSEFrame{
				{Raw: []byte("data: a\r\r"), Data: "a", HasData: true},
				{Offset: 9, Raw: []byte("\n"), Continued: true},
			},
		},
		{
			name:   "line of any length",
			chunks: []string{"data: " + long[:5000], long[5000:] + "\n", "\n"},
			want:   []SSEFrame{{Raw: []byte("data: " + long + "\n\n"), Data: long, HasData: true}},
		},
		{
			name:   "empty stream",
			chunks: nil,
			want:   nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			frames, err := readAllFrames(t, &sseChunks{chunks: append([]string(nil), tt.chunks...)})
			if err != io.EOF {
				t.Fatalf("err = %v, want io.EOF", err)
			}
			if len(frames) != len(tt.want) {
				t.Fatalf("got %d frames, want %d:\n%s", len(frames), len(tt.want), dumpFrames(frames))
			}
			for i := range frames {
				if !reflect.DeepEqual(frames[i], tt.want[i]) {
					t.Errorf("frame %d:\n got  %+v\n want %+v", i, frames[i], tt.want[i])
				}
			}
			if got, want := string(concatRaw(frames)), strings.Join(tt.chunks, ""); got != want {
				t.Errorf("raw bytes do not add up:\n got  %q\n want %q", got, want)
			}
		})
	}
}

func dumpFrames(frames []SSEFrame) string {
	var b strings.Builder
	for i, f := range frames {
		fmt.Fprintf(&b, "  %d: %q\n", i, f.Raw)
	}
	return b.String()
}

func concatRaw(frames []SSEFrame) []byte {
	var b []byte
	for _, f := range frames {
		b = append(b, f.Raw...)
	}
	return b
}

func TestSSEFrameDispatches(t *testing.T) {
	for _, tt := range []struct {
		f    SSEFrame
		want bool
	}{
		{SSEFrame{HasData: true}, true},                       // priming event: empty data
		{SSEFrame{HasData: true, Data: "x"}, true},            // an event
		{SSEFrame{Comments: []string{"ping"}}, false},         // keep-alive
		{SSEFrame{HasID: true, ID: "1"}, false},               // id only: updates the last event ID, no event
		{SSEFrame{HasData: true, Unterminated: true}, false},  // cut off: discarded
		{SSEFrame{HasRetry: true, Retry: 500}, false},         // retry only
		{SSEFrame{Event: "endpoint", HasData: false}, false},  // a type but no data
		{SSEFrame{Event: "endpoint", HasData: true}, true},    // a type and data
		{SSEFrame{BOM: true, Unterminated: true}, false},      // a BOM and nothing else
		{SSEFrame{Continued: true, Raw: []byte("\n")}, false}, // the tail of a CRLF
	} {
		if got := tt.f.Dispatches(); got != tt.want {
			t.Errorf("%+v.Dispatches() = %v, want %v", tt.f, got, tt.want)
		}
	}
}

func TestSSEReaderReadError(t *testing.T) {
	boom := errors.New("connection reset")
	sr := NewSSEReader(&sseChunks{chunks: []string{"id: 3\ndata: a\n\n", "id: 4\ndata: b"}, err: boom})
	f, err := sr.Next()
	if err != nil || f.Data != "a" || f.LastEventID != "3" {
		t.Fatalf("first frame %+v, %v", f, err)
	}
	f, err = sr.Next()
	if err != nil || !f.Unterminated || string(f.Raw) != "id: 4\ndata: b" || f.LastEventID != "3" {
		t.Fatalf("second frame %+v, %v; want the unterminated tail", f, err)
	}
	for range 2 {
		if _, err := sr.Next(); err != boom {
			t.Fatalf("err = %v, want %v (sticky)", err, boom)
		}
	}
	if got := sr.LastEventID(); got != "3" {
		t.Errorf("LastEventID() = %q, want %q: a reconnect resumes after the last dispatched event", got, "3")
	}
}

// TestSSEReaderLive checks that a frame is returned as soon as its blank line
// has arrived, without waiting for more of the stream: an inspector shows a
// frame when it comes, and a client must answer a request inside a stream.
func TestSSEReaderLive(t *testing.T) {
	for _, first := range []string{"data: a\n\n", "data: a\r\n\r\n", "data: a\r\r", ": keep-alive\n\n", "\xEF\xBB\xBFdata: a\n\n"} {
		pr, pw := io.Pipe()
		sr := NewSSEReader(pr)
		got := make(chan SSEFrame, 1)
		go func() {
			f, _ := sr.Next()
			got <- f
		}()
		if _, err := pw.Write([]byte(first)); err != nil {
			t.Fatal(err)
		}
		select {
		case f := <-got:
			if string(f.Raw) != first {
				t.Errorf("frame %q, want %q", f.Raw, first)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("%q: no frame while the stream stays open", first)
		}
		pw.Close()
	}
}

// refEvent is an event as a browser's EventSource would fire it.
type refEvent struct{ typ, data, lastID string }

// refParse is a literal transcription of the HTML spec's event stream
// interpretation over a whole, finished stream, to check SSEReader against.
func refParse(in []byte) []refEvent {
	in = bytes.TrimPrefix(in, []byte("\xEF\xBB\xBF"))
	var events []refEvent
	var data []byte
	typ, idBuf := "", ""
	for {
		i := bytes.IndexAny(in, "\r\n")
		if i < 0 {
			return events // pending data at the end is discarded
		}
		line := in[:i]
		if in[i] == '\r' && i+1 < len(in) && in[i+1] == '\n' {
			in = in[i+2:]
		} else {
			in = in[i+1:]
		}
		if len(line) == 0 {
			if len(data) == 0 {
				typ = ""
				continue
			}
			if typ == "" {
				typ = "message"
			}
			events = append(events, refEvent{typ, string(data[:len(data)-1]), idBuf})
			data, typ = nil, ""
			continue
		}
		if line[0] == ':' {
			continue
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(name) {
		case "event":
			typ = string(value)
		case "data":
			data = append(append(data, value...), '\n')
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				idBuf = string(value)
			}
		}
	}
}

// semantic is a frame without its byte placement, for comparing two reads of
// one stream that split it differently.
func semantic(f SSEFrame) SSEFrame {
	f.Raw, f.Offset, f.Continued = nil, 0, false
	return f
}

func FuzzSSEReader(f *testing.F) {
	for _, s := range []string{
		"event: message\ndata: {}\n\n", "id: 1\r\ndata: x\r\n\r\n", "data: a\rdata: b\r\r",
		": ping\n\n", "id: p\ndata:\n\n", "id\ndata: c\n\n", "id: a\x00b\ndata: b\n\n",
		"retry: 500\nretry: x\n\n", "\xEF\xBB\xBFdata: x\n\n", "data: a\n\ndata: part", "\r\n\r\n\n\r",
		"data\n\n", "event\ndata\n\n", "\xEF\xBB",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		whole, err := readAllFrames(t, bytes.NewReader(in))
		if err != io.EOF {
			t.Fatalf("err = %v", err)
		}
		if got := concatRaw(whole); !bytes.Equal(got, in) {
			t.Fatalf("raw bytes %q, want %q", got, in)
		}
		var off int64
		var events []refEvent
		for i, fr := range whole {
			if fr.Offset != off {
				t.Fatalf("frame %d offset %d, want %d", i, fr.Offset, off)
			}
			off += int64(len(fr.Raw))
			if len(fr.Raw) == 0 {
				t.Fatalf("frame %d is empty", i)
			}
			if fr.Unterminated && i != len(whole)-1 {
				t.Fatalf("frame %d is unterminated but not last", i)
			}
			if fr.Dispatches() {
				typ := fr.Event
				if typ == "" {
					typ = "message"
				}
				events = append(events, refEvent{typ, fr.Data, fr.LastEventID})
			}
		}
		if want := refParse(in); !reflect.DeepEqual(events, want) {
			t.Fatalf("events %q, want %q (the spec's)", events, want)
		}

		// One byte per Read: the same frames, placed differently only where a
		// CRLF's LF comes after its frame was returned.
		bytewise, err := readAllFrames(t, iotest.OneByteReader(bytes.NewReader(in)))
		if err != io.EOF {
			t.Fatalf("bytewise err = %v", err)
		}
		if got := concatRaw(bytewise); !bytes.Equal(got, in) {
			t.Fatalf("bytewise raw bytes %q, want %q", got, in)
		}
		var a, b []SSEFrame
		for _, fr := range whole {
			a = append(a, semantic(fr))
		}
		for _, fr := range bytewise {
			if fr.Continued && len(fr.Raw) == 1 {
				continue // the LF that ended the frame before
			}
			b = append(b, semantic(fr))
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("bytewise frames differ:\n got  %+v\n want %+v", b, a)
		}
	})
}
