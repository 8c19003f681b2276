//go:build unix

package cmd

import (
	"net"

	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
)

// relayBlocking copies both ways with blocking read(2)/write(2) on the raw fds, one
// locked-free goroutine per direction (each blocks its thread, outside the netpoller).
func relayBlocking(in, out *net.TCPConn) {
	fin, err1 := in.File() // File dups the fd and leaves it in blocking mode
	fout, err2 := out.File()
	in.Close()
	out.Close()
	if err1 != nil || err2 != nil {
		return
	}
	a, c := int(fin.Fd()), int(fout.Fd())
	_ = platformtest.SetBlocking(a)
	_ = platformtest.SetBlocking(c)
	pipe := func(dst, src int) {
		buf := make([]byte, 64<<10)
		for {
			n, err := platformtest.ReadFD(src, buf)
			if n <= 0 || err != nil {
				break
			}
			for p := buf[:n]; len(p) > 0; {
				m, err := platformtest.WriteFD(dst, p)
				if err != nil {
					_ = platformtest.ShutdownFD(src)
					return
				}
				p = p[m:]
			}
		}
		_ = platformtest.ShutdownFD(dst)
		_ = platformtest.ShutdownFD(src)
	}
	go func() { pipe(c, a); fin.Close() }()
	go func() { pipe(a, c); fout.Close() }()
}
