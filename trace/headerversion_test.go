package trace_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/trace"
)

// bomTraceBody is a header and two events (a request and its answer).
const bomTraceBody = `{"format":"mcp-inspect-trace","version":1,"start":"2026-01-02T03:04:05Z"}` + "\n" +
	`{"seq":1,"t":"2026-01-02T03:04:05.001Z","mono":1000000,"dir":"c2s","raw":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n","size":40}` + "\n" +
	`{"seq":2,"t":"2026-01-02T03:04:05.002Z","mono":2000000,"dir":"s2c","raw":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n","size":36}` + "\n"

// TestHeaderBOM: a trace that an editor saved with a UTF-8 byte-order mark opens, from a
// file and from a stream, with both events read whole and paired.
func TestHeaderBOM(t *testing.T) {
	t.Parallel()
	data := []byte("\ufeff" + bomTraceBody)
	tr, err := trace.OpenReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("a trace with a byte-order mark: %v", err)
	}
	st, err := trace.OpenStream(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("a stream with a byte-order mark: %v", err)
	}
	defer st.Close()
	for _, tr := range []*trace.Trace{tr, st} {
		if tr.Header.Version != 1 || len(tr.Warnings) != 0 || tr.Len() != 2 {
			t.Fatalf("header %+v, warnings %v, %d events", tr.Header, tr.Warnings, tr.Len())
		}
		var n int
		for ev, err := range tr.Events() {
			if err != nil {
				t.Fatal(err)
			}
			if n++; n == 2 && (ev.Pair != 1 || ev.Method != "ping") {
				t.Errorf("the answer: pair %d, method %q", ev.Pair, ev.Method)
			}
		}
	}
	if _, err := trace.ParseHeader([]byte("\ufeff" + strings.SplitAfter(bomTraceBody, "\n")[0])); err != nil {
		t.Errorf("ParseHeader with a byte-order mark: %v", err)
	}
}

// TestHeaderVersionRefused: a format version no writer used (negative, 0, missing, not a
// whole number) is refused with ErrFormatVersion, naming the version found and the ones
// this reader takes; a newer one still opens with a warning (TestReaderTolerance).
func TestHeaderVersionRefused(t *testing.T) {
	t.Parallel()
	supported := fmt.Sprintf("reads version %d (and newer ones, with a warning)", trace.FormatVersion)
	for _, tc := range []struct{ version, want string }{
		{`,"version":-1`, "unsupported trace format version -1: no mcp-inspect writes it"},
		{`,"version":0`, "version 0: no mcp-inspect writes it"},
		{``, "unsupported trace format version: the header has none"},
		{`,"version":null`, "unsupported trace format version: the header has none"},
		{`,"version":1.5`, "version 1.5: not a whole number"},
		{`,"version":"1"`, `version "1": not a whole number`},
	} {
		head := `{"format":"mcp-inspect-trace"` + tc.version + `,"start":"2026-01-02T03:04:05Z"}` + "\n"
		data := []byte(head + strings.SplitAfterN(bomTraceBody, "\n", 2)[1])
		_, err := trace.OpenReader(bytes.NewReader(data), int64(len(data)))
		_, serr := trace.OpenStream(bytes.NewReader(data))
		_, herr := trace.ParseHeader([]byte(head))
		for _, e := range []error{err, serr, herr} {
			if !errors.Is(e, trace.ErrFormatVersion) || !strings.Contains(e.Error(), tc.want) || !strings.Contains(e.Error(), supported) {
				t.Errorf("%s: %v; want ErrFormatVersion saying %q and %q", head, e, tc.want, supported)
			}
		}
	}
}
