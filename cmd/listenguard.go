package cmd

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"

	"github.com/mcp-inspect/mcp-inspect/internal/listenguard"
	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// urlFileName is the file, in the session directory of a mock --listen or an HTTP tap,
// that holds the URL with the run's token (mode 0600, removed when the run ends).
const urlFileName = "url"

// listenAccess is who may use a listener of mock --listen or the HTTP tap: its guard, and
// the file where the URL with the token is kept ("" when none is).
type listenAccess struct {
	guard *listenguard.Guard
	file  string
	// written is what file holds, so that the end of the run removes only its own.
	written []byte
}

// newListenAccess makes the guard of ln for who ("mcp-inspect tap"): Host and Origin
// checked always, a fresh token unless noToken. The URL with the token, base plus
// ?token=, goes to dir/url (mode 0600); a file that cannot be written is logged, as the
// URL is printed anyway.
func newListenAccess(who string, ln net.Listener, noToken bool, dir, base string, logger *slog.Logger) (*listenAccess, error) {
	a := &listenAccess{}
	token := ""
	if !noToken {
		token = listenguard.NewToken()
		a.file = filepath.Join(dir, urlFileName)
	}
	g, err := listenguard.New(listenguard.Options{Who: who, Addr: ln.Addr().String(), Token: token, TokenFile: a.file})
	if err != nil {
		return nil, err
	}
	a.guard = g
	if a.file != "" {
		a.written = []byte(g.URL(base) + "\n")
		if err := writePrivate(a.file, a.written); err != nil {
			logger.Warn("cannot keep the URL with the token", "path", a.file, "err", err)
			a.file = ""
		}
	}
	return a, nil
}

// announce prints where the listener serves (the URL with the token) and how else the
// token may be sent, prefixed as the command's other lines are.
func (a *listenAccess) announce(w io.Writer, prefix, base string) {
	fmt.Fprintf(w, "%sserving %s\n", prefix, a.guard.URL(base))
	if !a.guard.TokenRequired() {
		fmt.Fprintf(w, "%s--no-token: any program on this machine may connect (Host and Origin are still checked)\n", prefix)
		return
	}
	where := ""
	if a.file != "" {
		where = "; the URL is also in " + a.file
	}
	fmt.Fprintf(w, "%sthe token in the URL may also be sent as the header %s: TOKEN or Authorization: Bearer TOKEN%s\n", prefix, listenguard.TokenHeader, where)
}

// end removes the URL file when it still holds this run's URL (another run of the same
// name may have replaced it).
func (a *listenAccess) end() {
	if a == nil || a.file == "" {
		return
	}
	if b, err := os.ReadFile(a.file); err == nil && bytes.Equal(b, a.written) {
		_ = os.Remove(a.file)
	}
}

// writePrivate writes b to path in a private directory, mode 0600, by renaming a new file
// over it: a symlink planted at path is replaced, never followed.
func writePrivate(path string, b []byte) error {
	dir := filepath.Dir(path)
	if err := platform.MkdirPrivate(dir); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*") // mode 0600
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
	return err
}
