package ui

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/repeatcmd"
	"github.com/mcp-inspect/mcp-inspect/internal/shellwords"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// copyKey presses k and returns the copy it made: the clipboard text as the Cmd of the
// copiedMsg's Update hands it to bubbletea (tea.SetClipboard's message), and the report.
func copyKey(t *testing.T, m *model, k string) (string, copiedMsg) {
	t.Helper()
	_, cmd := m.Update(keyMsg(k))
	copied, ok := findMsg[copiedMsg](cmd)
	if !ok {
		t.Fatalf("%s made no copy", k)
	}
	_, cmd = m.Update(copied)
	if copied.err != nil {
		if _, ok := clipboardMsg(cmd); ok {
			t.Errorf("%s: a failed copy still set the clipboard", k)
		}
		return "", copied
	}
	if cmd == nil {
		t.Fatalf("%s: the copy never reaches the clipboard", k)
	}
	msg, ok := clipboardMsg(cmd)
	if !ok {
		t.Fatalf("%s: the copy's Cmd gives no tea.SetClipboard message", k)
	}
	clip := fmt.Sprint(msg)
	if clip != copied.text {
		t.Fatalf("%s: the clipboard gets %q, the report says %q", k, clip, copied.text)
	}
	return clip, copied
}

// clipboardMsg finds tea.SetClipboard's message among what cmd gives (its type is
// bubbletea's own).
func clipboardMsg(cmd tea.Cmd) (tea.Msg, bool) {
	if cmd == nil {
		return nil, false
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			if m, ok := clipboardMsg(c); ok {
				return m, true
			}
		}
	default:
		if reflect.TypeOf(msg) == reflect.TypeOf(tea.SetClipboard("")()) {
			return msg, true
		}
	}
	return nil, false
}

// y, Y and alt+y in the wire pane copy the frame masked, the parsed message indented
// and masked, and the exact bytes; each also lands in clipboard.txt in the state
// directory, and the status line says where it went.
func TestCopyWireFrame(t *testing.T) {
	red, err := trace.NewRedactor(trace.RedactConfig{Env: []string{"DB_PASS=hunter2-xyz"}})
	if err != nil {
		t.Fatal(err)
	}
	raw := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"pw hunter2-xyz"}]}}` + "\n"
	m := wireWith(t, ev(2, mcpclient.ServerToClient, raw))
	m.c.hist.dir = t.TempDir()
	m.c.redact = func(b []byte) []byte { out, _ := red.Bytes(b); return out }
	keys(t, m, "j")
	_ = view(m)

	clip, rep := copyKey(t, m, "y")
	if clip != `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"pw ***"}]}}` {
		t.Errorf("y copied %q", clip)
	}
	file, err := os.ReadFile(rep.path)
	if err != nil || string(file) != clip {
		t.Errorf("the file fallback %s holds %q (%v), the clipboard %q", rep.path, file, err, clip)
	}
	mustContain(t, "y's note", m.statusBar(), "copied frame #2 (", "secrets masked) to the clipboard (OSC 52) and ")

	clip, _ = copyKey(t, m, "Y")
	if !strings.Contains(clip, "\n  \"result\": {\n    \"content\": [") || strings.Contains(clip, "hunter2") {
		t.Errorf("Y copied %q", clip)
	}
	mustContain(t, "Y's note", m.statusBar(), "copied message #2 (")

	clip, _ = copyKey(t, m, "alt+y")
	if clip != strings.TrimSuffix(raw, "\n") {
		t.Errorf("alt+y copied %q, want the exact bytes", clip)
	}
	mustContain(t, "alt+y's note", m.statusBar(), "exact bytes, secrets included) to the clipboard")
}

// Without a state directory the copy still goes to the clipboard, and the status line
// names no file; a frame with nothing to parse copies nothing and says why.
func TestCopyWithoutStateDirAndRefusals(t *testing.T) {
	m := wireWith(t, ev(2, mcpclient.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`))
	m.c.hist.dir = ""
	keys(t, m, "j")
	clip, rep := copyKey(t, m, "y")
	if rep.path != "" || !strings.Contains(clip, "notifications/message") {
		t.Errorf("y copied %q to %q", clip, rep.path)
	}
	if !strings.HasSuffix(m.flash.text, "to the clipboard (OSC 52)") {
		t.Errorf("status %q", m.flash.text)
	}
	_, rep = copyKey(t, m, "C")
	if rep.err == nil {
		t.Fatal("C made a command of a notification")
	}
	mustContain(t, "C's refusal", m.statusBar(), "nothing copied: frame #2 is not a request")
	keys(t, m, "g") // the stderr line
	_, rep = copyKey(t, m, "Y")
	if rep.err == nil || !strings.Contains(m.statusBar(), "not a JSON message") {
		t.Errorf("Y on a stderr line: %v; %s", rep.err, m.statusBar())
	}
	keys(t, m, "2")
	if _, rep = copyKey(t, m, "y"); rep.err == nil || !strings.Contains(m.statusBar(), "nothing copied: no call shown") {
		t.Errorf("y in an empty Call pane: %v; %s", rep.err, m.statusBar())
	}
}

// In the Call pane y copies the shown result and C a line that repeats the call (its
// request, from the response); over HTTP C adds a curl line whose credentials are $VAR
// references.
func TestCopyCallResultAndCommand(t *testing.T) {
	lines := append(append([]recorded(nil), modernHandshake...),
		recorded{mcpclient.ClientToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a 'b' c"}}}`, nil}, // seq 3
		recorded{mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"e"}]}}`, nil},                             // seq 4
	)
	m := openOffline(t, pairedRecording(lines))
	m.c.hist.dir = t.TempDir()
	m.launch.argv = []string{"node", "server dir/index.js"}
	keys(t, m, "2")
	_ = loadedView(t, m)

	clip, _ := copyKey(t, m, "y")
	if clip != "{\n  \"content\": [\n    {\n      \"type\": \"text\",\n      \"text\": \"e\"\n    }\n  ]\n}" {
		t.Errorf("y copied %q, want the result indented", clip)
	}
	mustContain(t, "y's note", m.statusBar(), "copied the result of #4 (")

	clip, _ = copyKey(t, m, "C")
	words, err := shellwords.Split(clip)
	want := []string{"mcp-inspect", "call", "echo", "--args", `{"text":"a 'b' c"}`, "--", "node", "server dir/index.js"}
	if err != nil || !reflect.DeepEqual(words, want) {
		t.Errorf("C copied %q: reads back as %q (%v), want %q", clip, words, err, want)
	}
	mustContain(t, "C's note", m.statusBar(), "copied a command repeating #3 (mcp-inspect line")
	m.launch.quoting = shellwords.Windows // as on Windows: a cmd.exe line
	clip, _ = copyKey(t, m, "C")
	words, err = shellwords.SplitWindows(strings.TrimSuffix(clip, "\n"), nil)
	if err != nil || !reflect.DeepEqual(words, want) || !strings.Contains(clip, `--args "{\"text\":\"a 'b' c\"}"`) {
		t.Errorf("C copied %q with Windows quoting: reads back as %q (%v), want %q", clip, words, err, want)
	}
	m.launch.quoting = shellwords.POSIX

	m.launch.argv, m.state().SessionID = []string{"http://127.0.0.1:9/mcp"}, "sess-1"
	m.launch.headers = []repeatcmd.Header{{Name: "Authorization", Prefix: "Bearer ", Ref: "TOKEN"}, {Name: "X-Trace", Value: "on"}}
	clip, _ = copyKey(t, m, "C")
	got := strings.Split(strings.TrimSuffix(clip, "\n"), "\n")
	if len(got) != 2 || !strings.HasPrefix(got[0], "mcp-inspect call echo") || !strings.HasPrefix(got[1], "curl ") {
		t.Fatalf("C over HTTP copied %q", clip)
	}
	mustContain(t, "curl line", got[1], `-H "Authorization: Bearer $TOKEN"`, "'X-Trace: on'", "'Mcp-Session-Id: sess-1'", `"method":"tools/call"`)
	mustContain(t, "C's HTTP note", m.statusBar(), "(mcp-inspect and curl lines")
}

// A copy also reaches the system clipboard when one is given (pbcopy on macOS, where
// Terminal.app has no OSC 52; the Windows clipboard), and the note names it; one that
// fails is left out of the note.
func TestCopyToSystemClipboard(t *testing.T) {
	m := wireWith(t, ev(2, mcpclient.ServerToClient, `{"jsonrpc":"2.0","id":2,"result":{}}`+"\n"))
	m.c.hist.dir = ""
	var got string
	m.c.sysClip = func(text string) (string, error) { got = text; return "pbcopy", nil }
	keys(t, m, "j")
	clip, _ := copyKey(t, m, "y")
	if got == "" || got != clip {
		t.Errorf("the system clipboard got %q, the terminal's %q", got, clip)
	}
	if !strings.HasSuffix(m.flash.text, "to the clipboard (OSC 52 and pbcopy)") {
		t.Errorf("status %q", m.flash.text)
	}
	m.c.sysClip = func(string) (string, error) { return "pbcopy", errors.New("pbcopy: not found") }
	copyKey(t, m, "y")
	if !strings.HasSuffix(m.flash.text, "to the clipboard (OSC 52)") {
		t.Errorf("status after a failed pbcopy %q", m.flash.text)
	}
}

// A copy over osc52Max is not sent to the terminal's clipboard (terminals drop such a
// sequence, and its base64 cost the TUI 8x a 100 MB result): it goes to the file, and
// the note says so and why; without a state directory nothing is copied and the note
// says how to save it. A copy at the limit still goes to the terminal.
func TestCopyTooBigForOSC52(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", osc52Max) + `"}]}}`
	m := wireWith(t, ev(2, mcpclient.ServerToClient, big+"\n"))
	m.c.hist.dir = t.TempDir()
	keys(t, m, "j")
	_, cmd := m.Update(keyMsg("y"))
	copied, ok := findMsg[copiedMsg](cmd)
	if !ok || copied.err != nil || copied.text != "" || copied.size != len(big) {
		t.Fatalf("y made %+v", copied)
	}
	if _, cmd = m.Update(copied); cmd != nil {
		if _, ok := clipboardMsg(cmd); ok {
			t.Fatal("a copy over the limit was sent to the terminal's clipboard")
		}
	}
	file, err := os.ReadFile(copied.path)
	if err != nil || string(file) != big {
		t.Fatalf("the file holds %d bytes (%v), want the %d of the frame", len(file), err, len(big))
	}
	mustContain(t, "the note", m.statusBar(), "copied frame #2 (", ") to "+copied.path, "not to the terminal's clipboard: over 8.0M")

	m.c.hist.dir = ""
	_, cmd = m.Update(keyMsg("y"))
	copied, _ = findMsg[copiedMsg](cmd)
	m.Update(copied)
	mustContain(t, "the note without a file", m.statusBar(), "nothing copied: frame #2 (", "too big for the terminal's clipboard", "w saves it to a file")

	// A system clipboard (pbcopy, the Windows clipboard) still takes it.
	var system string
	m.c.sysClip = func(s string) (string, error) { system = s; return "pbcopy", nil }
	_, cmd = m.Update(keyMsg("y"))
	copied, _ = findMsg[copiedMsg](cmd)
	m.Update(copied)
	if system != big {
		t.Errorf("the system clipboard got %d bytes, want the %d of the frame", len(system), len(big))
	}
	mustContain(t, "the note with a system clipboard", m.statusBar(), "copied frame #2 (", ") to pbcopy; not to the terminal's clipboard")

	small := big[:len(big)-len(`"}]}}`)-(len(big)-osc52Max)] + `"}]}}`
	m = wireWith(t, ev(2, mcpclient.ServerToClient, small+"\n"))
	keys(t, m, "j")
	if clip, _ := copyKey(t, m, "y"); len(clip) != osc52Max {
		t.Errorf("a copy of %d bytes reached the clipboard with %d", osc52Max, len(clip))
	}
}
