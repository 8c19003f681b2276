package testservers

import (
	"net"
	"testing"
	"time"
)

// TestHTTPServerStops checks that a test's cleanup stops the server and its
// whole process group, and that the port is free again.
func TestHTTPServerStops(t *testing.T) {
	for _, tc := range []struct {
		name  string
		start func(testing.TB) *HTTPServer
	}{
		{"server-everything", ServerEverythingHTTP},
		{"go-everything", func(t testing.TB) *HTTPServer { return GoEverythingHTTP(t, true) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s *HTTPServer
			t.Run("run", func(t *testing.T) { s = tc.start(t) })
			if s == nil {
				t.FailNow()
			}
			select {
			case <-s.exited:
			default:
				t.Fatal("the server still runs after its test ended")
			}
			if s.tree.Alive() {
				t.Errorf("the process tree of pid %d is still alive after its test ended", s.tree.PID())
			}
			if c, err := net.DialTimeout("tcp", s.Addr, time.Second); err == nil {
				c.Close()
				t.Errorf("%s still accepts connections", s.Addr)
			}
		})
	}
}
