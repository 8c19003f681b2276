package oauth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// StateDir is mcp-inspect's token directory: tokens/ in platform.StateDir
// ($XDG_STATE_HOME/mcp-inspect, else ~/.local/state/mcp-inspect on Linux, ~/Library/
// Application Support/mcp-inspect on macOS, %LOCALAPPDATA%\mcp-inspect on Windows).
func StateDir() (string, error) {
	d, err := platform.StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "tokens"), nil
}

// stored is one token file: what refreshing needs (the client and token endpoint) and the
// token. It holds credentials, so it is written 0600 in a 0700 directory.
type stored struct {
	Server       string    `json:"server"`
	ClientID     string    `json:"client_id"`
	ClientSecret string    `json:"client_secret,omitempty"`
	TokenURL     string    `json:"token_url"`
	AuthStyle    int       `json:"auth_style"`
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
}

func (s *stored) oauth2Config() *oauth2.Config {
	return &oauth2.Config{ClientID: s.ClientID, ClientSecret: s.ClientSecret,
		Endpoint: oauth2.Endpoint{TokenURL: s.TokenURL, AuthStyle: oauth2.AuthStyle(s.AuthStyle)}}
}

func (s *stored) token() *oauth2.Token {
	return &oauth2.Token{AccessToken: s.AccessToken, TokenType: s.TokenType, RefreshToken: s.RefreshToken, Expiry: s.Expiry}
}

// TokenFile is the token file of a server URL and a configured client id ("" for a
// dynamically registered client) in dir.
func TokenFile(dir, serverURL, clientID string) string {
	sum := sha256.Sum256([]byte(serverURL + "\n" + clientID))
	return filepath.Join(dir, hex.EncodeToString(sum[:16])+".json")
}

func (a *Authorizer) file() string {
	if a.cfg.StoreDir == "" {
		return ""
	}
	return TokenFile(a.cfg.StoreDir, a.cfg.ServerURL, a.cfg.ClientID)
}

func (a *Authorizer) load() (*stored, error) {
	f := a.file()
	if f == "" {
		return nil, nil
	}
	b, err := os.ReadFile(f)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s stored
	if err := json.Unmarshal(b, &s); err != nil || s.Server != a.cfg.ServerURL || s.AccessToken == "" {
		return nil, err
	}
	return &s, nil
}

// save writes the token file atomically (a 0600 temporary file renamed over it).
func (a *Authorizer) save(c *oauth2.Config, tok *oauth2.Token) {
	f := a.file()
	if f == "" || tok == nil {
		return
	}
	s := stored{Server: a.cfg.ServerURL, ClientID: c.ClientID, ClientSecret: c.ClientSecret, TokenURL: c.Endpoint.TokenURL,
		AuthStyle: int(c.Endpoint.AuthStyle), AccessToken: tok.AccessToken, TokenType: tok.TokenType, RefreshToken: tok.RefreshToken, Expiry: tok.Expiry}
	b, _ := json.MarshalIndent(s, "", "  ")
	if err := writeFile0600(f, b); err != nil {
		a.notify("mcp-inspect: could not keep the token in %s: %v", f, err)
	}
}

func writeFile0600(f string, b []byte) error {
	dir := filepath.Dir(f)
	if err := platform.MkdirPrivate(dir); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".token-*") // created 0600
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), f)
}

// remove deletes the token file (a token that can no longer be refreshed).
func (a *Authorizer) remove() {
	if f := a.file(); f != "" {
		os.Remove(f)
	}
}

// savingSource refreshes through x/oauth2 with the recorded client and writes every new
// token to the token file.
func (a *Authorizer) savingSource(c *oauth2.Config, tok *oauth2.Token) oauth2.TokenSource {
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, a.hc)
	return &savingSource{a: a, c: c, base: c.TokenSource(ctx, tok), last: tok.AccessToken}
}

type savingSource struct {
	a    *Authorizer
	c    *oauth2.Config
	base oauth2.TokenSource

	mu   sync.Mutex
	last string
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	tok, err := s.base.Token()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	changed := tok.AccessToken != s.last
	s.last = tok.AccessToken
	s.mu.Unlock()
	if changed {
		s.a.save(s.c, tok)
	}
	return tok, nil
}
