package ui

import (
	"encoding/json"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// ClientFeatures says which client capabilities the session advertises (MCP 2025-11-25
// basic/lifecycle ClientCapabilities) and therefore which server→client requests the UI
// answers with a dialog. The zero value turns everything on; the No fields turn one off, so a
// user can see how a server reacts to a client without it.
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
	// NoTasks leaves the modern tasks extension (io.modelcontextprotocol/tasks) out of the
	// modern client capabilities; a well-behaved server then never answers with a task.
	NoTasks bool
}

// Capabilities is the ClientCapabilities object these features advertise, for
// mcpclient.Config.Capabilities (sent in initialize, or in every modern request's _meta).
func (f ClientFeatures) Capabilities() json.RawMessage {
	caps := map[string]any{}
	if !f.NoRoots {
		caps["roots"] = map[string]any{"listChanged": true}
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

// supports reports whether a server→client request for method (and elicitation mode) is
// covered by the features, and the JSON-RPC error to answer when it is not.
func (f ClientFeatures) supports(method string, params json.RawMessage) *mcpclient.RPCError {
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
		if elicitMode(params) == "url" && f.NoElicitationURL {
			return &mcpclient.RPCError{Code: -32602, Message: "elicitation mode \"url\" was not declared by the client"}
		}
	default:
		return notFound
	}
	return nil
}

// elicitMode is an elicitation request's mode: "form" (the default when absent) or "url".
func elicitMode(params json.RawMessage) string {
	var p struct {
		Mode string `json:"mode"`
	}
	_ = json.Unmarshal(params, &p)
	if p.Mode == "" {
		return "form"
	}
	return p.Mode
}

// ConfigureClient prepares cfg for this UI before mcpclient.Start: the client capabilities
// from the features, and OnServerRequest delivering every server→client request (legacy
// requests and modern input requests) to the UI's queue, which it creates when unset. It
// takes Options.Era from cfg when unset.
func (o *Options) ConfigureClient(cfg *mcpclient.Config) {
	if o.Requests == nil {
		o.Requests = NewRequestQueue()
	}
	if o.Era == "" {
		o.Era = cfg.Era
	}
	cfg.Capabilities = o.Features.Capabilities()
	cfg.NoTasksExtension = o.Features.NoTasks
	cfg.OnServerRequest = o.Requests.Handle
}

// inbound is one thing the server asks of the user: a legacy server→client request or one
// entry of a modern input_required result.
type inbound struct {
	method string
	params json.RawMessage
	// id is the legacy request's JSON id (nil for a modern input request).
	id json.RawMessage
	// key names a modern input request inside inputRequests.
	key string
	// seq is the event that carried it: the request (legacy) or the input_required
	// response (modern).
	seq     uint64
	arrived time.Time
	// respond answers it exactly once: a result, or an error.
	respond func(result json.RawMessage, e *mcpclient.RPCError) error
}

// modern reports whether the request came inside an input_required result.
func (r *inbound) modern() bool { return r.key != "" }

// RequestQueue carries server→client requests from mcpclient (Config.OnServerRequest,
// called on the client's goroutines) to the UI. Handle never blocks: the queue grows as
// needed, so a server that asks a lot never stalls the client.
type RequestQueue struct {
	mu     sync.Mutex
	items  []*inbound
	signal chan struct{}
	now    func() time.Time
}

// NewRequestQueue makes an empty queue.
func NewRequestQueue() *RequestQueue {
	return &RequestQueue{signal: make(chan struct{}, 1), now: time.Now}
}

// Handle queues r for the UI; it is the Config.OnServerRequest of a client run by this UI.
func (q *RequestQueue) Handle(r *mcpclient.ServerRequest) {
	in := &inbound{method: r.Method, params: r.Params, key: r.InputKey, seq: r.Seq, arrived: q.now(),
		respond: func(result json.RawMessage, e *mcpclient.RPCError) error {
			if e != nil {
				return r.Fail(e)
			}
			return r.Respond(result)
		}}
	if r.Msg != nil {
		in.id = r.Msg.ID
	}
	q.push(in)
}

func (q *RequestQueue) push(in *inbound) {
	q.mu.Lock()
	q.items = append(q.items, in)
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
}

// serverRequestsMsg delivers the requests queued since the last one, in arrival order.
type serverRequestsMsg struct{ reqs []*inbound }

// wait blocks until requests are queued and takes them all. Update re-issues it after each
// serverRequestsMsg: one ordered path, like the event pump.
func (q *RequestQueue) wait() tea.Cmd {
	if q == nil {
		return nil
	}
	return func() tea.Msg {
		for {
			q.mu.Lock()
			if len(q.items) > 0 {
				items := q.items
				q.items = nil
				q.mu.Unlock()
				return serverRequestsMsg{reqs: items}
			}
			q.mu.Unlock()
			<-q.signal
		}
	}
}

// answeredMsg reports how answering a server request went.
type answeredMsg struct {
	method string
	what   string
	err    error
}

// answer sends a reply to a server request (I/O, so in a Cmd).
func answer(r *inbound, result json.RawMessage, e *mcpclient.RPCError, what string) tea.Cmd {
	return func() tea.Msg {
		err := r.respond(result, e)
		return answeredMsg{method: r.method, what: what, err: err}
	}
}
