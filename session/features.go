package session

import (
	"encoding/json"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// ClientFeatures says which client capabilities the session advertises (MCP 2025-11-25
// basic/lifecycle ClientCapabilities) and therefore which server→client requests are put
// to the user. The zero value turns everything on; the No fields turn one off, so a user
// can see how a server reacts to a client without it.
type ClientFeatures struct {
	// NoSampling leaves the sampling capability out; sampling/createMessage is then
	// answered -32601 at once.
	NoSampling bool
	// NoElicitation leaves the elicitation capability out entirely.
	NoElicitation bool
	// NoElicitationURL advertises form-mode elicitation only (URL requests get -32602).
	NoElicitationURL bool
	// NoRoots leaves the roots capability out; roots/list is then answered -32601.
	NoRoots bool
	// FixedRoots advertises roots that never change (roots without listChanged): a
	// headless run's --root.
	FixedRoots bool
	// NoTasks leaves the modern tasks extension (io.modelcontextprotocol/tasks) out of the
	// modern client capabilities; a well-behaved server then never answers with a task.
	NoTasks bool
}

// Capabilities is the ClientCapabilities object these features advertise, for
// mcpclient.Config.Capabilities (sent in initialize, or in every modern request's _meta).
func (f ClientFeatures) Capabilities() json.RawMessage {
	caps := map[string]any{}
	if !f.NoRoots {
		caps["roots"] = map[string]any{"listChanged": !f.FixedRoots}
	}
	if !f.NoSampling {
		caps["sampling"] = map[string]any{}
	}
	if !f.NoElicitation {
		el := map[string]any{"form": map[string]any{}}
		if !f.NoElicitationURL {
			el["url"] = map[string]any{}
		}
		caps["elicitation"] = el
	}
	b, _ := json.Marshal(caps)
	return b
}

// Supports reports whether a server→client request for method (and, for elicitation, the
// mode in params) is covered by the features: nil when it is, else the JSON-RPC error to
// answer at once (-32601 for a method not offered, -32602 for an undeclared elicitation
// mode).
func (f ClientFeatures) Supports(method string, params json.RawMessage) *mcpclient.RPCError {
	notFound := &mcpclient.RPCError{Code: -32601, Message: "Method not found: mcp-inspect does not offer " + method}
	switch method {
	case "sampling/createMessage":
		if f.NoSampling {
			notFound.Message += " (sampling is turned off)"
			return notFound
		}
	case "roots/list":
		if f.NoRoots {
			notFound.Message += " (roots are turned off)"
			return notFound
		}
	case "elicitation/create":
		if f.NoElicitation {
			notFound.Message += " (elicitation is turned off)"
			return notFound
		}
		if ElicitMode(params) == "url" && f.NoElicitationURL {
			return &mcpclient.RPCError{Code: -32602, Message: "elicitation mode \"url\" was not declared by the client"}
		}
	default:
		return notFound
	}
	return nil
}

// ElicitMode is an elicitation request's mode: "form" (the default when absent) or "url".
func ElicitMode(params json.RawMessage) string {
	var p struct {
		Mode string `json:"mode"`
	}
	_ = json.Unmarshal(params, &p)
	if p.Mode == "" {
		return "form"
	}
	return p.Mode
}

// Configure prepares cfg before mcpclient.Start for a client whose server requests a
// person answers: the client capabilities from the features, the tasks extension switch,
// and OnServerRequest delivering every server→client request (legacy requests and modern
// input requests) to q.
func (f ClientFeatures) Configure(cfg *mcpclient.Config, q *RequestQueue) {
	cfg.Capabilities = f.Capabilities()
	cfg.NoTasksExtension = f.NoTasks
	cfg.OnServerRequest = q.Handle
}
