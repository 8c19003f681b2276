package configwrap

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/hostconfig"
)

const exe = "/opt/mcp-inspect/bin/mcp-inspect"

// The three host formats, each with comments, trailing commas (where the host allows them),
// other servers before and after, and other top-level keys.
type fixture struct {
	name, path, server string
	data               string
}

func fixtures() []fixture {
	return []fixture{
		{"claude-desktop", "/home/me/.config/Claude/claude_desktop_config.json", "everything", `{
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/Desktop"]
    },
    "everything": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-everything"
      ],
      "env": {"DEBUG": "1", "TOKEN": "s3cr\u00e9t \"quoted\""}
    },
    "weather": {"command": "uvx", "args": ["weather-mcp"], "disabled": true}
  }
}
`},
		{"vscode", "/work/proj/.vscode/mcp.json", "everything", `// VS Code workspace servers
{
	"inputs": [
		{"type": "promptString", "id": "api-key", "description": "API key", "password": true},
	],
	"servers": {
		"remote": {"type": "http", "url": "https://example.com/mcp"},
		"everything": {
			"type": "stdio",
			/* the reference server */
			"command": "node",
			"args": ["${workspaceFolder}/node_modules/@modelcontextprotocol/server-everything/dist/index.js",],
			"envFile": "${workspaceFolder}/.env",
		},
	},
}
`},
		{"cursor", "/work/proj/.cursor/mcp.json", "everything", `{
  "mcpServers": {
    "everything": {
      "command": "npx",
      "env": {"HOME_DIR": "${userHome}"}
    },
    "postgres": {"command": "docker", "args": ["run", "-i", "--rm", "mcp/postgres", "postgresql://host/db"]}
  }
}
`},
	}
}

func servers(t *testing.T, data []byte, path string) []hostconfig.Server {
	t.Helper()
	f, err := hostconfig.Parse(data, path, hostconfig.Options{Home: "/home/me", LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, data)
	}
	return f.Servers
}

// TestRoundTrip wraps and unwraps one entry of each format: the wrapped entry starts the
// tap with the original command line after "--", every other server and key is unchanged
// (and every byte outside the entry's command and args), wrapping twice is refused, and
// unwrapping restores the file byte for byte, with or without the backup.
func TestRoundTrip(t *testing.T) {
	for _, fx := range fixtures() {
		t.Run(fx.name, func(t *testing.T) {
			orig := []byte(fx.data)
			before := servers(t, orig, fx.path)
			out, err := Wrap(orig, fx.server, Options{Exe: exe})
			if err != nil {
				t.Fatal(err)
			}
			after := servers(t, out, fx.path)
			if len(after) != len(before) {
				t.Fatalf("servers %d → %d", len(before), len(after))
			}
			for i := range before {
				b, a := before[i], after[i]
				if b.Name != fx.server {
					if !reflect.DeepEqual(a, b) {
						t.Errorf("server %q changed:\n%+v\n%+v", b.Name, b, a)
					}
					continue
				}
				want := append([]string{"tap", "--name", fx.server, "--", b.Command}, b.Args...)
				if a.Command != exe || !reflect.DeepEqual(a.Args, want) {
					t.Errorf("wrapped: %q %q, want %q %q", a.Command, a.Args, exe, want)
				}
				a.Command, a.Args, b.Command, b.Args, a.Notes, b.Notes = "", nil, "", nil, nil, nil
				if !reflect.DeepEqual(a, b) {
					t.Errorf("wrapping changed more than command and args:\n%+v\n%+v", b, a)
				}
			}
			// Outside the entry nothing moved: the text before it and after it is the same.
			name := []byte(`"` + fx.server + `"`)
			i := bytes.Index(orig, name)
			if !bytes.HasPrefix(out, orig[:i]) {
				t.Error("the text before the entry changed")
			}
			if ok, _ := Wrapped(out, fx.server); !ok {
				t.Error("Wrapped says no")
			}
			if _, err := Wrap(out, fx.server, Options{Exe: exe}); !errors.Is(err, ErrWrapped) {
				t.Errorf("second wrap: %v, want ErrWrapped", err)
			}
			for _, backup := range [][]byte{orig, nil} {
				back, err := Unwrap(out, fx.server, backup)
				if err != nil {
					t.Fatal(err)
				}
				if backup != nil && !bytes.Equal(back, orig) {
					t.Errorf("unwrap with the backup is not the original:\n%s", back)
				}
				if !reflect.DeepEqual(servers(t, back, fx.path), before) {
					t.Errorf("unwrap (backup %v) does not restore the servers:\n%s", backup != nil, back)
				}
			}
			if _, err := Unwrap(orig, fx.server, nil); !errors.Is(err, ErrNotWrapped) {
				t.Errorf("unwrap of an unwrapped entry: %v", err)
			}
		})
	}
}

// TestUnwrapWithoutBackup: without a backup the values come back as they were; args that
// were written on several lines come back on one, and an entry that had no args gets an
// empty list.
func TestUnwrapWithoutBackup(t *testing.T) {
	for _, tc := range []struct {
		fx   int
		want string
	}{
		{0, `"command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-everything"],
      "env"`},
		{2, `"command": "npx", "args": [],
      "env"`},
	} {
		fx := fixtures()[tc.fx]
		out, err := Wrap([]byte(fx.data), fx.server, Options{Exe: exe})
		if err != nil {
			t.Fatal(err)
		}
		back, err := Unwrap(out, fx.server, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(back), tc.want) {
			t.Errorf("%s unwrapped:\n%s", fx.name, back)
		}
	}
}

// TestWrapOptions: the tap's name, extra flags, a command given as an array, a BOM and
// settings.json's "mcp" section.
func TestWrapOptions(t *testing.T) {
	data := []byte("\xef\xbb\xbf{\"mcp\": {\"servers\": {\"x\": {\"command\": [\"python\", \"-m\", \"srv\"], \"args\": [\"--v\"]}}}, \"editor.fontSize\": 14}")
	out, err := Wrap(data, "x", Options{Exe: exe, Name: "my tap", Extra: []string{"--record", "/tmp/x y.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, []byte("\xef\xbb\xbf{")) {
		t.Error("the BOM was lost")
	}
	s := servers(t, out, "/u/.config/Code/User/settings.json")
	want := []string{"tap", "--name", "my tap", "--record", "/tmp/x y.jsonl", "--", "python", "-m", "srv", "--v"}
	if s[0].Command != exe || !reflect.DeepEqual(s[0].Args, want) {
		t.Errorf("got %q %q", s[0].Command, s[0].Args)
	}
	back, err := Unwrap(out, "x", data)
	if err != nil || !bytes.Equal(back, data) {
		t.Errorf("unwrap: %v\n%q", err, back)
	}
}

// TestWrapRefusals: unknown servers, HTTP servers and entries without a command are refused
// with a reason.
func TestWrapRefusals(t *testing.T) {
	data := []byte(fixtures()[1].data)
	for _, tc := range []struct{ server, want string }{
		{"nope", `no server "nope"; the file has: remote, everything`},
		{"remote", "not a stdio server"},
	} {
		if _, err := Wrap(data, tc.server, Options{Exe: exe}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("wrap %s: %v, want %q", tc.server, err, tc.want)
		}
	}
	if _, err := Wrap([]byte(`{"other": 1}`), "x", Options{Exe: exe}); err == nil || !strings.Contains(err.Error(), `no "mcpServers"`) {
		t.Errorf("not a host config: %v", err)
	}
}
