package tap

import (
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// BenchmarkGateWrite is one read of one 200-byte line through a stdio tap's gate, without
// rules and with the three that match nothing (the sieve, and for the host's requests the
// copy kept to name their responses); forwarding costs nothing here.
func BenchmarkGateWrite(b *testing.B) {
	line := benchLine()
	for _, bc := range []struct {
		name  string
		rules []Rule
	}{{"inactive", nil}, {"rules", benchRules(b)}} {
		for _, dir := range []mcpclient.Direction{mcpclient.ClientToServer, mcpclient.ServerToClient} {
			b.Run(bc.name+"-"+dir.String(), func(b *testing.B) {
				s := &session{}
				s.inj = newInjector(bc.rules, time.Now(), true, nil)
				g := &lineGate{s: s, dir: dir, max: 1 << 20, fwd: func([]byte) bool { return true }}
				// As forward does: the recorder's copy of the read is in a pooled buffer.
				buf := newChunkPool().get()
				copied := buf.b[:copy(buf.b, line)]
				b.ReportAllocs()
				for b.Loop() {
					g.writeRead(line, readCopy{copied, buf})
				}
			})
		}
	}
}
