package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"go.opentelemetry.io/otel"

	"github.com/mcp-inspect/mcp-inspect/internal/otlpexport"
	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// otlpFlags are --otlp URL and --otlp-bodies (issue 28): where the spans and metrics of what
// is seen on the wire go, and whether bodies go with them.
type otlpFlags struct {
	url    string
	bodies bool
}

func (o *otlpFlags) add(fl *pflag.FlagSet) {
	fl.StringVar(&o.url, "otlp", "", "send spans and metrics of every message to this OpenTelemetry receiver (OTLP/HTTP base `URL`, e.g. http://127.0.0.1:4318)")
	fl.BoolVar(&o.bodies, "otlp-bodies", false, "with --otlp: add request params and response bodies to the spans (secrets masked)")
}

// start returns the exporter --otlp asks for, nil without --otlp. transport is
// network.transport ("pipe" or "tcp"); live says the events come from a tap (unclassified,
// lent). red masks the bodies --otlp-bodies sends: the session's secrets (its -e values,
// arguments, headers) even when its trace is written with --no-redact. The SDK's own errors
// (an export that failed and will be retried) go to logger, not to stderr, which is the
// host's log in a tap; Close's error is said on stderr. Errors: a URL that is not http(s).
func (o *otlpFlags) start(ctx context.Context, transport string, live bool, logger *slog.Logger, red *trace.Redactor) (*otlpexport.Exporter, error) {
	if o.url == "" {
		if o.bodies {
			return nil, &codeError{exitUsage, "--otlp-bodies goes with --otlp URL (the receiver the bodies go to)"}
		}
		return nil, nil
	}
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { logger.Warn("otlp export", "endpoint", o.url, "err", err) }))
	// OTEL_SERVICE_NAME is the OpenTelemetry SDKs' variable for service.name.
	opt := otlpexport.Options{Endpoint: o.url, Transport: transport, Bodies: o.bodies, Live: live, ServiceName: os.Getenv("OTEL_SERVICE_NAME")}
	if o.bodies {
		opt.Mask = bodyMasker(red)
	}
	x, err := otlpexport.New(ctx, opt)
	if err != nil {
		return nil, &codeError{exitUsage, err.Error()}
	}
	return x, nil
}

// otlpFlushTimeout bounds the wait for the receiver when a session ends.
const otlpFlushTimeout = 10 * time.Second

// finishOTLP flushes x (nil: nothing to do) and says on stderr when the receiver could
// not take the export; the session's own outcome is not changed by it.
func finishOTLP(x *otlpexport.Exporter, endpoint string, stderr io.Writer, prefix string) {
	if x == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), otlpFlushTimeout)
	defer cancel()
	if err := x.Close(ctx); err != nil {
		fmt.Fprintf(stderr, "%s%s\n", prefix, otlpFailure(endpoint, err))
	}
}

// otlpFailure says why an export to endpoint failed, on one line, with what to look at.
func otlpFailure(endpoint string, err error) string {
	msg := fmt.Sprintf("--otlp %s: %s", endpoint, strings.ReplaceAll(err.Error(), "\n", "; "))
	switch {
	case platform.IsConnRefused(err):
		return msg + " (nothing listens there: is the OTLP/HTTP receiver running?)"
	case errors.Is(err, context.DeadlineExceeded):
		return msg + fmt.Sprintf(" (the receiver did not answer within %s)", otlpFlushTimeout)
	}
	return msg
}
