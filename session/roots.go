package session

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// RootsFromPaths turns paths (or file:// URIs), as given to --root, into roots: absolute
// file:// URIs named by their last element (MCP client/roots). It stats each path and says
// in problems which do not exist, but keeps them (a debugger may want to send anything); a
// path that makes no root (empty, a bad URI) is left out and named in problems. The
// headless commands answer roots/list with it too.
func RootsFromPaths(paths []string) (roots []mcpclient.Root, problems []string) {
	for _, p := range paths {
		r, problem := rootFromPath(p)
		if r.URI == "" {
			problems = append(problems, fmt.Sprintf("root %s: %s", sanitize.QuotePath(p), problem))
			continue
		}
		if problem != "" {
			problems = append(problems, fmt.Sprintf("root %s: %s (kept)", sanitize.QuotePath(p), problem))
		}
		roots = append(roots, r)
	}
	return roots, problems
}

// rootFromPath makes one root; problem says what is odd about it.
func rootFromPath(p string) (mcpclient.Root, string) {
	p = strings.TrimSpace(p)
	if p == "" {
		return mcpclient.Root{}, "empty"
	}
	if strings.Contains(p, "://") {
		u, err := url.Parse(p)
		if err != nil {
			return mcpclient.Root{}, err.Error()
		}
		problem := ""
		if u.Scheme != "file" {
			problem = "roots must be file:// URIs for now (MCP client/roots)"
		}
		return mcpclient.Root{URI: p, Name: path.Base(u.Path)}, problem
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return mcpclient.Root{}, err.Error()
	}
	problem := ""
	if _, err := os.Stat(abs); err != nil {
		problem = "does not exist"
	}
	return mcpclient.Root{URI: FileURI(abs, runtime.GOOS), Name: filepath.Base(abs)}, problem
}

// FileURI is the file:// URI of the absolute path p on the OS goos (a runtime.GOOS value),
// percent-encoded as net/url encodes a path (RFC 8089): /home/ana/my dir is
// file:///home/ana/my%20dir; on Windows, where \ and / both separate, C:\Users\ana is
// file:///C:/Users/ana and the UNC path \\server\share\p is file://server/share/p (a
// \\?\ long-path prefix is dropped first).
func FileURI(p, goos string) string {
	if goos != "windows" {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	p = strings.ReplaceAll(p, `\`, "/")
	switch {
	case strings.HasPrefix(p, "//?/UNC/"):
		p = "//" + p[len("//?/UNC/"):]
	case strings.HasPrefix(p, "//?/"):
		p = p[len("//?/"):]
	}
	u := &url.URL{Scheme: "file", Path: p}
	if rest, ok := strings.CutPrefix(p, "//"); ok {
		u.Host, u.Path, _ = strings.Cut(rest, "/")
		u.Path = "/" + u.Path
	} else if !strings.HasPrefix(p, "/") {
		u.Path = "/" + p // a drive letter: the authority is empty, the path starts /C:
	}
	return u.String()
}

// Roots is the list of roots a session offers and the notes about the paths they came
// from, in the order they were added.
type Roots struct {
	List  []mcpclient.Root
	Notes []string
}

// Add appends roots resolved from paths (RootsFromPaths) and keeps the problems found
// with them (each is also to be shown as a warning).
func (r *Roots) Add(roots []mcpclient.Root, problems []string) {
	r.List = append(r.List, roots...)
	r.Notes = append(r.Notes, problems...)
}

// Remove drops root i; it reports false when there is no root i.
func (r *Roots) Remove(i int) bool {
	if i < 0 || i >= len(r.List) {
		return false
	}
	r.List = append(r.List[:i:i], r.List[i+1:]...)
	return true
}

// NotifyChanged reports whether a change of roots is to be announced with
// notifications/roots/list_changed: roots on, the legacy era, and after the handshake;
// modern servers ask again when they need them (MCP 2026-07-28).
func NotifyChanged(f ClientFeatures, era mcpclient.Era, connected bool) bool {
	return !f.NoRoots && era == mcpclient.EraLegacy && connected
}

// RootsNotifiedNote is the note after notifications/roots/list_changed was sent (or failed
// with err).
func RootsNotifiedNote(err error) Note {
	if err != nil {
		return Note{Error, "notifications/roots/list_changed failed: " + err.Error()}
	}
	return Note{Info, "sent notifications/roots/list_changed"}
}
