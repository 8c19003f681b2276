package mcpclient

import (
	"encoding/json"
	"net/http"
	"testing"
)

func TestHeaderValue(t *testing.T) {
	for in, want := range map[string]string{
		"plain":         "plain",
		"us-west1":      "us-west1",
		" lead":         "=?base64?IGxlYWQ=?=",
		"café":          "=?base64?Y2Fmw6k=?=",
		"a\nb":          "=?base64?YQpi?=",
		"=?base64?x?=":  "=?base64?PT9iYXNlNjQ/eD89?=",
		"":              "",
		"with space in": "with space in",
	} {
		if got := headerValue(in); got != want {
			t.Errorf("headerValue(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValidateHeaderAnnotations(t *testing.T) {
	ok := `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer","x-mcp-header":"N"}}}`
	if err := ValidateHeaderAnnotations(json.RawMessage(ok)); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		`{"properties":{"r":{"type":"number","x-mcp-header":"R"}}}`,
		`{"properties":{"r":{"type":"string","x-mcp-header":""}}}`,
		`{"properties":{"r":{"type":"string","x-mcp-header":"a b"}}}`,
		`{"properties":{"r":{"type":"string","x-mcp-header":"X"},"s":{"type":"string","x-mcp-header":"x"}}}`,
	} {
		if ValidateHeaderAnnotations(json.RawMessage(bad)) == nil {
			t.Errorf("%s: want an error", bad)
		}
	}
}

func TestModernHeaders(t *testing.T) {
	tr := &streamable{toolParams: map[string][]paramBinding{}}
	tr.noteTools([]byte(`{"result":{"tools":[{"name":"geo","inputSchema":{"properties":{"region":{"type":"string","x-mcp-header":"Region"},"loc":{"type":"object","properties":{"zone":{"type":"integer","x-mcp-header":"Zone"}}}}}}]}}`))
	h := http.Header{}
	params := json.RawMessage(`{"name":"geo","arguments":{"region":"über","loc":{"zone":3}}}`)
	tr.setModernHeaders(h, outFrame{msg: &Message{Method: "tools/call", Params: params}, version: "2026-07-28"})
	want := map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "geo", "Mcp-Param-Region": "=?base64?w7xiZXI=?=", "Mcp-Param-Zone": "3", "Mcp-Protocol-Version": "2026-07-28"}
	for k, v := range want {
		if got := h.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
}
