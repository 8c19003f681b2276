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
	// Eras is the protocol revisions the rule judges: ErasAll, ErasLegacy, ErasModern or
	// ErasPing (eras.go); outside them the rule is not applicable.
	Eras string `json:"eras"`
}

// Rules are the battery, in report order (docs/check.md is the same table in words).
func Rules() []Rule {
	var all []Rule
	for _, group := range [][]Rule{lifecycleRules(), hygieneRules(), listingRules(), readRules(), robustnessRules(), httpTransportRules(), callRules()} {
		all = append(all, group...)
	}
	return all
}

// lifecycleRules are the lifecycle group's rules.
func lifecycleRules() []Rule {
	return []Rule{
		{ID: "init-responds", Group: GroupLifecycle, Level: Must, Eras: ErasAll,
			Title:  "initialize is answered with a result within --timeout",
			Source: "MCP 2025-11-25 basic/lifecycle §Initialization"},
		{ID: "init-result", Group: GroupLifecycle, Level: Must, Eras: ErasLegacy,
			Title:  "the initialize result carries protocolVersion, a capabilities object and serverInfo {name, version}",
			Source: "MCP 2025-11-25 schema.ts InitializeResult, Implementation"},
		{ID: "version-latest", Group: GroupLifecycle, Level: Must, Eras: ErasLegacy,
			Title:  "asked for the newest revision, the server echoes it or answers another revision it supports",
			Source: "MCP 2025-11-25 basic/lifecycle §Version Negotiation"},
		{ID: "version-future", Group: GroupLifecycle, Level: Must, Eras: ErasAll,
			Title:  "asked for an unknown future revision, the server answers a revision it supports (not the one asked, not an error); in 2026-07-28 it refuses with -32022 (HTTP 400), its data listing the versions it supports and echoing the one asked",
			Source: "MCP 2025-11-25 basic/lifecycle §Version Negotiation; MCP 2026-07-28 basic/versioning (UnsupportedProtocolVersionError)"},
		{ID: "version-oldest", Group: GroupLifecycle, Level: Must, Eras: ErasLegacy,
			Title:  "asked for the oldest revision (2024-11-05), the server echoes it or answers another revision it supports",
			Source: "MCP 2025-11-25 basic/lifecycle §Version Negotiation"},
		{ID: "init-order", Group: GroupLifecycle, Level: Should, Eras: ErasLegacy,
			Title:  "before initialized the server sends nothing but ping requests and logging notifications",
			Source: "MCP 2025-11-25 basic/lifecycle §Initialization"},
		{ID: "discover", Group: GroupLifecycle, Level: Must, Eras: ErasModern,
			Title:  "where server/discover is offered, its result is a DiscoverResult (supportedVersions, capabilities)",
			Source: "MCP 2026-07-28 server/discover"},
		{ID: "shutdown", Group: GroupLifecycle, Level: Should, Eras: ErasAll,
			Title:  "the server exits within a few seconds of its stdin closing",
			Source: "MCP 2025-11-25 basic/lifecycle §Shutdown (stdio)", StdioOnly: true},
	}
}

// hygieneRules are the hygiene group's rules.
func hygieneRules() []Rule {
	return []Rule{
		{ID: "stdout-jsonrpc", Group: GroupHygiene, Level: Must, Eras: ErasAll,
			Title:  "every stdout line is one JSON-RPC message: no logging, no empty lines, no framing headers, no pretty-printing",
			Source: "MCP 2025-11-25 basic/transports §stdio", StdioOnly: true},
		{ID: "stdout-utf8", Group: GroupHygiene, Level: Must, Eras: ErasAll,
			Title:  "stdout is UTF-8 without a byte order mark",
			Source: "MCP 2025-11-25 basic/transports", StdioOnly: true},
		{ID: "stdout-crlf", Group: GroupHygiene, Level: Should, Eras: ErasAll,
			Title:  "lines end in \\n, not \\r\\n",
			Source: "MCP 2025-11-25 basic/transports §stdio (newline-delimited)", StdioOnly: true},
		{ID: "envelope", Group: GroupHygiene, Level: Must, Eras: ErasAll,
			Title:  "every message is a well-formed JSON-RPC 2.0 envelope, and every response answers one request with its id",
			Source: "JSON-RPC 2.0 §4-5; MCP 2025-11-25 basic/index §Messages"},
		{ID: "wire-other", Group: GroupHygiene, Level: Must, Eras: ErasAll,
			Title:  "no other rule the client checks on each message is broken: batches only in 2025-03-26, no request id reused, no server request in the modern era, task results only when asked (MUST); only the notifications servers may send, progress only for live tokens, server requests only for declared client capabilities (SHOULD)",
			Source: "MCP 2025-11-25 basic/index, basic/utilities/progress, basic/lifecycle §Capability Negotiation; 2026-07-28 basic/transports/stdio; io.modelcontextprotocol/tasks"},
	}
}

// listingRules are the listings group's rules.
func listingRules() []Rule {
	return []Rule{
		{ID: "undeclared-capability", Group: GroupListings, Level: Should, Eras: ErasAll,
			Title:  "a list method of a capability the server did not declare gets -32601",
			Source: "MCP 2025-11-25 basic/lifecycle §Capability Negotiation; error codes"},
		{ID: "list-pages", Group: GroupListings, Level: Must, Eras: ErasAll,
			Title:  "every page is followed to the end: cursors advance, no page repeats an item, nextCursor is absent on the last page",
			Source: "MCP 2025-11-25 server/utilities/pagination"},
		{ID: "list-items", Group: GroupListings, Level: Must, Eras: ErasAll,
			Title:  "every listed item has its required members, with their types, and no two share a name or uri",
			Source: "MCP 2025-11-25 schema.ts Tool, Resource, ResourceTemplate, Prompt"},
		{ID: "cache-hints", Group: GroupListings, Level: Must, Eras: ErasModern,
			Title:  "server/discover, list and resources/read results carry ttlMs (a non-negative integer) and cacheScope (\"public\" or \"private\")",
			Source: "MCP 2026-07-28 server/utilities/caching; schema.ts CacheableResult"},
		{ID: "tool-names", Group: GroupListings, Level: Should, Eras: ErasAll,
			Title:  "tool names are 1-128 characters of A-Z a-z 0-9 _ - .",
			Source: "MCP 2025-11-25 server/tools §Tool Names"},
		{ID: "tool-schemas", Group: GroupListings, Level: Must, Eras: ErasAll,
			Title:  "every inputSchema and outputSchema is a JSON Schema of type object that compiles",
			Source: "MCP 2025-11-25 server/tools §Tool; schema.ts Tool.inputSchema/outputSchema"},
		{ID: "uri-templates", Group: GroupListings, Level: Must, Eras: ErasAll,
			Title:  "every resource template's uriTemplate is a valid RFC 6570 URI template",
			Source: "MCP 2025-11-25 server/resources §Resource Templates; RFC 6570"},
		{ID: "annotations", Group: GroupListings, Level: Must, Eras: ErasAll,
			Title:  "annotations are well typed (tool hints booleans, title a string; audience user/assistant, priority 0-1)",
			Source: "MCP 2025-11-25 schema.ts ToolAnnotations, Annotations"},
		{ID: "steering", Group: GroupListings, Level: Should, Eras: ErasAll,
			Title:  "descriptions and instructions read as descriptions, not as orders to the model (advisory lint)",
			Source: "MCP 2025-11-25 server/tools §Security Considerations"},
	}
}

// readRules are the reads group's rules.
func readRules() []Rule {
	return []Rule{
		{ID: "resources-read", Group: GroupReads, Level: Must, Eras: ErasAll,
			Title:  "each listed resource (up to --max-reads) reads back as contents with uri and text or blob (an error response is a warning)",
			Source: "MCP 2025-11-25 server/resources §Reading Resources"},
		{ID: "resource-not-found", Group: GroupReads, Level: Should, Eras: ErasAll,
			Title:  "resources/read of a URI that does not exist gets an error, not an empty contents array: -32002 up to 2025-11-25 (-32602 taken), -32602 with the uri in its data in 2026-07-28",
			Source: "MCP 2025-11-25 server/resources §Error Handling; MCP 2026-07-28 server/resources §Error Handling"},
		{ID: "prompts-get", Group: GroupReads, Level: Must, Eras: ErasAll,
			Title:  "each prompt with no required argument gets messages with role and content (an error response is a warning)",
			Source: "MCP 2025-11-25 server/prompts §Getting a Prompt"},
		{ID: "completion", Group: GroupReads, Level: Must, Eras: ErasAll,
			Title:  "where completions are declared, completion/complete answers values (at most 100)",
			Source: "MCP 2025-11-25 server/utilities/completion"},
		{ID: "logging", Group: GroupReads, Level: Must, Eras: ErasLegacy,
			Title:  "where logging is declared, logging/setLevel answers an empty result",
			Source: "MCP 2025-11-25 server/utilities/logging"},
		{ID: "ping", Group: GroupReads, Level: Must, Eras: ErasPing,
			Title:  "ping is answered with an empty result {}; in the 2026-07-28 era, which removed it, it is refused with -32601 (over HTTP, with 404 Not Found)",
			Source: "MCP 2025-11-25 basic/utilities/ping; MCP 2026-07-28 changelog (ping removed)"},
	}
}

// robustnessRules are the robustness group's rules.
func robustnessRules() []Rule {
	return []Rule{
		{ID: "unknown-method", Group: GroupRobustness, Level: Must, Eras: ErasAll,
			Title:  "an unknown method gets an error response, -32601 (over HTTP in 2026-07-28, with 404 Not Found)",
			Source: "JSON-RPC 2.0 §5.1; MCP 2025-11-25 basic/index; MCP 2026-07-28 basic/transports/streamable-http §Error Statuses"},
		{ID: "unknown-tool", Group: GroupRobustness, Level: Should, Eras: ErasAll,
			Title:  "tools/call of an unknown tool gets -32602",
			Source: "MCP 2025-11-25 server/tools §Error Handling"},
		{ID: "parse-error", Group: GroupRobustness, Level: Must, Eras: ErasAll,
			Title:  "a line that is not JSON gets -32700 with id null (SHOULD), and the server lives on (MUST)",
			Source: "JSON-RPC 2.0 §5.1; MCP 2025-11-25 basic/transports §stdio", StdioOnly: true},
		{ID: "string-id", Group: GroupRobustness, Level: Must, Eras: ErasAll,
			Title:  "a request with a string id is answered with that string id",
			Source: "JSON-RPC 2.0 §5; MCP 2025-11-25 basic/index §Requests"},
		{ID: "id-zero", Group: GroupRobustness, Level: Must, Eras: ErasAll,
			Title:  "a request with id 0 is answered with id 0, a number",
			Source: "JSON-RPC 2.0 §5; MCP 2025-11-25 basic/index §Requests"},
		{ID: "notification", Group: GroupRobustness, Level: Must, Eras: ErasAll,
			Title:  "a notification (an unknown one) gets no response",
			Source: "JSON-RPC 2.0 §4.1; MCP 2025-11-25 basic/index §Notifications"},
		{ID: "cancel-unknown", Group: GroupRobustness, Level: Must, Eras: ErasAll,
			Title:  "notifications/cancelled for an id never sent is ignored: no response, the server lives on",
			Source: "MCP 2025-11-25 basic/utilities/cancellation"},
		{ID: "meta-required", Group: GroupRobustness, Level: Must, Eras: ErasModern,
			Title:  "a request without _meta, or whose _meta lacks protocolVersion or clientCapabilities, is refused with -32602 (HTTP 400); one that lacks only clientInfo is served",
			Source: "MCP 2026-07-28 basic/index §Request Metadata; basic/transports/streamable-http §Error Statuses"},
		{ID: "final-ping", Group: GroupRobustness, Level: Must, Eras: ErasAll,
			Title:  "after everything, the server still answers ping (server/discover in the 2026-07-28 era)",
			Source: "MCP 2025-11-25 basic/utilities/ping; MCP 2026-07-28 server/discover"},
	}
}

// httpTransportRules are the http group's rules.
func httpTransportRules() []Rule {
	return []Rule{
		{ID: "http-origin", Group: GroupHTTP, Level: Must, Eras: ErasAll,
			Title:  "a POST (initialize; server/discover in 2026-07-28) with an invalid Origin header (Origin: http://evil.example) is refused with 403 Forbidden",
			Source: "MCP 2025-11-25 basic/transports §Streamable HTTP, Security Warning 1", RemoteOnly: true},
		{ID: "http-host", Group: GroupHTTP, Level: Should, Eras: ErasAll,
			Title:  "a server on a loopback address refuses a POST (initialize; server/discover in 2026-07-28) whose Host header names another host (Host: evil.example): DNS rebinding protection",
			Source: "MCP 2025-11-25 basic/transports §Streamable HTTP, Security Warning (DNS rebinding; the spec names Origin, not Host: SHOULD)", RemoteOnly: true},
		{ID: "http-session-unknown", Group: GroupHTTP, Level: Must, Eras: ErasLegacy,
			Title:  "a request carrying an Mcp-Session-Id the server never issued gets 404 Not Found (stateful servers)",
			Source: "MCP 2025-11-25 basic/transports §Session Management 3", RemoteOnly: true},
		{ID: "http-session-id", Group: GroupHTTP, Level: Must, Eras: ErasLegacy,
			Title:  "the Mcp-Session-Id a server issues is visible ASCII (0x21 to 0x7E)",
			Source: "MCP 2025-11-25 basic/transports §Session Management 1", RemoteOnly: true},
		{ID: "http-notification-202", Group: GroupHTTP, Level: Must, Eras: ErasAll,
			Title:  "a POSTed notification or response the server accepts gets 202 Accepted with no body",
			Source: "MCP 2025-11-25 basic/transports §Sending Messages to the Server 4", RemoteOnly: true},
		{ID: "http-get-405", Group: GroupHTTP, Level: Must, Eras: ErasAll,
			Title:  "a GET to the endpoint opens an SSE stream (text/event-stream) or gets 405 Method Not Allowed, with an Allow header (SHOULD)",
			Source: "MCP 2025-11-25 basic/transports §Listening for Messages from the Server 3; RFC 9110 §15.5.6", RemoteOnly: true},
		{ID: "http-protocol-version", Group: GroupHTTP, Level: Must, Eras: ErasAll,
			Title:  "a request with an invalid or unsupported MCP-Protocol-Version gets 400 Bad Request (2026-07-28: with -32022)",
			Source: "MCP 2025-11-25 basic/transports §Protocol Version Header; MCP 2026-07-28 basic/transports/streamable-http §Error Statuses", RemoteOnly: true},
		{ID: "http-headers", Group: GroupHTTP, Level: Must, Eras: ErasModern,
			Title:  "a request whose Mcp-Method is missing or is not the body's method, whose Mcp-Name is missing or is not the tool's name, or whose MCP-Protocol-Version is not its _meta's gets 400 Bad Request with -32020 (HeaderMismatch)",
			Source: "MCP 2026-07-28 basic/transports/streamable-http §Standard Headers", RemoteOnly: true},
	}
}

// callRules are the calls group's rules.
func callRules() []Rule {
	return []Rule{
		{ID: "tool-call", Group: GroupCalls, Level: Must, Eras: ErasAll,
			Title:  "a tool called with --call or --call-read-only answers a CallToolResult: typed content, structuredContent matching its outputSchema",
			Source: "MCP 2025-11-25 server/tools §Tool Result"},
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
