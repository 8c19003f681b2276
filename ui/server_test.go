package ui

import (
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Ping measures the round trip (legacy); modern has none.
func TestPing(t *testing.T) {
	s := moreSession()
	m := connected(t, s, 120, 30)
	keys(t, m, "P")
	mustContain(t, "ping", view(m), "ping: 1.5ms round trip", "ping 1.5ms")
	keys(t, m, "4")
	mustContain(t, "server pane", view(m), "ping: 1.5ms round trip (P again)", "legacy (initialize handshake, 2025-11-25)")
}

// Modern era: the server pane shows server/discover; subscriptions go through
// subscriptions/listen, opened again with each change; ping says it does not exist.
func TestModernEra(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := moreSession()
		ttl := int64(0)
		s.init.Era = mcpclient.EraModern
		s.init.ProtocolVersion = "2026-07-28"
		s.init.Discover = &mcpclient.DiscoverResult{SupportedVersions: []string{"2026-07-28", "2025-11-25"}, TTLMs: &ttl, CacheScope: "public"}
		m := connected(t, s, 120, 40)
		keys(t, m, "4")
		mustContain(t, "server pane", view(m), "modern (2026-07-28)", "supportedVersions: 2026-07-28, 2025-11-25", "cacheScope: public", "modern era")
		keys(t, m, "5", "s")
		waitListens(t, &s.fakeMore, 2)
		s.mmu.Lock()
		first, second := s.listens[0], s.listens[1]
		s.mmu.Unlock()
		if !first.ResourcesListChanged || len(first.ResourceSubscriptions) != 0 || len(second.ResourceSubscriptions) != 1 || second.ResourceSubscriptions[0] != "file:///notes.txt" {
			t.Fatalf("listens %+v", s.listens)
		}
		if len(s.subs) != 0 {
			t.Fatal("resources/subscribe sent in the modern era")
		}
		keys(t, m, "P")
		mustContain(t, "ping", view(m), "ping does not exist in the modern era")
		// Roots edits send no list_changed in the modern era.
		keys(t, m, "R", "a")
		typeIn(t, m, "/tmp")
		keys(t, m, "enter")
		if s.rootsNotified != 0 {
			t.Fatal("list_changed sent in the modern era")
		}
	})
}
