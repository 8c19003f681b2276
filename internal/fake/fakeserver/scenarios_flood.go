package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Knobs of the flood scenarios (issue 8, "Floods").
//
//	FAKE_COUNT  flood-notify: notifications sent (default 100000); flood-stderr: lines written
//	            (default 100000)
//	FAKE_RATE   flood-stderr: lines per second (default 10000); 0 writes as fast as it can
const (
	defaultFloodCount = 100_000
	defaultFloodRate  = 10_000
	// floodTick is how often flood-stderr writes its share of lines: at 10,000 lines/s a
	// tick of 10 ms writes 100 lines, each in its own write(2).
	floodTick = 10 * time.Millisecond
)

// floodScenarios are servers that send more than a UI can draw: "flood-notify" sends
// FAKE_COUNT notifications/message as fast as it can once the client says initialized,
// "flood-stderr" writes FAKE_COUNT stderr lines at FAKE_RATE lines per second from its
// start. Both keep answering requests (ping, tools/list, the echo tool) meanwhile, and each
// message or line carries its number (1-based, six digits) so a test can check none was
// lost: "flood 000001" … and a last line "flood done N".
func floodScenarios() map[string]*scenario {
	return map[string]*scenario{
		"flood-notify": {
			summary:      "after initialized, FAKE_COUNT (100000) notifications/message as fast as it can, then one saying done",
			capabilities: `{"tools":{},"logging":{}}`,
			initialized: func(s *server) {
				n := s.floodCount()
				go func() {
					for i := 1; i <= n; i++ {
						s.write(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"flood ` + floodNum(i) + `"}}` + "\n")
					}
					s.write(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"notice","logger":"flood","data":"flood done ` + strconv.Itoa(n) + `"}}` + "\n")
				}()
			},
		},
		"stderr-progress": {
			summary: "before it reads stdin, a progress bar on stderr redrawn with \\r (10% … 100%, FAKE_DELAY_MS (150) apart), then \"Loading model… \" finished by \"done\" a pause later, as tqdm and npx draw them",
			startup: func(s *server) int {
				delay := 150 * time.Millisecond
				if v, ok := s.envInt("FAKE_DELAY_MS"); ok {
					delay = time.Duration(v) * time.Millisecond
				}
				for pct := 10; pct <= 100; pct += 10 {
					bar := strings.Repeat("█", pct/10) + strings.Repeat(" ", 10-pct/10)
					fmt.Fprintf(s.stderr, "\r%3d%%|%s| %d/10", pct, bar, pct/10)
					if pct < 100 {
						time.Sleep(delay)
					}
				}
				fmt.Fprint(s.stderr, "\n")
				fmt.Fprint(s.stderr, "Loading model… ")
				time.Sleep(delay)
				fmt.Fprint(s.stderr, "done\n")
				return -1
			},
		},
		"flood-stderr": {
			summary: "from its start, FAKE_COUNT (100000) stderr lines at FAKE_RATE (10000) lines per second, then one saying done",
			startup: func(s *server) int {
				n := s.floodCount()
				rate := defaultFloodRate
				if v, ok := s.envInt("FAKE_RATE"); ok {
					rate = v
				}
				go s.stderrFlood(n, rate)
				return -1
			},
		},
	}
}

func (s *server) floodCount() int {
	if v, ok := s.envInt("FAKE_COUNT"); ok {
		return v
	}
	return defaultFloodCount
}

// stderrFlood writes n numbered lines, rate per second (all at once when rate is 0), each in
// one write, then "flood done n".
func (s *server) stderrFlood(n, rate int) {
	start := time.Now()
	for i := 1; i <= n; i++ {
		if rate > 0 && i%max(rate/int(time.Second/floodTick), 1) == 0 {
			// Sleep until line i is due: the rate holds on average, whatever write costs.
			due := start.Add(time.Duration(i) * time.Second / time.Duration(rate))
			if d := time.Until(due); d > 0 {
				time.Sleep(d)
			}
		}
		s.logf("flood %s: a line of server stderr, the kind a chatty debug log writes", floodNum(i))
	}
	s.logf("flood done %d", n)
}

// floodNum is i as six digits (wider when i needs it), so lines sort and grep alike.
func floodNum(i int) string {
	d := strconv.Itoa(i)
	for len(d) < 6 {
		d = "0" + d
	}
	return d
}
