package repeatcmd

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/shellwords"
)

func TestInspectStdioReadsBackAsTheCall(t *testing.T) {
	req := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"it's $HOME"}}}`
	line, err := Inspect([]byte(req), Target{Argv: []string{"node", "dist/index.js", "--dir", "a b"}, EnvKeys: []string{"API_KEY"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := shellwords.Split(line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	t.Setenv("API_KEY", "s3cret")
	got, _ = shellwords.Split(line)
	want := []string{"mcp-inspect", "call", "echo", "--args", `{"text":"it's $HOME"}`, "-e", "API_KEY=s3cret", "--", "node", "dist/index.js", "--dir", "a b"}
	if !slices.Equal(got, want) {
		t.Errorf("line %s\nreads back as %q\nwant %q", line, got, want)
	}
}

func TestInspectHTTPKeepsCredentialsOut(t *testing.T) {
	req := `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"file:///x y"}}`
	tg := Target{Argv: []string{"https://mcp.example/mcp"}, Headers: []Header{SecretHeader("Authorization"), SecretHeader("X-Api-Key")}, SessionID: "abc", ProtocolVersion: "2025-11-25"}
	line, err := Inspect([]byte(req), tg)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("AUTHORIZATION", "Bearer t0k")
	t.Setenv("X_API_KEY", "k3y")
	got, _ := shellwords.Split(line)
	want := []string{"mcp-inspect", "read", "file:///x y", "-H", "Authorization: Bearer t0k", "-H", "X-Api-Key: k3y", "https://mcp.example/mcp"}
	if !slices.Equal(got, want) {
		t.Errorf("line %s\nreads back as %q\nwant %q", line, got, want)
	}
	curl, ok := Curl([]byte(req), tg)
	if !ok {
		t.Fatal("no curl line for an HTTP target")
	}
	got, _ = shellwords.Split(curl)
	want = []string{"curl", "-sS", "-N", "https://mcp.example/mcp", "-H", "Content-Type: application/json", "-H", "Accept: application/json, text/event-stream",
		"-H", "MCP-Protocol-Version: 2025-11-25", "-H", "Mcp-Session-Id: abc", "-H", "Authorization: Bearer t0k", "-H", "X-Api-Key: k3y", "--data-raw", req}
	if !slices.Equal(got, want) {
		t.Errorf("curl %s\nreads back as %q\nwant %q", curl, got, want)
	}
	for _, secret := range []string{"t0k", "k3y"} {
		if contains(line+curl, secret) {
			t.Errorf("a line holds the credential %q", secret)
		}
	}
}

func TestPromptAndRefusals(t *testing.T) {
	line, err := Inspect([]byte(`{"id":1,"method":"prompts/get","params":{"name":"p","arguments":{"a":"1"}}}`), Target{Argv: []string{"srv"}})
	if err != nil || line != `mcp-inspect prompt p --args '{"a":"1"}' -- srv` {
		t.Errorf("prompt line %q, %v", line, err)
	}
	if _, err := Inspect([]byte(`{"id":1,"method":"tools/list"}`), Target{Argv: []string{"srv"}}); !errors.Is(err, ErrNotRepeatable) {
		t.Errorf("tools/list: %v, want ErrNotRepeatable", err)
	}
	if _, err := Inspect([]byte(`not json`), Target{Argv: []string{"srv"}}); err == nil {
		t.Error("a frame that is not JSON gave a line")
	}
	if _, ok := Curl([]byte(`{}`), Target{Argv: []string{"srv"}}); ok {
		t.Error("a stdio server gave a curl line")
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// TestWindowsLinesReadBackInCmd: with Windows quoting the lines are cmd.exe lines whose
// variable references cmd expands (%NAME%), JSON arguments included.
func TestWindowsLinesReadBackInCmd(t *testing.T) {
	env := func(k string) (string, bool) {
		v, ok := map[string]string{"API_KEY": "s3cret", "AUTHORIZATION": "Bearer t0k", "PATH": `C:\Windows`}[k]
		return v, ok
	}
	req := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"50% & \"more\" %PATH%"}}}`
	argv := []string{`C:\Program Files\nodejs\node.exe`, `C:\srv dir\index.js`}
	line, err := Inspect([]byte(req), Target{Argv: argv, EnvKeys: []string{"API_KEY"}, Quoting: shellwords.Windows})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, ` -e "API_KEY=%API_KEY%" -- "C:\Program Files\nodejs\node.exe" "C:\srv dir\index.js"`) {
		t.Errorf("line %s", line)
	}
	got, err := shellwords.SplitWindows(line, env)
	want := append([]string{"mcp-inspect", "call", "echo", "--args", `{"text":"50% & \"more\" %PATH%"}`, "-e", "API_KEY=s3cret", "--"}, argv...)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("line %s\nreads back as %q (%v)\nwant %q", line, got, err, want)
	}

	http := Target{Argv: []string{"https://mcp.example/mcp"}, Headers: []Header{SecretHeader("Authorization"), SecretHeader("X%Odd")}, Quoting: shellwords.Windows}
	curl, _ := Curl([]byte(req), http)
	if !strings.HasPrefix(curl, "curl.exe -sS -N ") || strings.Contains(curl, "X%Odd") {
		t.Errorf("curl line %s", curl)
	}
	got, err = shellwords.SplitWindows(curl, env)
	if err != nil || !slices.Contains(got, "Authorization: Bearer t0k") || got[len(got)-1] != req {
		t.Errorf("curl %s\nreads back as %q (%v)", curl, got, err)
	}
}

// TestBearerEnvAndPlainHeaders: --bearer-env TOKEN is written as "Bearer $TOKEN", a header
// that is no credential as it was set, and neither line holds the token.
func TestBearerEnvAndPlainHeaders(t *testing.T) {
	req := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"q":"a&b"}}}`
	tg := Target{Argv: []string{"https://mcp.example/mcp"}, Headers: []Header{
		{Name: "Authorization", Prefix: "Bearer ", Ref: "MY_TOKEN"},
		{Name: "X-Trace", Value: "run 'one' $x"},
	}}
	line, err := Inspect([]byte(req), tg)
	if err != nil {
		t.Fatal(err)
	}
	curl, _ := Curl([]byte(req), tg)
	t.Setenv("MY_TOKEN", "t0k")
	for _, l := range []string{line, curl} {
		if !strings.Contains(l, `-H "Authorization: Bearer $MY_TOKEN"`) {
			t.Errorf("line %s does not send Bearer $MY_TOKEN", l)
		}
		got, err := shellwords.Split(l)
		if err != nil || !slices.Contains(got, "Authorization: Bearer t0k") || !slices.Contains(got, "X-Trace: run 'one' $x") {
			t.Errorf("line %s reads back as %q (%v)", l, got, err)
		}
	}
}

// TestAmpersandAsTyped: a frame written by Go's encoder carries & < > as \u0026 \u003c
// \u003e; the lines write the characters, and keep other escapes (an escaped backslash
// before u0026 among them).
func TestAmpersandAsTyped(t *testing.T) {
	req := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"q","arguments":{"url":"https://x.example/?a=1\u0026b=2","html":"\u003cb\u003E","lit":"\\u0026","nl":"a\nb"}}}`
	line, err := Inspect([]byte(req), Target{Argv: []string{"srv"}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := shellwords.Split(line)
	want := `{"url":"https://x.example/?a=1&b=2","html":"<b>","lit":"\\u0026","nl":"a\nb"}`
	if len(got) < 5 || got[4] != want {
		t.Errorf("line %s\nargs %q\nwant %q", line, got, want)
	}
	curl, _ := Curl([]byte(req), Target{Argv: []string{"https://mcp.example/mcp"}})
	if strings.Contains(curl, `\u0026b`) || !strings.Contains(curl, "a=1&b=2") {
		t.Errorf("curl line %s keeps \\u0026", curl)
	}
}
