// Package oauth authorizes mcp-inspect's HTTP requests with OAuth 2.1 when a remote MCP
// server answers 401 (or 403 insufficient_scope), as MCP 2025-11-25 basic/authorization
// describes. The protocol work (protected-resource and authorization-server metadata, client
// ID metadata documents, dynamic registration, PKCE S256 with resource, iss checks, the token
// exchange and refresh) is go-sdk's auth / oauthex and golang.org/x/oauth2; this package is
// the glue: a RoundTripper that adds the token and retries, the loopback redirect, the
// browser, and the token file.
//
// Every request of the authorization, the metadata, registration and token requests included,
// goes through the RoundTripper the transport is built on (mcpclient's recording one), so
// each hop is an event on the wire.
package oauth

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// DefaultMaxAuthorizations is how many authorizations one request may start before its
// 401/403 is handed back (a server that keeps asking for more scope must not loop forever).
const DefaultMaxAuthorizations = 3

// Config says how to authorize against one server.
type Config struct {
	// ServerURL is the MCP server's URL; with ClientID it keys the token file.
	ServerURL string
	// ClientID and ClientSecret are a pre-registered client (--client-id,
	// --client-secret-env). Without ClientID the client registers dynamically (RFC 7591), or
	// uses ClientMetadataURL where the authorization server supports client ID metadata
	// documents.
	ClientID, ClientSecret string
	// ClientMetadataURL is an https URL of a client ID metadata document used as client_id
	// when the authorization server advertises client_id_metadata_document_supported.
	ClientMetadataURL string
	// Open shows the authorization URL to the user. Nil means the default: $BROWSER, else
	// xdg-open/open when a display is there; the URL is always given to Notify first.
	Open func(ctx context.Context, authURL string) error
	// FollowRedirects makes the "browser" a plain GET of the authorization URL through the
	// recorded transport, following redirects to the loopback callback (an authorization
	// server that approves at once, as the conformance suite's does). It overrides Open.
	FollowRedirects bool
	// Notify receives the messages meant for the user (the URL to open, a refresh failure).
	// Nil discards them.
	Notify func(msg string)
	// StoreDir is the directory of token files (created 0700; files 0600). Empty keeps
	// tokens in memory only.
	StoreDir string
	// MaxAuthorizations bounds the authorizations one request may start; 0 means
	// DefaultMaxAuthorizations.
	MaxAuthorizations int
	// UserAgent is sent on the Authorizer's own requests when set.
	UserAgent string
	// CallbackTimeout bounds the wait for the browser's redirect; 0 means 5 minutes.
	CallbackTimeout time.Duration
	// AcceptIssuer goes on with authorization-server metadata whose issuer is not the one
	// it was looked up for (RFC 8414 §3.3), which otherwise stops the authorization
	// (--oauth-accept-issuer). A step note records that it did.
	AcceptIssuer bool
	// AcceptResource goes on with protected-resource metadata whose resource is not the
	// server's URL (RFC 9728 §3.3), which otherwise stops the authorization
	// (--oauth-accept-resource). A step note records that it did.
	AcceptResource bool
}

// RefusedError is an authorization the server or the user refused: the redirect came back
// with an error parameter (RFC 6749 §4.1.2.1), e.g. access_denied.
type RefusedError struct {
	Code, Description string
}

func (e *RefusedError) Error() string {
	s := "authorization refused: " + e.Code
	if e.Description != "" {
		s += " (" + e.Description + ")"
	}
	return s
}

// Error is an authorization that failed; it wraps the cause (a *RefusedError, a metadata,
// registration or token error from go-sdk's auth). It implements mcpclient.AuthFailure.
type Error struct {
	Err error
}

func (e *Error) Error() string { return "OAuth authorization failed: " + e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// AuthFailure marks an authorization failure (mcpclient.AuthFailure).
func (e *Error) AuthFailure() {}

// Authorizer holds one server's authorization state: the token source, the handler and the
// loopback listener. It is safe for concurrent use; Close releases the listener.
type Authorizer struct {
	cfg Config

	mu      sync.Mutex
	ts      oauth2.TokenSource
	gen     int // incremented by every authorization, so concurrent 401s authorize once
	loaded  bool
	hc      *http.Client
	handler *auth.AuthorizationCodeHandler
	cb      *callback

	authMu sync.Mutex // one authorization at a time
	wire   func(string)
	body   func([]byte)
	// steps numbers the step notes of the authorization under way (steps.go).
	steps int

	// The authorization under way (metadata.go, stepup.go): the challenged URL, the
	// challenge's resource_metadata values, their alternates, probes kept for go-sdk's own
	// request, and the error that stops it.
	challenged    string
	fromChallenge map[string]bool
	alts          map[string][]string
	kept          map[string]answer
	stop          error
	// registered keeps client registrations by endpoint, reused by later authorizations;
	// granted is the scope the last token was granted.
	registered map[string]answer
	granted    string
}

// New returns an Authorizer for cfg.
func New(cfg Config) *Authorizer {
	if cfg.MaxAuthorizations <= 0 {
		cfg.MaxAuthorizations = DefaultMaxAuthorizations
	}
	if cfg.CallbackTimeout <= 0 {
		cfg.CallbackTimeout = 5 * time.Minute
	}
	return &Authorizer{cfg: cfg, registered: map[string]answer{}, kept: map[string]answer{}}
}

// Wrap returns a RoundTripper that sends requests through inner with the current access
// token and authorizes on 401 or 403 insufficient_scope. Its own requests (metadata,
// registration, token, refresh) go through inner too. It is mcpclient.Config.WrapTransport.
func (a *Authorizer) Wrap(inner http.RoundTripper) http.RoundTripper {
	a.mu.Lock()
	a.hc = &http.Client{Transport: &bodyTap{a: a, next: inner}}
	a.mu.Unlock()
	return &transport{a: a, inner: inner}
}

// Close stops the loopback listener, if one was started.
func (a *Authorizer) Close() error {
	a.mu.Lock()
	cb := a.cb
	a.cb = nil
	a.mu.Unlock()
	if cb != nil {
		return cb.close()
	}
	return nil
}

// notify tells the user msg: through Config.Notify, and as a note on the wire when the
// client gave one (mcpclient.Noter).
func (a *Authorizer) notify(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if a.cfg.Notify != nil {
		a.cfg.Notify(msg)
	}
	a.mu.Lock()
	wire := a.wire
	a.mu.Unlock()
	if wire != nil {
		wire(msg)
	}
}

// token returns the access token to send, "" when there is none. A token that cannot be
// refreshed (expired without a refresh token, a revoked refresh token) is dropped, so the
// next 401 starts a new authorization.
func (a *Authorizer) token() (string, int) {
	a.mu.Lock()
	if !a.loaded {
		a.loaded = true
		if s, err := a.load(); err == nil && s != nil {
			a.ts = a.savingSource(s.oauth2Config(), s.token())
		}
	}
	ts, gen := a.ts, a.gen
	a.mu.Unlock()
	if ts == nil {
		return "", gen
	}
	tok, err := ts.Token()
	if err != nil {
		a.notify("mcp-inspect: the stored token could not be refreshed (%v); authorizing again", err)
		a.mu.Lock()
		if a.ts == ts {
			a.ts = nil
			a.remove()
		}
		gen = a.gen
		a.mu.Unlock()
		return "", gen
	}
	return tok.AccessToken, gen
}

// authorize runs one authorization for the challenge in resp, unless another request
// authorized since this one was sent (sentGen).
func (a *Authorizer) authorize(ctx context.Context, req *http.Request, resp *http.Response, sentGen int) error {
	a.authMu.Lock()
	defer a.authMu.Unlock()
	a.mu.Lock()
	if a.gen != sentGen {
		a.mu.Unlock()
		resp.Body.Close()
		return nil
	}
	a.mu.Unlock()
	h, err := a.ensureHandler()
	if err != nil {
		resp.Body.Close()
		return err
	}
	err = h.Authorize(ctx, req, resp)
	if stop := a.stopped(); stop != nil {
		return stop
	}
	if err != nil {
		return err
	}
	ts, err := h.TokenSource(ctx)
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.ts = ts
	a.gen++
	a.mu.Unlock()
	return nil
}

// ensureHandler starts the loopback listener and builds go-sdk's handler on first use.
func (a *Authorizer) ensureHandler() (*auth.AuthorizationCodeHandler, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.handler != nil {
		return a.handler, nil
	}
	cb, err := listenCallback()
	if err != nil {
		return nil, fmt.Errorf("oauth: loopback redirect listener: %w", err)
	}
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              cb.redirectURL,
		AuthorizationCodeFetcher: a.fetch,
		Client:                   a.hc,
		RequestRefreshToken:      true,
		NewTokenSource: func(ctx context.Context, c *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			a.save(c, tok)
			return a.savingSource(c, tok), nil
		},
	}
	if a.cfg.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: a.cfg.ClientMetadataURL}
	}
	if a.cfg.ClientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: a.cfg.ClientID}
		if a.cfg.ClientSecret != "" {
			cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: a.cfg.ClientSecret}
		}
	} else {
		cfg.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs: []string{cb.redirectURL},
			ClientName:   "mcp-inspect",
			GrantTypes:   []string{"authorization_code", "refresh_token"},
		}}
	}
	h, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		cb.close()
		return nil, fmt.Errorf("oauth: %w", err)
	}
	a.cb, a.handler = cb, h
	return h, nil
}

// fetch is go-sdk's AuthorizationCodeFetcher: show the URL, open the browser, wait for the
// loopback redirect whose state matches.
func (a *Authorizer) fetch(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	u, err := url.Parse(args.URL)
	if err != nil {
		return nil, fmt.Errorf("oauth: authorization URL: %w", err)
	}
	a.mu.Lock()
	cb, hc := a.cb, a.hc
	a.mu.Unlock()
	a.askedScope(u)
	wait := cb.expect(u.Query().Get("state"))
	defer cb.expect("")
	a.notify("%s%s%s%s", mcpclient.AuthorizeNote, a.cfg.ServerURL, mcpclient.AuthorizeNoteURL, args.URL)
	ctx, cancel := context.WithTimeout(ctx, a.cfg.CallbackTimeout)
	defer cancel()
	openErr := make(chan error, 1)
	go func() {
		switch {
		case a.cfg.FollowRedirects:
			openErr <- follow(ctx, hc, args.URL)
		case a.cfg.Open != nil:
			openErr <- a.cfg.Open(ctx, args.URL)
		default:
			openErr <- openBrowser(args.URL)
		}
	}()
	for {
		select {
		case r := <-wait:
			return r.res, r.err
		case err := <-openErr:
			if err != nil {
				a.notify("%s (%v); open the URL above by hand", mcpclient.NoBrowserNote, err)
			}
			openErr = nil
		case <-ctx.Done():
			return nil, fmt.Errorf("oauth: no authorization redirect arrived at %s: %w", cb.redirectURL, ctx.Err())
		}
	}
}

// follow GETs the authorization URL and follows its redirects (to the loopback callback).
func follow(ctx context.Context, hc *http.Client, u string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	return resp.Body.Close()
}

// openBrowser runs $BROWSER (a colon-separated list; %s stands for the URL) or, with a
// display, the platform opener. Without either the user opens the printed URL (an SSH
// session).
func openBrowser(u string) error {
	if b := os.Getenv("BROWSER"); b != "" {
		var last error
		for _, cmd := range strings.Split(b, ":") {
			if cmd == "" {
				continue
			}
			var c *exec.Cmd
			if strings.Contains(cmd, "%s") {
				f := strings.Fields(strings.ReplaceAll(cmd, "%s", u))
				c = exec.Command(f[0], f[1:]...)
			} else {
				c = exec.Command(cmd, u)
			}
			if last = start(c); last == nil {
				return nil
			}
		}
		return last
	}
	c, err := platform.URLOpener(u)
	if err != nil {
		return fmt.Errorf("%w and no $BROWSER", err)
	}
	return start(c)
}

// start runs c detached from our terminal and reaps it.
func start(c *exec.Cmd) error {
	c.Stdin, c.Stdout, c.Stderr = nil, nil, nil
	if err := c.Start(); err != nil {
		return err
	}
	go c.Wait()
	return nil
}

// transport adds the bearer token and authorizes on 401 / 403 insufficient_scope.
type transport struct {
	a     *Authorizer
	inner http.RoundTripper
}

// SetNote implements mcpclient.Noter: the Authorizer's messages become wire notes.
func (t *transport) SetNote(note func(string)) {
	t.a.mu.Lock()
	t.a.wire = note
	t.a.mu.Unlock()
}

// SetBodyRecorder implements mcpclient.BodyRecorder: the bodies of the Authorizer's own
// responses (metadata, registration, token) become wire events.
func (t *transport) SetBodyRecorder(record func([]byte)) {
	t.a.mu.Lock()
	t.a.body = record
	t.a.mu.Unlock()
}

// maxRecordedBody bounds the part of an authorization response body shown on the wire;
// maxAnswer the part read at all (go-sdk reads at most 1 MiB of metadata).
const (
	maxRecordedBody = 64 << 10
	maxAnswer       = 1 << 20
)

// bodyTap records the bodies of the Authorizer's own responses, so a failing authorization
// can be read step by step; the reader gets the same bytes.
type bodyTap struct {
	a    *Authorizer
	next http.RoundTripper
}

func (b *bodyTap) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := b.a.stopped(); err != nil {
		return nil, err
	}
	if resp, ok := b.a.reusedRegistration(req); ok {
		return resp, nil
	}
	an, ok := b.a.takeKept(req)
	if ok {
		b.a.step("%s was read a moment ago (above); that answer is used", req.URL.Redacted())
	} else {
		var err error
		if an, err = b.send(req); err != nil {
			return nil, err
		}
	}
	return b.a.review(req, an, b.send).withBody(), nil
}

// send sends req, records its body on the wire and notes it as a step; the answer is read
// whole (metadata, registration and token answers are small: maxRecordedBody).
func (b *bodyTap) send(req *http.Request) (answer, error) {
	if req.Header.Get("User-Agent") == "" && b.a.cfg.UserAgent != "" {
		req = req.Clone(req.Context())
		req.Header.Set("User-Agent", b.a.cfg.UserAgent)
	}
	resp, err := b.next.RoundTrip(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	b.a.mu.Lock()
	record := b.a.body
	b.a.mu.Unlock()
	if len(body) > 0 && record != nil {
		record(body[:min(len(body), maxRecordedBody)])
	}
	b.a.stepOf(req, resp, body)
	if rerr != nil {
		return answer{}, rerr
	}
	return answer{resp: resp, body: body}, nil
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Authorization") != "" {
		return t.inner.RoundTrip(req) // the user's own credentials (-H, --bearer-env)
	}
	body, err := rewindable(req)
	if err != nil {
		return nil, err
	}
	stepUps := 0
	for n := 0; ; n++ {
		r := req.Clone(req.Context())
		if r.Body, err = body(); err != nil {
			return nil, err
		}
		tok, gen := t.a.token()
		if tok != "" {
			r.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := t.inner.RoundTrip(r)
		if err != nil || !needsAuth(resp) || n >= t.a.cfg.MaxAuthorizations {
			return resp, err
		}
		if why := refusedToken(resp); tok != "" && why != "" {
			// Say why before a browser opens: the token the session had was refused.
			t.a.notify("the server refused the access token sent (%s): it expired or was revoked; authorizing again", why)
		}
		retry, stepUp := "sent again with the new token", ""
		if resp.StatusCode == http.StatusForbidden {
			asked, granted := scopeAsked(resp), t.a.grantedScope()
			if stepUps++; stepUps > 1 {
				// A server that keeps asking: the authorization server does not grant it.
				t.a.notify("mcp-inspect: the server asks again for scope %q after a step-up that was granted %q; mcp-inspect stops after one step-up: the authorization server does not grant what the server requires", asked, granted)
				return resp, nil
			}
			retry = "retried once after the step-up"
			stepUp = fmt.Sprintf("step-up: %s %s needs scope %q; the token had %q", req.Method, req.URL.Redacted(), asked, granted)
		}
		t.a.beginSteps(r, resp)
		if stepUp != "" {
			t.a.step("%s", stepUp)
		}
		if err := t.a.authorize(req.Context(), r, t.a.forSDK(r, resp), gen); err != nil {
			return nil, &Error{Err: err}
		}
		if g := t.a.grantedScope(); g != "" {
			retry += fmt.Sprintf(" (granted scope %q)", g)
		}
		t.a.step("authorized: %s %s is %s", req.Method, req.URL.Redacted(), retry)
	}
}

// refusedToken is the bearer challenge's invalid_token error of a 401 (RFC 6750 §3.1:
// the token expired, was revoked or is malformed), with its description; "" when the 401
// says something else.
func refusedToken(resp *http.Response) string {
	if resp.StatusCode != http.StatusUnauthorized {
		return ""
	}
	cs, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil {
		return ""
	}
	for _, c := range cs {
		if c.Params["error"] == "invalid_token" {
			if d := c.Params["error_description"]; d != "" {
				return "invalid_token: " + d
			}
			return "invalid_token"
		}
	}
	return ""
}

// needsAuth reports a 401, or a 403 whose challenge is insufficient_scope (step-up). A 401
// whose challenges all name other schemes than Bearer (Basic, mcp-inspect's own
// Mcp-Inspect-Token of a tap or mock) asks for something OAuth cannot give: it is handed
// back as it is, not answered with an authorization that would fail at registration. A 401
// without a challenge, or one that does not parse, still authorizes (MCP 2025-11-25
// basic/authorization: the client then finds the metadata at its well-known place).
func needsAuth(resp *http.Response) bool {
	switch resp.StatusCode {
	case http.StatusUnauthorized:
		hs := resp.Header.Values("WWW-Authenticate")
		cs, err := oauthex.ParseWWWAuthenticate(hs)
		if len(hs) == 0 || err != nil || len(cs) == 0 {
			return true
		}
		for _, c := range cs {
			if strings.EqualFold(c.Scheme, "bearer") {
				return true
			}
		}
		return false
	case http.StatusForbidden:
		cs, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
		if err != nil {
			return false
		}
		for _, c := range cs {
			if c.Params["error"] == "insufficient_scope" {
				return true
			}
		}
	}
	return false
}

// rewindable returns a function giving a fresh copy of req's body for each attempt.
func rewindable(req *http.Request) (func() (io.ReadCloser, error), error) {
	if req.Body == nil || req.Body == http.NoBody {
		return func() (io.ReadCloser, error) { return http.NoBody, nil }, nil
	}
	if req.GetBody != nil {
		first := true
		return func() (io.ReadCloser, error) {
			if first {
				first = false
				return req.Body, nil
			}
			return req.GetBody()
		}, nil
	}
	b, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	return func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(string(b))), nil }, nil
}
