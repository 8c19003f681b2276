package ui

import (
	"bytes"
	"os"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// w saves a frame with the session's secrets masked (in the escaped form the server wrote
// them in, too) and says so in the status line; W saves the exact bytes and says that.
func TestSaveFrameRedactedByDefault(t *testing.T) {
	red, err := trace.NewRedactor(trace.RedactConfig{Env: []string{"DB_PASS=pässwörd-123"}})
	if err != nil {
		t.Fatal(err)
	}
	raw := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"p\u00e4ssw\u00f6rd-123 and pässwörd-123"}]}}` + "\n"
	m := wireWith(t, ev(2, mcpclient.ServerToClient, raw))
	m.c.hist.dir = t.TempDir()
	m.c.redact = func(b []byte) []byte { out, _ := red.Bytes(b); return out }
	keys(t, m, "j")
	_ = view(m)
	save := func(k string) (frameSavedMsg, []byte) {
		t.Helper()
		_, cmd := m.Update(keyMsg(k))
		saved, ok := findMsg[frameSavedMsg](cmd)
		if !ok || saved.err != nil {
			t.Fatalf("%s: %+v %v", k, saved, ok)
		}
		m.Update(saved)
		data, err := os.ReadFile(saved.path)
		if err != nil {
			t.Fatal(err)
		}
		return saved, data
	}
	_, data := save("w")
	if bytes.Contains(data, []byte("rd-123")) || !bytes.Contains(data, []byte(`"text":"*** and ***"`)) {
		t.Fatalf("w saved %s", data)
	}
	mustContain(t, "w's note", m.statusBar(), "frame #2 saved with secrets masked (W: exact bytes) to ")
	_, data = save("W")
	if !bytes.Equal(data, []byte(raw)) {
		t.Fatalf("W saved %s, want the exact bytes", data)
	}
	mustContain(t, "W's note", m.statusBar(), "frame #2 saved exact, secrets included, to ")
}
