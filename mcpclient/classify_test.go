package mcpclient

import (
	"strconv"
	"strings"
	"testing"
)

func hasProblem(probs []Problem, code ProblemCode) bool {
	for _, p := range probs {
		if p.Code == code {
			return true
		}
	}
	return false
}

func TestClassify(t *testing.T) {
	cases := []struct {
		name  string
		raw   string
		kind  Kind
		probs []ProblemCode
	}{
		{"request", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n", KindRequest, nil},
		{"string id request", `{"jsonrpc":"2.0","id":"a","method":"roots/list","params":{}}` + "\n", KindRequest, nil},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/message","params":{}}` + "\n", KindNotification, nil},
		{"response", `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n", KindResponse, nil},
		{"error response", `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope"}}` + "\n", KindErrorResponse, nil},
		{"B01 banner", "Demo MCP Server v1.0.0 started successfully\n", KindNotJSON, []ProblemCode{"not-json"}},
		{"B01b JSON log", `{"level":"info","msg":"client initialized","time":"2025-01-01T00:00:00.000Z"}` + "\n", KindNotJSONRPC, []ProblemCode{"not-jsonrpc"}},
		{"B07 member order", `{"method":"notifications/message","params":{"level":"info","data":"x"},"jsonrpc":"2.0"}` + "\n", KindNotification, nil},
		{"crlf", `{"jsonrpc":"2.0","id":1,"result":{}}` + "\r\n", KindResponse, []ProblemCode{"crlf"}},
		{"empty", "\n", KindEmpty, []ProblemCode{"empty"}},
		{"batch", `[{"jsonrpc":"2.0","id":1,"result":{}}]` + "\n", KindBatch, []ProblemCode{"batch"}},
		{"scalar", "42\n", KindNotJSONRPC, []ProblemCode{"not-jsonrpc"}},
		{"lsp header", "Content-Length: 52\r\n", KindHeader, []ProblemCode{"lsp-framing"}},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"result":{}}` + "\n", KindResponse, []ProblemCode{"jsonrpc-version"}},
		{"null id request", `{"jsonrpc":"2.0","id":null,"method":"x"}` + "\n", KindRequest, []ProblemCode{"null-id"}},
		{"float id", `{"jsonrpc":"2.0","id":1.5,"result":{}}` + "\n", KindResponse, []ProblemCode{"bad-id"}},
		{"both", `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}` + "\n", KindErrorResponse, []ProblemCode{"result-and-error"}},
		{"bom", "\xef\xbb\xbf" + `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n", KindResponse, []ProblemCode{"bom"}},
		{"B05 invalid utf8", "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"\xc7\xd1\xb1\xdb\"}]}}\n", KindResponse, []ProblemCode{"invalid-utf8"}},
		{"B05 surrogate", `{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"abc\ud83d"}]}}` + "\n", KindResponse, []ProblemCode{"unpaired-surrogate"}},
		{"paired surrogate ok", `{"jsonrpc":"2.0","id":4,"result":{"t":"\ud83d\ude00"}}` + "\n", KindResponse, nil},
		{"no newline", `{"jsonrpc":"2.0","id":1,"result":{}}`, KindResponse, []ProblemCode{"no-newline"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			kind, msg, probs := Classify([]byte(tc.raw))
			if kind != tc.kind {
				t.Fatalf("kind = %v, want %v (problems %v)", kind, tc.kind, probs)
			}
			if kind.IsMessage() && msg == nil {
				t.Fatalf("message kinds must carry the envelope")
			}
			for _, code := range tc.probs {
				if !hasProblem(probs, code) {
					t.Errorf("missing problem %q in %v", code, probs)
				}
			}
			if len(tc.probs) == 0 && len(probs) != 0 {
				t.Errorf("clean frame got problems %v", probs)
			}
		})
	}
}

func TestClassifyInvalidUTF8Offset(t *testing.T) {
	raw := "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"text\":\"\xc7\xd1\"}}\n"
	_, msg, probs := Classify([]byte(raw))
	if msg == nil || string(msg.ID) != "4" {
		t.Fatalf("the response must still parse with its id, got %+v", msg)
	}
	want := strings.Index(raw, "\xc7")
	for _, p := range probs {
		if p.Code == "invalid-utf8" {
			if !strings.Contains(p.Text, "at byte "+strconv.Itoa(want)) || !strings.Contains(p.Text, "C7 D1") {
				t.Errorf("problem text %q should name byte %d and the bytes", p.Text, want)
			}
			return
		}
	}
	t.Fatal("no invalid-utf8 problem")
}

func FuzzClassify(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"))
	f.Add([]byte("hello\r\n"))
	f.Add([]byte(`"\ud800"`))
	f.Fuzz(func(t *testing.T, b []byte) {
		kind, msg, _ := Classify(b)
		if kind.IsMessage() != (msg != nil) {
			t.Fatalf("kind %v with msg %v", kind, msg)
		}
	})
}
