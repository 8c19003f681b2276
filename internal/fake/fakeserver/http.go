package main

import (
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
)

// serveHTTP serves an HTTP scenario (fake.HTTPScenarios) on addr (default 127.0.0.1:0) until
// killed, after printing the URL to connect to on stdout.
func serveHTTP(name, addr string, stdout, stderr io.Writer) int {
	h, ok := fake.HTTPHandler(name, fake.HTTPOptions{})
	if !ok {
		fmt.Fprintf(stderr, "fakeserver: unknown HTTP scenario %q; known: %v\n", name, fake.HTTPScenarios)
		return exitUsage
	}
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(stderr, "fakeserver:", err)
		return 1
	}
	fmt.Fprintf(stdout, "http://%s%s\n", ln.Addr(), fake.Path(name))
	if err := http.Serve(ln, h); err != nil {
		fmt.Fprintln(stderr, "fakeserver:", err)
		return 1
	}
	return 0
}
