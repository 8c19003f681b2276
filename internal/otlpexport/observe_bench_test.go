package otlpexport

import (
	"strconv"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// BenchmarkObserveLive is what --otlp costs a tap's recorder goroutine per tools/call round
// trip: the request and its response observed as a tap hands them over (unclassified,
// lent), with an exporter that drops what it is given.
func BenchmarkObserveLive(b *testing.B) {
	x, err := newExporter(Options{Transport: "pipe", Live: true}, tracetest.NewNoopExporter(), sdkmetric.NewManualReader())
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Now()
	b.ReportAllocs()
	for i := range b.N {
		id := strconv.Itoa(i + 1)
		req := []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"message of the benchmark, about a hundred bytes of payload to echo back"}}}` + "\n")
		resp := []byte(`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"message of the benchmark, about a hundred bytes of payload to echo back"}]}}` + "\n")
		x.Observe(mcpclient.Event{Seq: uint64(2*i + 1), Time: t0, Dir: mcpclient.ClientToServer, Raw: req})
		x.Observe(mcpclient.Event{Seq: uint64(2*i + 2), Time: t0, Dir: mcpclient.ServerToClient, Raw: resp})
	}
}
