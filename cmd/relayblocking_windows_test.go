package cmd

import (
	"io"
	"net"
)

// relayBlocking copies both ways; Windows sockets have no raw blocking descriptor to read
// and write as on Unix, so it is the io.Copy relay (BenchmarkHTTPRelayFloor's numbers come
// from Linux).
func relayBlocking(in, out *net.TCPConn) {
	go func() { io.Copy(out, in); out.CloseWrite() }()
	go func() { io.Copy(in, out); in.CloseWrite() }()
}
