package session

import (
	"encoding/json"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

func TestCapabilities(t *testing.T) {
	if caps := string((ClientFeatures{NoSampling: true, NoElicitationURL: true, NoRoots: true}).Capabilities()); caps != `{"elicitation":{"form":{}}}` {
		t.Fatalf("capabilities %s", caps)
	}
	if caps := string(ClientFeatures{}.Capabilities()); caps != `{"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true},"sampling":{}}` {
		t.Fatalf("all capabilities %s", caps)
	}
	if caps := string((ClientFeatures{NoSampling: true, NoElicitation: true, NoRoots: true}).Capabilities()); caps != `{}` {
		t.Fatalf("none %s", caps)
	}
}

func TestSupports(t *testing.T) {
	f := ClientFeatures{NoSampling: true, NoElicitationURL: true, NoRoots: true}
	for _, c := range []struct {
		method, params string
		code           int64
		msg            string
	}{
		{"sampling/createMessage", `{}`, -32601, "Method not found: mcp-inspect does not offer sampling/createMessage (sampling is turned off)"},
		{"roots/list", `{}`, -32601, "Method not found: mcp-inspect does not offer roots/list (roots are turned off)"},
		{"elicitation/create", `{"mode":"url"}`, -32602, `elicitation mode "url" was not declared by the client`},
		{"elicitation/create", `{}`, 0, ""},
		{"bogus/method", `{}`, -32601, "Method not found: mcp-inspect does not offer bogus/method"},
	} {
		e := f.Supports(c.method, json.RawMessage(c.params))
		switch {
		case c.code == 0 && e != nil:
			t.Errorf("%s: %v", c.method, e)
		case c.code != 0 && (e == nil || e.Code != c.code || e.Message != c.msg):
			t.Errorf("%s %s: %+v, want %d %q", c.method, c.params, e, c.code, c.msg)
		}
	}
	if e := (ClientFeatures{NoElicitation: true}).Supports("elicitation/create", nil); e == nil || e.Message != "Method not found: mcp-inspect does not offer elicitation/create (elicitation is turned off)" {
		t.Fatalf("no elicitation: %+v", e)
	}
	for _, m := range []string{"sampling/createMessage", "roots/list", "elicitation/create"} {
		if e := (ClientFeatures{}).Supports(m, json.RawMessage(`{"mode":"url"}`)); e != nil {
			t.Errorf("all on, %s: %v", m, e)
		}
	}
}

func TestElicitMode(t *testing.T) {
	for params, want := range map[string]string{`{}`: "form", `{"mode":"url"}`: "url", `not json`: "form", `{"mode":"form"}`: "form"} {
		if got := ElicitMode(json.RawMessage(params)); got != want {
			t.Errorf("ElicitMode(%s) = %q", params, got)
		}
	}
}

func TestConfigure(t *testing.T) {
	q := NewRequestQueue(nil)
	var cfg mcpclient.Config
	ClientFeatures{NoTasks: true, NoSampling: true}.Configure(&cfg, q)
	if string(cfg.Capabilities) != `{"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true}}` || !cfg.NoTasksExtension || cfg.OnServerRequest == nil {
		t.Fatalf("cfg %+v", cfg)
	}
	cfg.OnServerRequest(&mcpclient.ServerRequest{Method: "roots/list", InputKey: "k", Seq: 4})
	if got := q.Take(); len(got) != 1 || got[0].Method != "roots/list" || got[0].Key != "k" || got[0].Seq != 4 || !got[0].Modern() {
		t.Fatalf("queued %+v", got)
	}
}
