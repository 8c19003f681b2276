package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ParseHeader decodes a trace's first line (its line ending optional). It fails with
// ErrNotTrace when the line is not a trace header. It is for readers of a trace that
// arrives as a stream (the tap's attach socket) rather than as a file: Open and OpenReader
// are the way to read files.
func ParseHeader(line []byte) (Header, error) {
	var h Header
	if err := json.Unmarshal(bytes.TrimRight(line, "\r\n"), &h); err != nil || h.Format != FormatName {
		return Header{}, fmt.Errorf("%w: the first line is not a trace header", ErrNotTrace)
	}
	return h, nil
}

// ParseRecord decodes one event line of a trace as stored (its line ending optional). Turn
// it into an event with Record.Event and an mcpclient.Pairer, as Trace.Events does.
func ParseRecord(line []byte) (*Record, error) {
	return decodeRecord(bytes.TrimRight(line, "\r\n"))
}
