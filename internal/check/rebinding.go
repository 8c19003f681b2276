package check

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// DNS rebinding (issue 25, the suite's dns-rebinding-protection). A web page whose name
// resolves to 127.0.0.1 makes the browser send its requests to a local server with its own
// Host and Origin: a local HTTP server must refuse a foreign Host or Origin, "If the Origin
// header is present and invalid, servers MUST respond with HTTP 403 Forbidden" (MCP
// 2025-11-25 basic/transports §Security Warning). The probe is a POST of the handshake
// (initialize, or server/discover in 2026-07-28) with Host and Origin of evil.example.com,
// sent outside the sessions; a session the server opens for it anyway is deleted.

// rebindingHost is the foreign name the probe claims.
const rebindingHost = "evil.example.com"

// rebindingTimeout bounds the probe.
const rebindingTimeout = 10 * time.Second

func (r *run) dnsRebinding(ctx context.Context) {
	const id = "dns-rebinding"
	if ctx.Err() != nil || !r.active(id) {
		return
	}
	if !r.remote {
		r.na(id, "an HTTP rule; the server is on stdio")
		return
	}
	u, err := url.Parse(r.opt.Server.URL)
	if err != nil || !loopbackHost(u.Hostname()) {
		r.na(id, "judged on a local server (localhost, 127.0.0.1, [::1]); "+r.opt.Server.URL+" is not one")
		return
	}
	status, sid, err := r.foreignPost(ctx, u)
	probe := fmt.Sprintf("POST %s with Host: %s and Origin: http://%s", u.Path, rebindingHost, rebindingHost)
	if u.Path == "" {
		probe = fmt.Sprintf("POST / with Host: %s and Origin: http://%s", rebindingHost, rebindingHost)
	}
	switch {
	case err != nil:
		r.find(id, Must, nil, "%s: %v", probe, err)
	case status == http.StatusUnauthorized:
		r.na(id, probe+" got 401: the server requires authorization, and DNS rebinding is judged on servers without it")
	case status == http.StatusForbidden:
		r.note(id, nil, "%s: 403 Forbidden", probe)
	case status >= 400 && status < 500:
		r.find(id, Should, nil, "%s: refused with %d; an invalid Origin gets 403 Forbidden", probe, status)
	default:
		r.find(id, Must, nil, "%s: answered %d; a local server must refuse a foreign Host or Origin (403), or any web page can reach it through DNS rebinding", probe, status)
	}
	if sid != "" {
		r.deleteSession(ctx, u, sid)
	}
}

// loopbackHost reports whether host is localhost or a loopback address.
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// foreignPost sends the handshake with the foreign Host and Origin and returns the status
// and the session id the server gave (it should give none).
func (r *run) foreignPost(ctx context.Context, u *url.URL) (int, string, error) {
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + mcpclient.LatestProtocolVersion + `","capabilities":{},"clientInfo":{"name":"mcp-inspect-check","version":"0"}}}`
	version := mcpclient.LatestProtocolVersion
	if r.modern() {
		version = "2026-07-28"
		body = `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	}
	ctx, cancel := context.WithTimeout(ctx, rebindingTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewBufferString(body))
	if err != nil {
		return 0, "", err
	}
	for k, vs := range r.opt.Server.Header {
		req.Header[k] = vs
	}
	req.Host = rebindingHost
	req.Header.Set("Origin", "http://"+rebindingHost)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(mcpclient.HeaderProtocolVersion, version)
	resp, err := probeClient().Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, resp.Header.Get(mcpclient.HeaderSessionID), nil
}

// deleteSession ends a session the probe opened (MCP 2025-11-25 basic/transports §Session
// Management: DELETE with its id).
func (r *run) deleteSession(ctx context.Context, u *url.URL, sid string) {
	ctx, cancel := context.WithTimeout(ctx, rebindingTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, u.String(), nil)
	if err != nil {
		return
	}
	req.Header.Set(mcpclient.HeaderSessionID, sid)
	if resp, err := probeClient().Do(req); err == nil {
		resp.Body.Close()
	}
}

// probeClient is an HTTP client for the probes: no redirects followed (a redirect is the
// answer), no proxy (the server is local).
func probeClient() *http.Client {
	return &http.Client{
		Transport: &http.Transport{Proxy: nil},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
