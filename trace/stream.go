package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ParseHeader decodes a trace's first line (its line ending optional). It fails with
// ErrNotTrace when the line is not a trace header. It is for readers of a trace that
// arrives as a stream (the tap's attach socket) rather than as a file: Open and OpenReader
// are the way to read files.
//
// A UTF-8 byte-order mark before the header (an editor that saved the file may add one) is
// skipped. A header whose format version is not one a writer used (below
// OldestFormatVersion, or not a whole number) fails with ErrFormatVersion, naming it.
func ParseHeader(line []byte) (Header, error) {
	var h Header
	line = bytes.TrimRight(bytes.TrimPrefix(line, utf8BOM), "\r\n")
	var probe struct {
		Format  string          `json:"format"`
		Version json.RawMessage `json:"version"`
	}
	if err := json.Unmarshal(line, &probe); err != nil || probe.Format != FormatName {
		return Header{}, fmt.Errorf("%w: the first line is not a trace header", ErrNotTrace)
	}
	supported := fmt.Sprintf("this mcp-inspect reads version %d", FormatVersion)
	if OldestFormatVersion < FormatVersion {
		supported = fmt.Sprintf("this mcp-inspect reads versions %d to %d", OldestFormatVersion, FormatVersion)
	}
	supported += " (and newer ones, with a warning)"
	if len(probe.Version) == 0 || string(probe.Version) == "null" {
		return Header{}, fmt.Errorf("%w: the header has none; %s", ErrFormatVersion, supported)
	}
	if err := json.Unmarshal(line, &h); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field == "version" {
			return Header{}, fmt.Errorf("%w %.40s: not a whole number; %s", ErrFormatVersion, probe.Version, supported)
		}
		return Header{}, fmt.Errorf("%w: the first line is not a trace header (%v)", ErrNotTrace, err)
	}
	if h.Version < OldestFormatVersion {
		return Header{}, fmt.Errorf("%w %d: no mcp-inspect writes it; %s", ErrFormatVersion, h.Version, supported)
	}
	return h, nil
}

// ErrFormatVersion is returned (wrapped) by Open and ParseHeader for a trace header whose
// format version no writer used; the message names it and the versions this reader takes.
var ErrFormatVersion = errors.New("unsupported trace format version")

// utf8BOM is the UTF-8 byte-order mark.
var utf8BOM = []byte("\ufeff")

// ParseRecord decodes one event line of a trace as stored (its line ending optional). Turn
// it into an event with Record.Event and an mcpclient.Pairer, as Trace.Events does.
func ParseRecord(line []byte) (*Record, error) {
	return decodeRecord(bytes.TrimRight(line, "\r\n"))
}
