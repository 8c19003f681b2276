// Package trace is mcp-inspect's trace format and everything built on it: a crash-safe
// writer fed by mcpclient.Config.OnEvent, a tolerant reader that indexes line offsets and
// reads events on demand, redaction of secrets, statistics, the wire dump of `trace cat`,
// the replay engine with its structural diff, and the mock server.
//
// A trace is JSON Lines (design.md "Traces"): one header line, then one line per
// mcpclient.Event holding the exact raw bytes. Derived data (kind, parsed message, pairing,
// problems) is never stored; the reader recomputes it with mcpclient.Classify and a pairing
// pass. The package never imports bubbletea, lipgloss or ui.
package trace

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// FormatName is the value of the header's "format" member; a file whose first line lacks it
// is not a trace.
const FormatName = "mcp-inspect-trace"

// FormatVersion is the trace format version this package writes. The reader accepts the
// versions from OldestFormatVersion on, and newer ones with a warning (unknown members are
// ignored); a version below OldestFormatVersion (0, negative, or none) is no version any
// writer used, and is refused with ErrFormatVersion.
const FormatVersion = 1

// OldestFormatVersion is the oldest trace format version the reader accepts.
const OldestFormatVersion = 1

// Framing names in the header.
const (
	// FramingNewline is MCP's stdio framing: one JSON-RPC message per line.
	FramingNewline = "newline"
	// FramingContentLength is the opt-in LSP-style framing (mcp-inspect --framing
	// content-length): frames of both directions carry a Content-Length header block.
	FramingContentLength = "content-length"
	// FramingAuto is --framing auto: newline JSON until the server wrote Content-Length
	// frames (a lifecycle note in the trace says what the client did then).
	FramingAuto = "auto"
)

// Header is the first line of a trace. It describes the session, never its secrets: Env
// holds "KEY=***" entries unless redaction was off, and Redaction lists what was scrubbed
// (names only, never values).
type Header struct {
	// Format is FormatName; Version is the format version (FormatVersion when written here).
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Tool and ToolVersion name the program that wrote the trace ("mcp-inspect", "0.1.0").
	Tool        string `json:"tool,omitempty"`
	ToolVersion string `json:"toolVersion,omitempty"`
	// Start is the wall-clock time the recording began; event lines carry nanosecond
	// offsets from it (monotonic clock).
	Start time.Time `json:"start"`
	// Argv is the server's command line, token-looking values replaced by "***".
	Argv []string `json:"argv,omitempty"`
	// Cwd is the directory the server ran in.
	Cwd string `json:"cwd,omitempty"`
	// Env is the environment given on top of the inherited one, as "KEY=***" (values only
	// when redaction was off).
	Env []string `json:"env,omitempty"`
	// Era is "legacy", "modern" or "auto"; Framing is FramingNewline, FramingContentLength
	// or FramingAuto.
	Era     string `json:"era,omitempty"`
	Framing string `json:"framing,omitempty"`
	// ProtocolVersion is the version the client asked for in initialize.
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	// Redaction says whether secrets were scrubbed and which.
	Redaction Redaction `json:"redaction"`
	// Note is free text, e.g. "updated by replay".
	Note string `json:"note,omitempty"`
	// Transport is "http" (Streamable HTTP) or "sse" (HTTP+SSE) for a remote server, empty
	// for stdio; URL is then the server's endpoint (Argv holds it too). In an HTTP trace,
	// c2s and s2c events hold one JSON-RPC message each, without a line ending.
	Transport string `json:"transport,omitempty"`
	URL       string `json:"url,omitempty"`
}

// Redaction records what the writer scrubbed: names and kinds, never the values.
type Redaction struct {
	// Enabled is false when the trace was written with --no-redact.
	Enabled bool `json:"enabled"`
	// Items lists each secret or rule applied to the raw bytes and to the header.
	Items []RedactedItem `json:"items,omitempty"`
}

// RedactedItem is one redaction rule. Kind is one of "env" (a value given with -e),
// "env-inherited" (an inherited value whose key looks secret), "url-userinfo",
// "argv" (a command-line value that looks like a token), "regex" (a --redact pattern,
// named by position so the pattern itself, which may be the secret, is not written),
// "token-format" (well-known token shapes such as ghp_…). Name is the env key, "argv[3]",
// "--redact #1" or the rule name. Note explains a limit ("too short to scrub from the
// stream").
type RedactedItem struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	Note string `json:"note,omitempty"`
}

// Record is one event line as stored. Raw holds the exact bytes (after redaction); the
// other members are what the wire layer knew and a reader cannot recompute.
type Record struct {
	// Seq is the event's sequence number (from 1).
	Seq uint64
	// Wall is the wall-clock time of the event; Mono its offset from Header.Start in
	// nanoseconds, from the monotonic clock.
	Wall time.Time
	Mono int64
	// Dir is the direction.
	Dir mcpclient.Direction
	// Raw is the frame's bytes (empty for lifecycle events).
	Raw []byte
	// Size is the frame's length on the wire in bytes (it may exceed len(Raw)).
	Size int64
	// Truncated is set when Raw holds only the head of an oversize frame.
	Truncated bool
	// Chunks are offsets inside Raw where a new read began; ChunkCount counts all of them
	// (Chunks is capped at mcpclient.MaxChunkMarks).
	Chunks     []int
	ChunkCount int
	// Redacted names the redaction rules that changed Raw (see RedactedItem.Name).
	Redacted []string
	// Life is set for lifecycle events.
	Life *LifeRecord
	// HTTPKind says what an "http<" event holds: "head" (status line and headers), "sse"
	// (one SSE frame), "body" (a body that is not an event stream) or "encoded" (a
	// content-encoded body or stream as received, Encoding saying how it decodes).
	HTTPKind string
	// Encoding is set for an "encoded" event.
	Encoding *EncodingRecord
	// Exchange is, for an HTTP response's events ("http<"), the Seq of the request's
	// ("http>"): concurrent exchanges interleave, so it is stored, not derived. For an
	// "http>" request it is the Seq of the JSON-RPC message its body carries, and for a
	// message read from an HTTP answer the Seq of that exchange's request
	// (mcpclient.Event.Exchange).
	Exchange uint64
	// Written is "edited" or "injected" for a frame a tap wrote itself, "" otherwise
	// (mcpclient.Event.Written); member "tap".
	Written string
}

// EncodingRecord is mcpclient.Encoding as stored: the Content-Encoding value, the decoded
// length, and why the body did not decode ("" when it did).
type EncodingRecord struct {
	Coding  string `json:"coding"`
	Decoded int64  `json:"decoded"`
	Err     string `json:"err,omitempty"`
}

// LifeRecord is mcpclient.LifeInfo as stored. Kind is one of "started", "spawn-failed",
// "stdout-closed", "exited", "initialized", "handshake-failed", "shutdown", "note".
// Code is the exit code (set for "exited"; -1 when a signal ended the process).
type LifeRecord struct {
	Kind   string `json:"kind"`
	PID    int    `json:"pid,omitempty"`
	Code   *int   `json:"code,omitempty"`
	Signal string `json:"signal,omitempty"`
	Err    string `json:"err,omitempty"`
	Text   string `json:"text,omitempty"`
	// Cond is a note's condition (mcpclient.NoteCond: "stream-lost"), absent for plain notes.
	Cond string `json:"cond,omitempty"`
}

var lifeNames = [...]string{
	mcpclient.LifeStarted:         "started",
	mcpclient.LifeSpawnFailed:     "spawn-failed",
	mcpclient.LifeStdoutClosed:    "stdout-closed",
	mcpclient.LifeExited:          "exited",
	mcpclient.LifeInitialized:     "initialized",
	mcpclient.LifeHandshakeFailed: "handshake-failed",
	mcpclient.LifeShutdown:        "shutdown",
	mcpclient.LifeNote:            "note",
}

func lifeKindName(k mcpclient.LifeKind) string {
	if int(k) < len(lifeNames) && lifeNames[k] != "" {
		return lifeNames[k]
	}
	return "note"
}

func lifeKindOf(name string) mcpclient.LifeKind {
	for k, n := range lifeNames {
		if n == name && n != "" {
			return mcpclient.LifeKind(k)
		}
	}
	return mcpclient.LifeNote
}

func dirOf(name string) (mcpclient.Direction, bool) {
	switch name {
	case "c2s":
		return mcpclient.ClientToServer, true
	case "s2c":
		return mcpclient.ServerToClient, true
	case "stderr":
		return mcpclient.Stderr, true
	case "event":
		return mcpclient.Lifecycle, true
	case "http>":
		return mcpclient.HTTPOut, true
	case "http<":
		return mcpclient.HTTPIn, true
	}
	return 0, false
}

// lineJSON is the decoding shape of an event line. Unknown members are ignored.
type lineJSON struct {
	Seq        *uint64         `json:"seq"`
	T          string          `json:"t"`
	Mono       int64           `json:"mono"`
	Dir        string          `json:"dir"`
	Raw        quotedRaw       `json:"raw"`
	B64        bool            `json:"b64"`
	Size       *int64          `json:"size"`
	Trunc      bool            `json:"trunc"`
	Chunks     []int           `json:"chunks"`
	ChunkCount int             `json:"nchunks"`
	Red        []string        `json:"red"`
	Life       *LifeRecord     `json:"life"`
	HTTPKind   string          `json:"hk"`
	Enc        *EncodingRecord `json:"enc"`
	Ex         uint64          `json:"ex"`
	Tap        string          `json:"tap"`
}

// appendRecord appends r as one JSON line, newline included. Members come in a fixed order
// (seq first) so traces are easy to read and grep.
// st caches the time stamp's text between calls (nil: none).
func appendRecord(b []byte, r *Record, st *wallStamp) []byte {
	b = appendRecordHead(b, r, st)
	if r.Dir != mcpclient.Lifecycle || len(r.Raw) > 0 {
		if utf8.Valid(r.Raw) {
			b = appendJSONString(b, r.Raw)
		} else {
			b = append(b, '"')
			b = base64.StdEncoding.AppendEncode(b, r.Raw)
			b = append(b, `","b64":true`...)
		}
	}
	return appendRecordTail(b, r)
}

// appendRecordHead appends a record's line up to its raw bytes: up to `"raw":` when it has
// them.
func appendRecordHead(b []byte, r *Record, st *wallStamp) []byte {
	b = append(b, `{"seq":`...)
	b = strconv.AppendUint(b, r.Seq, 10)
	b = append(b, `,"t":"`...)
	b = st.append(b, r.Wall)
	b = append(b, `","mono":`...)
	b = strconv.AppendInt(b, r.Mono, 10)
	b = append(b, `,"dir":"`...)
	b = append(b, r.Dir.String()...)
	b = append(b, '"')
	if r.Dir != mcpclient.Lifecycle || len(r.Raw) > 0 {
		b = append(b, `,"raw":`...)
	}
	return b
}

// appendRecordTail appends what follows the raw bytes, to the end of the line.
func appendRecordTail(b []byte, r *Record) []byte {
	if r.Dir != mcpclient.Lifecycle || len(r.Raw) > 0 {
		b = append(b, `,"size":`...)
		b = strconv.AppendInt(b, r.Size, 10)
	}
	if r.Truncated {
		b = append(b, `,"trunc":true`...)
	}
	if len(r.Chunks) > 0 {
		b = append(b, `,"chunks":[`...)
		for i, c := range r.Chunks {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(c), 10)
		}
		b = append(b, ']')
	}
	if r.ChunkCount > len(r.Chunks) {
		b = append(b, `,"nchunks":`...)
		b = strconv.AppendInt(b, int64(r.ChunkCount), 10)
	}
	if len(r.Redacted) > 0 {
		b = append(b, `,"red":`...)
		js, _ := json.Marshal(r.Redacted)
		b = append(b, js...)
	}
	if r.HTTPKind != "" {
		b = append(b, `,"hk":"`...)
		b = append(b, r.HTTPKind...)
		b = append(b, '"')
	}
	if r.Exchange != 0 {
		b = append(b, `,"ex":`...)
		b = strconv.AppendUint(b, r.Exchange, 10)
	}
	if r.Written != "" {
		b = append(b, `,"tap":`...)
		b = strconv.AppendQuote(b, r.Written)
	}
	if r.Encoding != nil {
		b = append(b, `,"enc":`...)
		js, _ := json.Marshal(r.Encoding)
		b = append(b, js...)
	}
	if r.Life != nil {
		b = append(b, `,"life":`...)
		js, _ := json.Marshal(r.Life)
		b = append(b, js...)
	}
	return append(b, "}\n"...)
}

// decodeRecord parses one event line. It fails on a line that is not a JSON object, has no
// seq, names an unknown direction, or holds bad base64. The Record shares nothing with
// line.
func decodeRecord(line []byte) (*Record, error) { return decodeRecordIn(line, false) }

// decodeOwnedRecord is decodeRecord for a line buffer the caller gives up: a big frame's
// bytes are decoded in place, so its Raw is a slice of line and a 100 MB frame costs the
// line alone, not the line and a copy (issue 26).
func decodeOwnedRecord(line []byte) (*Record, error) { return decodeRecordIn(line, true) }

func decodeRecordIn(line []byte, owned bool) (*Record, error) {
	var l lineJSON
	if err := json.Unmarshal(line, &l); err != nil {
		return nil, err
	}
	if l.Seq == nil {
		return nil, fmt.Errorf("event line without seq")
	}
	dir, ok := dirOf(l.Dir)
	if !ok {
		return nil, fmt.Errorf("event %d: unknown dir %q", *l.Seq, l.Dir)
	}
	r := &Record{Seq: *l.Seq, Mono: l.Mono, Dir: dir, Truncated: l.Trunc, Chunks: l.Chunks, ChunkCount: l.ChunkCount, Redacted: l.Red, Life: l.Life, HTTPKind: l.HTTPKind, Encoding: l.Enc, Exchange: l.Ex, Written: l.Tap}
	if l.T != "" {
		t, err := time.Parse(time.RFC3339Nano, l.T)
		if err != nil {
			return nil, fmt.Errorf("event %d: time: %w", r.Seq, err)
		}
		r.Wall = t
	}
	if l.Raw != nil {
		var raw []byte
		var err error
		if owned && len(l.Raw) >= inPlaceMin {
			raw, err = l.Raw.bytesInPlace(l.B64)
		} else {
			raw, err = l.Raw.bytes(l.B64)
		}
		if err != nil {
			return nil, fmt.Errorf("event %d: raw: %w", r.Seq, err)
		}
		r.Raw = raw
	}
	if l.Size != nil {
		r.Size = *l.Size
	} else {
		r.Size = int64(len(r.Raw))
	}
	if r.ChunkCount < len(r.Chunks) {
		r.ChunkCount = len(r.Chunks)
	}
	if dir == mcpclient.Lifecycle && r.Life == nil {
		r.Life = &LifeRecord{Kind: "note"}
	}
	return r, nil
}

// recordOf converts a live event to its stored form (before redaction).
func recordOf(ev *mcpclient.Event, start time.Time) *Record {
	r := new(Record)
	fillRecord(r, ev, start)
	return r
}

// fillRecord is recordOf into r, which it overwrites whole: the Writer reuses one Record,
// as a new one per event was the recorder's only allocation.
func fillRecord(r *Record, ev *mcpclient.Event, start time.Time) {
	*r = Record{
		Seq:        ev.Seq,
		Wall:       ev.Time,
		Mono:       int64(ev.Time.Sub(start)),
		Dir:        ev.Dir,
		Raw:        ev.Raw,
		Size:       ev.Size,
		Truncated:  ev.Kind == mcpclient.KindOversize || ev.Size > int64(len(ev.Raw)),
		Chunks:     ev.Chunks,
		ChunkCount: ev.ChunkCount,
		Written:    string(ev.Written),
	}
	if r.Size == 0 {
		r.Size = int64(len(ev.Raw))
	}
	if l := ev.Life; l != nil {
		lr := &LifeRecord{Kind: lifeKindName(l.Kind), PID: l.PID, Signal: l.Signal, Text: l.Text, Cond: string(l.Cond)}
		if l.Err != nil {
			lr.Err = l.Err.Error()
		}
		if l.Kind == mcpclient.LifeExited {
			code := l.ExitCode
			lr.Code = &code
		}
		r.Life = lr
	}
	if ev.Dir == mcpclient.HTTPIn {
		r.Exchange = ev.Pair
	} else {
		r.Exchange = ev.Exchange
	}
	switch ev.Kind {
	case mcpclient.KindHTTPResponse:
		r.HTTPKind = "head"
	case mcpclient.KindSSEFrame:
		r.HTTPKind = "sse"
	case mcpclient.KindHTTPBody:
		r.HTTPKind = "body"
	case mcpclient.KindHTTPEncoded:
		r.HTTPKind = "encoded"
		if e := ev.Encoding; e != nil {
			r.Encoding = &EncodingRecord{Coding: e.Coding, Decoded: e.Decoded, Err: e.Err}
		}
	}
}
