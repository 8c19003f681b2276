package cmd

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
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
	return mcpclient.Config{
		URL:              rawURL,
		Transport:        tr,
		SSEFallback:      fallback,
		Header:           h,
		ProtocolVersion:  f.protocolVersion,
		ClientInfo:       mcpclient.Implementation{Name: "mcp-inspect", Version: Version()},
		Timeout:          f.timeout,
		MaxMessage:       f.maxMessage,
		Era:              era,
		Strict:           f.strict,
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
