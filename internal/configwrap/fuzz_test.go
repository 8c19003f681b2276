package configwrap

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/hostconfig"
)

// arrayCommandNote is hostconfig's note on a "command" written as an array: a note on how
// the file is written, which Unwrap without a backup normalizes to a string.
const arrayCommandNote = `"command" is an array; its first element is the command and the rest come before "args"`

// withoutFormNotes is servers with the notes on the file's form taken out; everything a
// server runs with (command, args, env, notes on values) stays compared.
func withoutFormNotes(servers []hostconfig.Server) []hostconfig.Server {
	out := make([]hostconfig.Server, len(servers))
	for i, s := range servers {
		var notes []string
		for _, n := range s.Notes {
			if n != arrayCommandNote {
				notes = append(notes, n)
			}
		}
		s.Notes = notes
		out[i] = s
	}
	return out
}

// FuzzWrapRoundTrip: on any file and server name, Wrap either refuses or writes a file in
// which the entry is wrapped; unwrapping it with the backup gives the original bytes back,
// and without the backup the same servers (issue 15).
func FuzzWrapRoundTrip(f *testing.F) {
	for _, fx := range fixtures() {
		f.Add(fx.data, fx.server, fx.path)
	}
	f.Add(`{"mcpServers":{"a":{"command":"x","args":[]}}}`, "a", "/p/.cursor/mcp.json")
	f.Fuzz(func(t *testing.T, data, name, path string) {
		orig := []byte(data)
		out, err := Wrap(orig, name, Options{Exe: exe})
		if err != nil {
			return
		}
		if ok, err := Wrapped(out, name); !ok || err != nil {
			t.Fatalf("Wrapped after Wrap = %v, %v\n%s", ok, err, out)
		}
		back, err := Unwrap(out, name, orig)
		if err != nil {
			t.Fatalf("Unwrap with the backup: %v\n%s", err, out)
		}
		if !bytes.Equal(back, orig) {
			t.Fatalf("with the backup, not the original:\n%s\nwant\n%s", back, orig)
		}
		back, err = Unwrap(out, name, nil)
		if err != nil {
			t.Fatalf("Unwrap: %v\n%s", err, out)
		}
		opt := hostconfig.Options{Home: "/home/me", LookupEnv: func(string) (string, bool) { return "", false }}
		a, errA := hostconfig.Parse(orig, path, opt)
		b, errB := hostconfig.Parse(back, path, opt)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("parse: %v before, %v after\n%s", errA, errB, back)
		}
		if errA == nil && !reflect.DeepEqual(withoutFormNotes(a.Servers), withoutFormNotes(b.Servers)) {
			t.Fatalf("servers changed:\n%#v\n%#v", a.Servers, b.Servers)
		}
	})
}
