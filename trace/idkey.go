package trace

import (
	"encoding/json"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// idKey is mcpclient's id key: ids match by value and JSON type.
func idKey(raw json.RawMessage) string { return mcpclient.IDKey(raw) }
