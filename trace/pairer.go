package trace

import (
	"encoding/json"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Pairer is the client's own pairing pass (mcpclient.Pairer), used to recompute a trace's
// derived data exactly as it was computed live.
type Pairer = mcpclient.Pairer

// NewPairer returns a Pairer for one recorded session.
func NewPairer() *Pairer { return mcpclient.NewPairer() }

// idKey is mcpclient's id key: ids match by value and JSON type.
func idKey(raw json.RawMessage) string { return mcpclient.IDKey(raw) }
