package mcpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/testservers"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// versionPicky is a 2026-07-28 server that speaks only version: any request with another
// MCP-Protocol-Version is answered 400 with -32022 and data.supported (MCP 2026-07-28
// basic/versioning). It records every version it was sent.
func versionPicky(t *testing.T, version string) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var seen []string
	srv := testservers.FakeHTTP(t, func(w http.ResponseWriter, r *http.Request, m testservers.RPC) {
		got := r.Header.Get(mcpclient.HeaderProtocolVersion)
		mu.Lock()
		seen = append(seen, m.Method+" "+got)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if got != version {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32022,"message":"unsupported protocol version","data":{"supported":["2025-11-25","` + version + `"],"requested":"` + got + `"}}}`))
			return
		}
		switch m.Method {
		case "server/discover":
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"supportedVersions":["` + version + `"],"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"picky","version":"1"}}}}`))
		case "tools/list":
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"tools":[]}}`))
		default:
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"no"}}`))
		}
	})
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

func TestUnsupportedVersionRetriesOnceWithASupportedOne(t *testing.T) {
	srv, seen := versionPicky(t, "2026-06-30")
	s := startHTTP(t, mcpclient.Config{URL: srv.URL, Era: mcpclient.EraModern, Timeout: 5 * time.Second})
	ctx := context.Background()
	res, err := s.c.Connect(ctx)
	if err != nil {
		t.Fatalf("connect: %v (sent %q)", err, seen())
	}
	if res.ProtocolVersion != "2026-06-30" {
		t.Errorf("version %q, want the one from data.supported", res.ProtocolVersion)
	}
	if _, _, err := s.c.ListTools(ctx); err != nil {
		t.Fatalf("tools/list after the retry: %v", err)
	}
	want := []string{"server/discover " + mcpclient.ModernProtocolVersion, "server/discover 2026-06-30", "tools/list 2026-06-30"}
	if got := seen(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("sent %q, want %q", got, want)
	}
	s.close()
}

func TestUnsupportedVersionTwiceIsAnError(t *testing.T) {
	// data.supported names a version the server then refuses too: one retry, then the error.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal(body, &m)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32022,"message":"unsupported protocol version","data":{"supported":["2026-01-01"],"requested":"x"}}}`))
	}))
	t.Cleanup(srv.Close)
	s := startHTTP(t, mcpclient.Config{URL: srv.URL, Era: mcpclient.EraModern, Timeout: 5 * time.Second})
	_, err := s.c.Connect(context.Background())
	var rpc *mcpclient.RPCError
	if !errors.As(err, &rpc) || rpc.Code != -32022 {
		t.Fatalf("connect: %v, want the -32022 error after one retry", err)
	}
	s.close()
}

// legacyDiscover answers server/discover with legacy versions only (as the go-sdk's
// stateful server does), refuses other modern requests with -32022, and speaks the legacy
// era.
func legacyDiscover(t *testing.T) *httptest.Server {
	srv := testservers.FakeHTTP(t, func(w http.ResponseWriter, r *http.Request, m testservers.RPC) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case m.Method == "server/discover":
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"supportedVersions":["2025-11-25","2025-06-18"],"capabilities":{"tools":{}}}}`))
		case m.Method == "initialize":
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"legacy","version":"1"}}}`))
		case m.ID == nil:
			w.WriteHeader(http.StatusAccepted)
		case r.Header.Get(mcpclient.HeaderProtocolVersion) >= "2026":
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32022,"message":"unsupported"}}`))
		default:
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"tools":[]}}`))
		}
	})
	return srv
}

func TestDiscoverListingOnlyLegacyVersions(t *testing.T) {
	srv := legacyDiscover(t)
	s := startHTTP(t, mcpclient.Config{URL: srv.URL, Era: mcpclient.EraModern, Timeout: 5 * time.Second})
	_, err := s.c.Connect(context.Background())
	var lv *mcpclient.LegacyVersionsError
	if !errors.As(err, &lv) {
		t.Fatalf("modern: %v, want a LegacyVersionsError", err)
	}
	s.close()
	// --era auto falls back to initialize and works.
	s = startHTTP(t, mcpclient.Config{URL: srv.URL, Era: mcpclient.EraAuto, Timeout: 5 * time.Second})
	res, err := s.c.Connect(context.Background())
	if err != nil || res.Era != mcpclient.EraLegacy {
		t.Fatalf("auto: %v, %+v", err, res)
	}
	if _, _, err := s.c.ListTools(context.Background()); err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	s.close()
}
