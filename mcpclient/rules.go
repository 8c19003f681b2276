package mcpclient

import "fmt"

// Rule names the spec rule a problem code breaks, with its section, for --strict messages and
// the wire pane ("" for codes that are informational).
func Rule(code ProblemCode) string {
	switch code {
	case CodeBatch:
		return "MCP 2025-03-26 basic/index: JSON-RPC batches allowed (implementations MUST support receiving them); removed in MCP 2025-06-18 (changelog), never in 2024-11-05"
	case CodeEmptyBatch:
		return "JSON-RPC 2.0 §6: a batch is an array with at least one value"
	case CodeNotificationReply:
		return "JSON-RPC 2.0 §4.1 and MCP basic/index §Notifications: a notification is not answered; the receiver MUST NOT send a response"
	case CodeNonFinite:
		return "RFC 8259 §6 (JSON): numeric values that cannot be represented as digits, such as Infinity and NaN, are not permitted; MCP messages are JSON-RPC 2.0, which is JSON"
	case CodeNotJSON, CodeNotJSONRPC, CodeEmpty, CodePartial, CodeNoNewline:
		return "MCP 2025-11-25 basic/transports §stdio: the server MUST NOT write anything to its stdout that is not a valid MCP message; messages are delimited by newlines"
	case CodeMultiline:
		return "MCP basic/transports §stdio (every revision): messages are delimited by newlines and MUST NOT contain embedded newlines"
	case CodeLSPFraming:
		return "MCP basic/transports §stdio (every revision): messages are newline-delimited JSON, never Content-Length framed"
	case CodeInvalidUTF8, CodeUnpairedSurrogate, CodeBOM:
		return "MCP basic/transports: JSON-RPC messages MUST be UTF-8 encoded"
	case CodeJSONRPCVersion, CodeBadID, CodeNullID, CodeMixed, CodeNoID, CodeResultAndError, CodeBadError, CodeBadMethod:
		return "JSON-RPC 2.0 §4-5 and MCP basic/index §Messages: the envelope's required members and their types"
	case CodeBeforeInitialize:
		return "MCP 2025-11-25 basic/lifecycle: the initialize request MUST be the first interaction"
	case CodeUnknownNotification:
		return "MCP schema: ServerNotification lists the notifications a server may send"
	case CodeUnknownID, CodeDuplicateResponse, CodeAfterTimeout, CodeIDTypeMismatch:
		return "JSON-RPC 2.0 §5: a response answers exactly one request, with that request's id"
	case CodeIDReused:
		return "MCP basic/index: request ids MUST NOT be reused while in flight"
	case CodeUnknownProgressToken, CodeBadProgress:
		return "MCP basic/utilities/progress: progress notifications only reference tokens of active requests"
	case CodeCapabilityNotAdvertised:
		return "MCP 2025-11-25 basic/lifecycle §Capability Negotiation: servers use only capabilities the client declared"
	case CodeModernServerRequest:
		return "MCP 2026-07-28 basic/transports/stdio: the server MUST NOT write JSON-RPC requests"
	case CodeUnknownProtocolVersion, CodeNoProtocolVersion:
		return "MCP 2025-11-25 basic/lifecycle §Version Negotiation: the server answers a version the client supports, or the client SHOULD disconnect"
	case CodeTaskNotDeclared:
		return "io.modelcontextprotocol/tasks (ext-tasks §Capability Negotiation): a server MUST NOT return CreateTaskResult to a client that did not include the extension capability on its request"
	case CodeTaskUnsupportedMethod:
		return "io.modelcontextprotocol/tasks (ext-tasks §Capability Negotiation, §Supported Methods): only tools/call may be answered with a task; a client MUST treat a CreateTaskResult to another request as invalid"
	case CodeOversize:
		return "mcp-inspect --max-message: a frame longer than the configured limit"
	}
	return ""
}

// ViolationError is why a --strict session stopped: the first protocol violation.
type ViolationError struct {
	Seq     uint64
	Problem Problem
}

func (e *ViolationError) Error() string {
	s := fmt.Sprintf("strict mode: stopped at the first protocol violation (event #%d): %s", e.Seq, e.Problem.Text)
	if r := Rule(e.Problem.Code); r != "" {
		s += " — " + r
	}
	return s
}
