package mcpclient

import (
	"fmt"
	"strings"
	"testing"
)

// frameAll frames the chunks in pull mode and in push mode and checks both agree.
func frameAll(t *testing.T, chunks ...string) []string {
	t.Helper()
	var bs [][]byte
	for _, c := range chunks {
		bs = append(bs, []byte(c))
	}
	var pull []string
	for _, f := range allFrames(t, NewFramer(&chunkReader{chunks: bs}, 0)) {
		pull = append(pull, string(f.Raw))
	}
	var push []string
	pf := NewPushFramer(0)
	for _, c := range chunks {
		pf.Feed([]byte(c), func(f Frame) { push = append(push, string(f.Raw)) })
	}
	pf.End(func(f Frame) { push = append(push, string(f.Raw)) })
	if strings.Join(pull, "|") != strings.Join(push, "|") {
		t.Fatalf("pull %q\npush %q", pull, push)
	}
	return pull
}

func TestFramerContentLength(t *testing.T) {
	a := `{"jsonrpc":"2.0","id":1,"result":{}}`
	b := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x\ny"}}`
	fa := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(a), a)
	fb := fmt.Sprintf("Content-Type: application/json\r\ncontent-length: %d\r\n\r\n%s", len(b), b)
	stream := fa + fb + `{"jsonrpc":"2.0","id":2,"result":{}}` + "\n"
	want := []string{fa, fb, `{"jsonrpc":"2.0","id":2,"result":{}}` + "\n"}
	for name, chunks := range map[string][]string{
		"one read":                 {stream},
		"byte per read":            strings.Split(stream, ""),
		"split in header and body": {stream[:10], stream[10:30], stream[30:70], stream[70:]},
	} {
		got := frameAll(t, chunks...)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: frames\n%q\nwant\n%q", name, got, want)
		}
	}
}

func TestFramerHeaderCutShort(t *testing.T) {
	// A header block with no blank line before a JSON line, and one without a length: the
	// header lines are frames of their own, the JSON line is not swallowed.
	got := frameAll(t, "Content-Length: 5\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n", "Content-Type: x\r\n\r\n", "{\"a\":1}\n")
	want := []string{"Content-Length: 5\r\n", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n", "Content-Type: x\r\n\r\n", "{\"a\":1}\n"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("frames\n%q\nwant\n%q", got, want)
	}
}

func TestFramerPrettyPrinted(t *testing.T) {
	pretty := "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {\n    \"text\": \"} ] {\\\" [\"\n  }\n}\n"
	for name, chunks := range map[string][]string{
		"one read":      {pretty + "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n"},
		"byte per read": strings.Split(pretty+"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n", ""),
	} {
		got := frameAll(t, chunks...)
		if len(got) != 2 || got[0] != pretty || got[1] != "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n" {
			t.Errorf("%s: frames %q", name, got)
		}
	}
	// An opening line never closed: the frame ends before the next line at column 0.
	got := frameAll(t, "{\n  \"a\": 1,\n{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n")
	if len(got) != 2 || got[0] != "{\n  \"a\": 1,\n" || got[1] != "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n" {
		t.Fatalf("broken pretty-printed frame swallowed the next: %q", got)
	}
}

// TestFramerPrettyPrintedEscapedQuoteLast: an escaped quote followed by a closing bracket
// inside a string of a pretty-printed last frame (the stream ends after it) keeps the frame
// whole: the depth scan skips the quote the backslash escapes, or the "}" after it would
// close the value a line early and split the frame in two (issue 26's mutation pass).
func TestFramerPrettyPrintedEscapedQuoteLast(t *testing.T) {
	// Read with the backslash ignored, the quote would end the string and "}" take the depth to
	// 0 at the end of that line.
	pretty := "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {},\n  \"x\": \"a\\\"}\"\n}\n"
	for name, chunks := range map[string][]string{
		"one read":         {pretty},
		"byte per read":    strings.Split(pretty, ""),
		"no final newline": {strings.TrimSuffix(pretty, "\n")},
	} {
		got := frameAll(t, chunks...)
		want := strings.Join(chunks, "")
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: frames %q, want the one frame %q", name, got, want)
		}
	}
}

func TestClassifyFramings(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"result":{"ok":true}}`
	kind, msg, probs := Classify([]byte("Content-Length: 46\r\n\r\n" + body))
	if kind != KindResponse || msg == nil || string(msg.ID) != "1" {
		t.Fatalf("header-framed response: %v %+v", kind, msg)
	}
	if len(probs) != 1 || probs[0].Code != CodeLSPFraming || probs[0].Severity != Warning {
		t.Fatalf("header-framed response problems: %+v", probs)
	}
	if kind, _, probs := Classify([]byte("Content-Length: 46\r\n")); kind != KindHeader || !HasCode(probs, CodeLSPFraming) {
		t.Fatalf("a header line alone: %v %+v", kind, probs)
	}
	kind, msg, probs = Classify([]byte("{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 2,\n  \"result\": {}\n}\n"))
	if kind != KindResponse || string(msg.ID) != "2" {
		t.Fatalf("pretty-printed response: %v %+v", kind, msg)
	}
	if len(probs) != 1 || probs[0].Code != CodeMultiline || !strings.Contains(probs[0].Text, "5 lines") {
		t.Fatalf("pretty-printed response problems: %+v", probs)
	}
}
