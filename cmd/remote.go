package cmd

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mcp-inspect/mcp-inspect/internal/repeatcmd"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/oauth"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// isServerURL reports whether a lone server argument is a remote server's URL.
func isServerURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// remoteConfig is the client config for a remote server at rawURL: the session flags, the
// headers of -H and --bearer-env, and the transport.
func (f *sessionFlags) remoteConfig(rawURL string, era mcpclient.Era) (mcpclient.Config, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return mcpclient.Config{}, fmt.Errorf("%q is not a server URL (want http://HOST[:PORT]/PATH or https://…)", rawURL)
	}
	if len(f.env) > 0 || f.cwd != "" {
		return mcpclient.Config{}, fmt.Errorf("-e and --cwd are for a server mcp-inspect starts; %s is a remote server (use -H for headers)", rawURL)
	}
	tr, fallback, err := mcpclient.ParseTransport(f.transport)
	if err != nil {
		return mcpclient.Config{}, fmt.Errorf("--transport: %w", err)
	}
	h, err := f.httpHeader()
	if err != nil {
		return mcpclient.Config{}, err
	}
	var wrap func(http.RoundTripper) http.RoundTripper
	if h.Get("Authorization") == "" {
		az, err := f.oauth.authorizer(rawURL, f.use == forTUI)
		if err != nil {
			return mcpclient.Config{}, err
		}
		wrap = az.Wrap
	} else if f.oauth.given() {
		return mcpclient.Config{}, fmt.Errorf("--client-id, --client-secret-env and --client-metadata-url are for OAuth; -H Authorization or --bearer-env already give the credentials")
	}
	return mcpclient.Config{
		WrapTransport:    wrap,
		URL:              rawURL,
		Transport:        tr,
		SSEFallback:      fallback,
		Header:           h,
		ProtocolVersion:  f.protocolVersion,
		ClientInfo:       mcpclient.Implementation{Name: "mcp-inspect", Version: Version()},
		Timeout:          f.timeout,
		TimeoutFrom:      f.timeoutFrom(),
		MaxMessage:       f.maxMessage,
		Era:              era,
		Strict:           f.strict,
		FirstIDZero:      f.firstID == 0,
		NoTasksExtension: f.features.NoTasks,
	}, nil
}

// httpHeader parses -H "Name: value" and --bearer-env VAR.
func (f *sessionFlags) httpHeader() (http.Header, error) {
	h := http.Header{}
	for _, line := range f.headers {
		name, value, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") {
			return nil, fmt.Errorf("-H %q: want \"Name: value\"", line)
		}
		if strings.ContainsAny(value, "\r\n") {
			return nil, fmt.Errorf("-H %q: a header value cannot hold a line break", line)
		}
		h.Add(name, strings.TrimSpace(value))
	}
	if f.bearerEnv != "" {
		tok, ok := os.LookupEnv(f.bearerEnv)
		tok = strings.TrimSpace(tok)
		if !ok || tok == "" {
			return nil, fmt.Errorf("--bearer-env %s: the variable is not set or empty", f.bearerEnv)
		}
		if h.Get("Authorization") != "" {
			return nil, fmt.Errorf("--bearer-env %s and -H Authorization both set the Authorization header; give one", f.bearerEnv)
		}
		h.Set("Authorization", "Bearer "+tok)
	}
	return h, nil
}

// repeatHeaders are the headers of -H and --bearer-env as "copy as command" writes them,
// sorted by name: Authorization from --bearer-env VAR as "Bearer $VAR", another credential
// header (trace.CredentialHeader) as $NAME, the rest with their values.
func repeatHeaders(h http.Header, bearerEnv string) []repeatcmd.Header {
	var out []repeatcmd.Header
	for _, name := range slices.Sorted(maps.Keys(h)) {
		switch {
		case bearerEnv != "" && strings.EqualFold(name, "Authorization"):
			out = append(out, repeatcmd.Header{Name: name, Prefix: "Bearer ", Ref: bearerEnv})
		case trace.CredentialHeader(name):
			out = append(out, repeatcmd.SecretHeader(name))
		default:
			for _, v := range h[name] {
				out = append(out, repeatcmd.Header{Name: name, Value: v})
			}
		}
	}
	return out
}

// defaultRoot is the directory a local server runs in (--cwd, a profile's cwd, else
// ours): the TUI answers roots/list with it when no --root is given. "" for a remote
// server, which should not learn our paths without a question.
func defaultRoot(cfg mcpclient.Config) string {
	if cfg.URL != "" {
		return ""
	}
	if cfg.Dir != "" {
		return cfg.Dir
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return wd
}

// oauthFlags configure the OAuth 2.1 authorization a remote server asks for with a 401.
type oauthFlags struct {
	clientID, clientSecretEnv, clientMetadataURL string
	acceptIssuer, acceptResource                 bool
}

func (o *oauthFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&o.clientID, "client-id", "", "remote server, OAuth: use this pre-registered client `ID` instead of dynamic registration")
	fl.StringVar(&o.clientSecretEnv, "client-secret-env", "", "remote server, OAuth: the pre-registered client's secret is in `VAR` (needs --client-id)")
	fl.StringVar(&o.clientMetadataURL, "client-metadata-url", "", "remote server, OAuth: an https `URL` of a client ID metadata document to use as client_id where the authorization server supports it")
	fl.BoolVar(&o.acceptIssuer, "oauth-accept-issuer", false, "remote server, OAuth: go on when the authorization server's metadata names another issuer than the one it was looked up for (RFC 8414 §3.3; recorded in the trace)")
	fl.BoolVar(&o.acceptResource, "oauth-accept-resource", false, "remote server, OAuth: go on when the protected-resource metadata names another resource than the server's URL (RFC 9728 §3.3; recorded in the trace)")
}

func (o *oauthFlags) given() bool {
	return o.clientID != "" || o.clientSecretEnv != "" || o.clientMetadataURL != "" || o.acceptIssuer || o.acceptResource
}

// authorizer is the OAuth layer for rawURL. Headless commands print the authorization URL on
// stderr (an SSH session opens it by hand); the TUI shows it as a note on the wire, never on
// its own terminal. Tokens are kept in the user's state directory.
func (o *oauthFlags) authorizer(rawURL string, tui bool) (*oauth.Authorizer, error) {
	cfg := oauth.Config{ServerURL: rawURL, ClientID: o.clientID, ClientMetadataURL: o.clientMetadataURL, UserAgent: "mcp-inspect/" + Version(),
		AcceptIssuer: o.acceptIssuer, AcceptResource: o.acceptResource}
	if o.clientSecretEnv != "" {
		if o.clientID == "" {
			return nil, fmt.Errorf("--client-secret-env needs --client-id")
		}
		v, ok := os.LookupEnv(o.clientSecretEnv)
		if !ok || v == "" {
			return nil, fmt.Errorf("--client-secret-env %s: the variable is not set or empty", o.clientSecretEnv)
		}
		cfg.ClientSecret = v
	}
	// Tokens are kept in the state directory only when it is the user's and private.
	if dir, err := oauth.StateDir(); err == nil && usableStateDir() != "" {
		cfg.StoreDir = dir
	}
	if !tui {
		cfg.Notify = func(msg string) { fmt.Fprintln(humanStderr(), msg) }
	}
	return oauth.New(cfg), nil
}
