package mcpclient

import (
	"fmt"
	"strconv"
	"strings"
)

// VersionNote is the note of a server that negotiated the known revision got instead of
// requested: normal negotiation (MCP basic/lifecycle §Version Negotiation), no fault.
func VersionNote(got, requested string) string {
	which := "an older revision"
	if got > requested { // dated revisions order as strings
		which = "a newer revision"
	}
	return fmt.Sprintf("server negotiated protocol version %s (requested %s): %s, which is normal negotiation; checks follow %s", got, requested, which, got)
}

// HasOutputSchema reports whether revision v has tools' outputSchema and results'
// structuredContent (MCP 2025-06-18 and later, the modern era included). An unknown
// revision is taken to have them.
func HasOutputSchema(v string) bool {
	switch v {
	case "2024-11-05", "2025-03-26":
		return false
	}
	return true
}

// versionProblem is the violation of an initialize result whose protocolVersion is
// missing or unknown (nil for a known one); its Text is the matching warning's.
func versionProblem(res *InitializeResult) *Problem {
	switch {
	case res.ProtocolVersion == "":
		return &Problem{Warning, CodeNoProtocolVersion, noVersionWarning}
	case !KnownProtocolVersion(res.ProtocolVersion):
		for _, w := range res.Warnings {
			if strings.Contains(w, strconv.Quote(res.ProtocolVersion)) {
				return &Problem{Warning, CodeUnknownProtocolVersion, w}
			}
		}
	}
	return nil
}

// noVersionWarning is DecodeInitializeResult's warning of a missing protocolVersion.
const noVersionWarning = "server answered no protocolVersion"

// stopStrict ends a --strict session at problem p of event seq, as checkStrictLocked does
// for a frame: the lifecycle note, pending requests failed, the server closed.
func (c *Client) stopStrict(seq uint64, p Problem) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.violation != nil {
		return c.violation
	}
	v := &ViolationError{Seq: seq, Problem: p}
	c.violation = v
	c.emitLocked(Event{Dir: Lifecycle, Kind: KindLifecycle, Life: &LifeInfo{Kind: LifeNote, PID: c.pid, Err: v, Text: v.Error()}})
	for _, pr := range c.pending {
		pr.ch <- reqOutcome{err: v}
		c.dropLocked(pr)
	}
	go c.Close()
	return v
}
