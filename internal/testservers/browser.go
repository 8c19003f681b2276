package testservers

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// browserScript follows a URL's redirects (at most 5) with Node's fetch and reads the page,
// as a browser whose user approves does; it exits 1 on a network error.
const browserScript = `fetch(process.argv[1], {redirect: "follow"}).then(r => r.arrayBuffer()).then(() => process.exit(0), e => { console.error(e.message); process.exit(1) })`

// FakeBrowser writes a $BROWSER for the OAuth tests: a script that opens its one argument
// (the authorization URL) with Node and follows the authorization server's redirect to the
// loopback callback. Node is what the test servers need already, so the tests need nothing
// more (issue 26: they skipped where curl was missing). It fails the test when node is not
// on PATH.
func FakeBrowser(t testing.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("testservers: the fake $BROWSER needs node on PATH: %v", err)
	}
	p := filepath.Join(t.TempDir(), "browser")
	script := "#!/bin/sh\nexec " + strconv.Quote(node) + " -e " + shellQuote(browserScript) + " \"$1\"\n"
	if err := os.WriteFile(p, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return p
}

// shellQuote quotes s for sh in single quotes.
func shellQuote(s string) string {
	out := "'"
	for _, c := range s {
		if c == '\'' {
			out += `'\''`
			continue
		}
		out += string(c)
	}
	return out + "'"
}
