package mcpclient_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// TestConnectErrorNamesURLOnce: a refused connection says the method and URL once, not
// again through the *url.Error's own "Post \"URL\": " prefix.
func TestConnectErrorNamesURLOnce(t *testing.T) {
	t.Parallel()
	u := "http://127.0.0.1:1/mcp"
	c, err := mcpclient.Start(mcpclient.Config{URL: u})
	if err == nil {
		// Start does not dial over HTTP: Connect does. The client is closed either way.
		t.Cleanup(func() { c.Close() })
		_, err = c.Connect(t.Context())
	}
	var ce *mcpclient.ConnectError
	if !errors.As(err, &ce) {
		t.Fatalf("err %v (%T), want a *ConnectError", err, err)
	}
	msg := err.Error()
	if n := strings.Count(msg, u); n != 1 || !strings.Contains(msg, "connection refused") {
		t.Errorf("the URL appears %d times: %q", n, msg)
	}
}

// TestLegacyVersionsErrorNone: a DiscoverResult without supportedVersions is said to list
// none, not "only legacy versions ()".
func TestLegacyVersionsErrorNone(t *testing.T) {
	t.Parallel()
	msg := (&mcpclient.LegacyVersionsError{}).Error()
	if strings.Contains(msg, "()") || !strings.Contains(msg, "lists no supportedVersions") {
		t.Errorf("%q", msg)
	}
	if msg := (&mcpclient.LegacyVersionsError{Supported: []string{"2025-11-25"}}).Error(); !strings.Contains(msg, "only legacy versions (2025-11-25)") {
		t.Errorf("%q", msg)
	}
}
