package ui

import (
	"encoding/json"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// protocolLines are the Server tab's protocol lines: the negotiated version beside the
// requested one, drawn as a warning only when the version is missing or unknown (or a
// handshake warning is about it); a known older revision is normal negotiation, and
// its note is shown muted below (MCP basic/lifecycle §Version Negotiation).
func (m *model) protocolLines(w int) []string {
	st := m.c.st
	s := m.state()
	in := s.Init
	v := clean(in.ProtocolVersion)
	if in.ProtocolVersion == "" {
		v = "(none answered)"
	}
	line := "  protocol: " + v
	if in.Requested != "" {
		line += " negotiated · " + clean(in.Requested) + " requested"
	}
	var out []string
	if s.ProtocolWarning() {
		out = wrapStyled(st.Warning, line+" ⚠ (see warnings below)", w)
	} else {
		out = wrap(line, w)
	}
	for _, n := range in.Notes {
		out = append(out, wrapStyled(st.Muted, "            "+clean(n), w)...)
	}
	if !mcpclient.HasOutputSchema(in.ProtocolVersion) && in.ProtocolVersion != "" {
		out = append(out, wrapStyled(st.Muted, "            (no outputSchema/structuredContent before 2025-06-18: not checked)", w)...)
	}
	return out
}

// checkedOutputSchema is the outputSchema a call's result is checked against: none when
// the negotiated revision predates outputSchema and structuredContent (before MCP
// 2025-06-18), so an older server gets no advisory on every call.
func (m *model) checkedOutputSchema(schema json.RawMessage) json.RawMessage {
	if in := m.state().Init; in != nil && in.ProtocolVersion != "" && !mcpclient.HasOutputSchema(in.ProtocolVersion) {
		return nil
	}
	return schema
}
