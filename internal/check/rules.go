// Package check runs mcp-inspect check's fixed battery of protocol rules against one MCP
// server and reports by rule: lifecycle, stdout hygiene, listings, reads that change
// nothing, robustness, and tool calls only when asked. Every rule has a stable id, a level
// (MUST or SHOULD) and the spec section it comes from; docs/check.md lists them.
package check

import (
	"slices"

	"github.com/mcp-inspect/mcp-inspect/internal/findings"
)

// Level is how strongly the spec states a rule: a broken MUST fails the check (exit 1), a
// broken SHOULD is a warning. It is findings.Level, so a finding of internal/findings
// keeps its level in a check report.
type Level = findings.Level

const (
	// Must: the spec (or JSON-RPC 2.0, or the schema) says MUST; breaking it fails the run.
	Must = findings.Must
	// Should: the spec says SHOULD (or the rule is advisory); breaking it is a warning.
	Should = findings.Should
)

// Group is the part of the battery a rule belongs to, in report order.
type Group string

// The groups, in the order they run.
const (
	GroupLifecycle  Group = "lifecycle"
	GroupHygiene    Group = "hygiene"
	GroupListings   Group = "listings"
	GroupReads      Group = "reads"
	GroupRobustness Group = "robustness"
	GroupHTTP       Group = "http"
	GroupCalls      Group = "calls"
)

// Rule is one documented check.
type Rule struct {
	// ID is the stable name --skip takes and the report prints ("version-future").
	ID    string `json:"id"`
	Group Group  `json:"group"`
	// Level is the strongest level a finding of the rule has; a MUST rule may report a
	// SHOULD-level warning for a lesser deviation (an error code other than the one named).
	Level Level `json:"level"`
	// Title says what the rule holds, in one line.
	Title string `json:"title"`
	// Source is the spec section: "MCP 2025-11-25 basic/lifecycle §Version Negotiation".
	Source string `json:"source"`
	// StdioOnly rules do not apply to a remote server.
	StdioOnly bool `json:"stdioOnly,omitempty"`
	// RemoteOnly rules apply to a Streamable HTTP server only (not to stdio, nor to the
	// deprecated HTTP+SSE transport).
	RemoteOnly bool `json:"remoteOnly,omitempty"`
}

// Rules are the battery, in report order (docs/check.md is the same table in words).
func Rules() []Rule {
	return []Rule{
		{"init-responds", GroupLifecycle, Must, "initialize is answered with a result within --timeout", "MCP 2025-11-25 basic/lifecycle §Initialization", false, false},
		{"init-result", GroupLifecycle, Must, "the initialize result carries protocolVersion, a capabilities object and serverInfo {name, version}", "MCP 2025-11-25 schema.ts InitializeResult, Implementation", false, false},
		{"version-latest", GroupLifecycle, Must, "asked for the newest revision, the server echoes it or answers another revision it supports", "MCP 2025-11-25 basic/lifecycle §Version Negotiation", false, false},
		{"version-future", GroupLifecycle, Must, "asked for an unknown future revision, the server answers a revision it supports (not the one asked, not an error)", "MCP 2025-11-25 basic/lifecycle §Version Negotiation", false, false},
		{"version-oldest", GroupLifecycle, Must, "asked for the oldest revision (2024-11-05), the server echoes it or answers another revision it supports", "MCP 2025-11-25 basic/lifecycle §Version Negotiation", false, false},
		{"init-order", GroupLifecycle, Should, "before initialized the server sends nothing but ping requests and logging notifications", "MCP 2025-11-25 basic/lifecycle §Initialization", false, false},
		{"discover", GroupLifecycle, Must, "where server/discover is offered, its result is a DiscoverResult (supportedVersions, capabilities)", "MCP 2026-07-28 server/discover", false, false},
		{"shutdown", GroupLifecycle, Should, "the server exits within a few seconds of its stdin closing", "MCP 2025-11-25 basic/lifecycle §Shutdown (stdio)", true, false},
		{"stdout-jsonrpc", GroupHygiene, Must, "every stdout line is one JSON-RPC message: no logging, no empty lines, no framing headers, no pretty-printing", "MCP 2025-11-25 basic/transports §stdio", true, false},
		{"stdout-utf8", GroupHygiene, Must, "stdout is UTF-8 without a byte order mark", "MCP 2025-11-25 basic/transports", true, false},
		{"stdout-crlf", GroupHygiene, Should, "lines end in \\n, not \\r\\n", "MCP 2025-11-25 basic/transports §stdio (newline-delimited)", true, false},
		{"envelope", GroupHygiene, Must, "every message is a well-formed JSON-RPC 2.0 envelope, and every response answers one request with its id", "JSON-RPC 2.0 §4-5; MCP 2025-11-25 basic/index §Messages", false, false},
		{"wire-other", GroupHygiene, Must, "no other rule the client checks on each message is broken: batches only in 2025-03-26, no request id reused, no server request in the modern era, task results only when asked (MUST); only the notifications servers may send, progress only for live tokens, server requests only for declared client capabilities (SHOULD)", "MCP 2025-11-25 basic/index, basic/utilities/progress, basic/lifecycle §Capability Negotiation; 2026-07-28 basic/transports/stdio; io.modelcontextprotocol/tasks", false, false},
		{"undeclared-capability", GroupListings, Should, "a list method of a capability the server did not declare gets -32601", "MCP 2025-11-25 basic/lifecycle §Capability Negotiation; error codes", false, false},
		{"list-pages", GroupListings, Must, "every page is followed to the end: cursors advance, no page repeats an item, nextCursor is absent on the last page", "MCP 2025-11-25 server/utilities/pagination", false, false},
		{"list-items", GroupListings, Must, "every listed item has its required members, with their types, and no two share a name or uri", "MCP 2025-11-25 schema.ts Tool, Resource, ResourceTemplate, Prompt", false, false},
		{"tool-names", GroupListings, Should, "tool names are 1-128 characters of A-Z a-z 0-9 _ - .", "MCP 2025-11-25 server/tools §Tool Names", false, false},
		{"tool-schemas", GroupListings, Must, "every inputSchema and outputSchema is a JSON Schema of type object that compiles", "MCP 2025-11-25 server/tools §Tool; schema.ts Tool.inputSchema/outputSchema", false, false},
		{"uri-templates", GroupListings, Must, "every resource template's uriTemplate is a valid RFC 6570 URI template", "MCP 2025-11-25 server/resources §Resource Templates; RFC 6570", false, false},
		{"annotations", GroupListings, Must, "annotations are well typed (tool hints booleans, title a string; audience user/assistant, priority 0-1)", "MCP 2025-11-25 schema.ts ToolAnnotations, Annotations", false, false},
		{"steering", GroupListings, Should, "descriptions and instructions read as descriptions, not as orders to the model (advisory lint)", "MCP 2025-11-25 server/tools §Security Considerations", false, false},
		{"resources-read", GroupReads, Must, "each listed resource (up to --max-reads) reads back as contents with uri and text or blob (an error response is a warning)", "MCP 2025-11-25 server/resources §Reading Resources", false, false},
		{"prompts-get", GroupReads, Must, "each prompt with no required argument gets messages with role and content (an error response is a warning)", "MCP 2025-11-25 server/prompts §Getting a Prompt", false, false},
		{"completion", GroupReads, Must, "where completions are declared, completion/complete answers values (at most 100)", "MCP 2025-11-25 server/utilities/completion", false, false},
		{"logging", GroupReads, Must, "where logging is declared, logging/setLevel answers an empty result", "MCP 2025-11-25 server/utilities/logging", false, false},
		{"ping", GroupReads, Must, "ping is answered with an empty result {}; in the 2026-07-28 era, which removed it, it is refused with -32601", "MCP 2025-11-25 basic/utilities/ping; MCP 2026-07-28 changelog (ping removed)", false, false},
		{"unknown-method", GroupRobustness, Must, "an unknown method gets an error response, -32601", "JSON-RPC 2.0 §5.1; MCP 2025-11-25 basic/index", false, false},
		{"unknown-tool", GroupRobustness, Should, "tools/call of an unknown tool gets -32602", "MCP 2025-11-25 server/tools §Error Handling", false, false},
		{"parse-error", GroupRobustness, Must, "a line that is not JSON gets -32700 with id null (SHOULD), and the server lives on (MUST)", "JSON-RPC 2.0 §5.1; MCP 2025-11-25 basic/transports §stdio", true, false},
		{"string-id", GroupRobustness, Must, "a request with a string id is answered with that string id", "JSON-RPC 2.0 §5; MCP 2025-11-25 basic/index §Requests", false, false},
		{"id-zero", GroupRobustness, Must, "a request with id 0 is answered with id 0, a number", "JSON-RPC 2.0 §5; MCP 2025-11-25 basic/index §Requests", false, false},
		{"notification", GroupRobustness, Must, "a notification (an unknown one) gets no response", "JSON-RPC 2.0 §4.1; MCP 2025-11-25 basic/index §Notifications", false, false},
		{"cancel-unknown", GroupRobustness, Must, "notifications/cancelled for an id never sent is ignored: no response, the server lives on", "MCP 2025-11-25 basic/utilities/cancellation", false, false},
		{"final-ping", GroupRobustness, Must, "after everything, the server still answers ping (server/discover in the 2026-07-28 era)", "MCP 2025-11-25 basic/utilities/ping; MCP 2026-07-28 server/discover", false, false},
		{"http-origin", GroupHTTP, Must, "a POST (initialize) with an invalid Origin header (Origin: http://evil.example) is refused with 403 Forbidden", "MCP 2025-11-25 basic/transports §Streamable HTTP, Security Warning 1", false, true},
		{"http-host", GroupHTTP, Should, "a server on a loopback address refuses a POST (initialize) whose Host header names another host (Host: evil.example): DNS rebinding protection", "MCP 2025-11-25 basic/transports §Streamable HTTP, Security Warning (DNS rebinding; the spec names Origin, not Host: SHOULD)", false, true},
		{"http-session-unknown", GroupHTTP, Must, "a request carrying an Mcp-Session-Id the server never issued gets 404 Not Found (stateful servers)", "MCP 2025-11-25 basic/transports §Session Management 3", false, true},
		{"http-notification-202", GroupHTTP, Must, "a POSTed notification the server accepts gets 202 Accepted with no body", "MCP 2025-11-25 basic/transports §Sending Messages to the Server 4", false, true},
		{"http-get-405", GroupHTTP, Must, "a GET to the endpoint opens an SSE stream (text/event-stream) or gets 405 Method Not Allowed, with an Allow header (SHOULD)", "MCP 2025-11-25 basic/transports §Listening for Messages from the Server 3; RFC 9110 §15.5.6", false, true},
		{"tool-call", GroupCalls, Must, "a tool called with --call or --call-read-only answers a CallToolResult: typed content, structuredContent matching its outputSchema", "MCP 2025-11-25 server/tools §Tool Result", false, false},
	}
}

// RuleIDs are the ids of Rules, in order.
func RuleIDs() []string {
	var ids []string
	for _, r := range Rules() {
		ids = append(ids, r.ID)
	}
	return ids
}

// KnownRule reports whether id names a rule.
func KnownRule(id string) bool {
	return slices.Contains(RuleIDs(), id)
}
