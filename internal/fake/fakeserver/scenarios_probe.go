package main

import (
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/stdioserver"
)

// Scenarios for the --era auto probe (server/discover, MCP 2026-07-28
// basic/transports/stdio §Backward Compatibility): servers that start slowly, answer the
// probe late, or never answer it.
//
//	slow-start         dual-era (the tasks server: server/discover and initialize) that writes
//	                   nothing and reads nothing for FAKE_START_MS (default 4000), like
//	                   `sh -c 'sleep 4; exec server'` or a cold npx
//	probe-late-legacy  legacy: a stderr banner at once, then answers server/discover with
//	                   -32601 only after FAKE_DISCOVER_MS (default 3300), like npx
//	                   server-everything; initialize at once
//	probe-late-modern  dual-era: the banner, then the DiscoverResult after FAKE_DISCOVER_MS
//	probe-silent       legacy that never answers server/discover and writes nothing; initialize
//	                   at once
//	probe-banner-slow  dual-era: a stderr banner, then nothing read for FAKE_START_MS (default
//	                   4000); once it has answered server/discover it refuses initialize, as
//	                   the go-sdk does (error 0 `duplicate "initialize" received`)

// The knobs above (milliseconds); fake.EnvStartMS and fake.EnvDiscoverMS name them for tests.
const (
	envStartMS    = "FAKE_START_MS"
	envDiscoverMS = "FAKE_DISCOVER_MS"
)

func probeScenarios() map[string]*scenario {
	slow := newTaskServer(false).scenario("dual-era (tasks) server silent for FAKE_START_MS (default 4000) before it reads stdin")
	slow.startup = func(s *server) int {
		ms, ok := s.envInt(envStartMS)
		if !ok {
			ms = 4000
		}
		time.Sleep(time.Duration(ms) * time.Millisecond)
		return -1
	}
	late := newTaskServer(false).scenario("dual-era: stderr banner, DiscoverResult after FAKE_DISCOVER_MS (default 3300)")
	ts := newTaskServer(false)
	late.startup = banner
	late.methods["server/discover"] = func(s *server, m *stdioserver.Message) {
		go func() {
			discoverDelay(s)
			ts.discover(s, m)
		}()
	}
	sdk := newTaskServer(false)
	var sdkDiscovered bool // the read loop is the only user
	sdkLike := sdk.scenario(`dual-era: stderr banner, silent FAKE_START_MS (default 4000); after server/discover it refuses initialize ("duplicate")`)
	sdkLike.startup = func(s *server) int {
		banner(s)
		ms, ok := s.envInt(envStartMS)
		if !ok {
			ms = 4000
		}
		time.Sleep(time.Duration(ms) * time.Millisecond)
		return -1
	}
	sdkLike.methods["server/discover"] = func(s *server, m *stdioserver.Message) {
		sdkDiscovered = true
		sdk.discover(s, m)
	}
	sdkLike.initialize = func(s *server, m *stdioserver.Message) {
		if sdkDiscovered {
			s.fail(m.ID, 0, `duplicate "initialize" received`)
			return
		}
		s.write(s.initializeLine(m))
	}
	return map[string]*scenario{
		"probe-banner-slow": sdkLike,
		"slow-start":        slow,
		"probe-late-modern": late,
		"probe-late-legacy": {
			summary: "legacy: stderr banner, -32601 to server/discover after FAKE_DISCOVER_MS (default 3300)",
			startup: banner,
			methods: map[string]func(*server, *stdioserver.Message){
				"server/discover": func(s *server, m *stdioserver.Message) {
					go func() {
						discoverDelay(s)
						s.fail(m.ID, stdioserver.CodeMethodNotFound, "Method not found")
					}()
				},
			},
		},
		"probe-silent": {
			summary: "legacy that never answers server/discover and writes nothing unasked",
			methods: map[string]func(*server, *stdioserver.Message){
				"server/discover": func(*server, *stdioserver.Message) {},
			},
		},
	}
}

func banner(s *server) int {
	s.logf("fake probe server starting")
	return -1
}

func discoverDelay(s *server) {
	ms, ok := s.envInt(envDiscoverMS)
	if !ok {
		ms = 3300
	}
	time.Sleep(time.Duration(ms) * time.Millisecond)
}
