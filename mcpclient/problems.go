package mcpclient

// ProblemCode is the stable short identifier of a Problem ("not-json", "unknown-id", …). Codes
// are written to traces, shown in the wire pane, counted by stats and matched by filters and
// tests, so a code's value never changes once released; Rule gives the spec rule behind it.
type ProblemCode string

// Framing and encoding problems, found by Classify on a frame's bytes.
const (
	// CodeCRLF (Info): the line ends with "\r\n" instead of "\n".
	CodeCRLF ProblemCode = "crlf"
	// CodeNoNewline (Warning): the frame has no terminating newline.
	CodeNoNewline ProblemCode = "no-newline"
	// CodeBOM (Warning): the frame starts with a UTF-8 byte order mark.
	CodeBOM ProblemCode = "bom"
	// CodeEmpty (Warning): an empty line, which is not a JSON-RPC message.
	CodeEmpty ProblemCode = "empty"
	// CodeInvalidUTF8 (Warning): the frame holds bytes that are not UTF-8.
	CodeInvalidUTF8 ProblemCode = "invalid-utf8"
	// CodeUnpairedSurrogate (Warning): a \uD800-\uDFFF escape without its pair.
	CodeUnpairedSurrogate ProblemCode = "unpaired-surrogate"
	// CodeLSPFraming (Warning): a Content-Length header, LSP style, instead of a JSON line.
	CodeLSPFraming ProblemCode = "lsp-framing"
	// CodeMultiline (Warning): one JSON message pretty-printed over several lines, which the
	// framer reassembled into one frame; MCP stdio messages contain no newline.
	CodeMultiline ProblemCode = "multiline-message"
	// CodeNotJSON (Warning): the line is not JSON (typically a log line on stdout); Info on
	// a frame the client sent (SentProblems).
	CodeNotJSON ProblemCode = "not-json"
	// CodeNotificationReply (Warning): a response or error answering a notification
	// (replies.go).
	CodeNotificationReply ProblemCode = "notification-reply"
	// CodeNonFinite (Warning): the message holds NaN, Infinity or -Infinity, which JSON does
	// not have; it was read with null in their place (nonfinite.go).
	CodeNonFinite ProblemCode = "non-finite-number"
	// CodeNotJSONRPC (Warning): JSON, but not a JSON-RPC message.
	CodeNotJSONRPC ProblemCode = "not-jsonrpc"
	// CodePartial (Warning): the stream ended before the frame's newline.
	CodePartial ProblemCode = "partial"
	// CodeOversize (Warning): the frame is longer than the --max-message limit; it was cut.
	CodeOversize ProblemCode = "oversize"
)

// Envelope problems: a JSON-RPC message whose members are missing or of the wrong type.
const (
	// CodeJSONRPCVersion (Warning): "jsonrpc" is not exactly "2.0".
	CodeJSONRPCVersion ProblemCode = "jsonrpc-version"
	// CodeBadID (Warning): the id is neither a string nor an integer.
	CodeBadID ProblemCode = "bad-id"
	// CodeNullID (Warning): a request with a null id.
	CodeNullID ProblemCode = "null-id"
	// CodeBadMethod (Warning): the method is not a string.
	CodeBadMethod ProblemCode = "bad-method"
	// CodeMixed (Warning): a message with a method that also carries result or error.
	CodeMixed ProblemCode = "mixed"
	// CodeNoID (Warning): a response without an id.
	CodeNoID ProblemCode = "no-id"
	// CodeResultAndError (Warning): a response with both result and error.
	CodeResultAndError ProblemCode = "result-and-error"
	// CodeBadError (Warning): an error member that is not an object with code and message.
	CodeBadError ProblemCode = "bad-error"
)

// Batch problems (JSON-RPC 2.0 §6; MCP allowed batches only in 2025-03-26).
const (
	// CodeBatch (Info in 2025-03-26, Warning otherwise): a JSON-RPC batch (array) frame.
	CodeBatch ProblemCode = "batch"
	// CodeEmptyBatch (Warning): an empty array.
	CodeEmptyBatch ProblemCode = "empty-batch"
	// CodeBatchedRequest (Info): a batched request answered in a frame of its own.
	CodeBatchedRequest ProblemCode = "batched-request"
)

// Session problems, found by the Pairer and the Client on a frame in its context.
const (
	// CodeBeforeInitialize (Warning): a server message before the initialize exchange ended.
	CodeBeforeInitialize ProblemCode = "before-initialize"
	// CodeUnknownProtocolVersion (Warning): the server answered a protocol version the client
	// does not know (put on the lifecycle note that says so).
	CodeUnknownProtocolVersion ProblemCode = "unknown-protocol-version"
	// CodeNoProtocolVersion (Warning): the initialize result has no protocolVersion.
	CodeNoProtocolVersion ProblemCode = "no-protocol-version"
	// CodeUnknownID (Warning): a response to an id no pending request has.
	CodeUnknownID ProblemCode = "unknown-id"
	// CodeIDTypeMismatch (Warning): a response whose id has a pending request's value but
	// not its JSON type ("2" for 2).
	CodeIDTypeMismatch ProblemCode = "id-type-mismatch"
	// CodeDuplicateResponse (Warning): a second response to an id already answered.
	CodeDuplicateResponse ProblemCode = "duplicate-response"
	// CodeAfterCancel (Info): a response to a request the client cancelled; not used.
	CodeAfterCancel ProblemCode = "after-cancel"
	// CodeAfterTimeout (Warning): a response to a request that had timed out; not used.
	CodeAfterTimeout ProblemCode = "after-timeout"
	// CodeAfterExit (Info): a server frame that arrived after the lifecycle exit event.
	CodeAfterExit ProblemCode = "after-exit"
	// CodeProbeLate (Info): the answer to an auto-era server/discover probe that had given up.
	CodeProbeLate ProblemCode = "probe-late-answer"
	// CodeUnknownNotification (Warning): a notification method servers may not send.
	CodeUnknownNotification ProblemCode = "unknown-notification"
	// CodeBadProgress (Warning): a progress notification without a progressToken.
	CodeBadProgress ProblemCode = "bad-progress"
	// CodeUnknownProgressToken (Warning): progress for a token no request in flight carries.
	CodeUnknownProgressToken ProblemCode = "unknown-progress-token"
	// CodeProgressAfterCancel (Info): progress for a request the client cancelled or timed out.
	CodeProgressAfterCancel ProblemCode = "progress-after-cancel"
	// CodeIDReused (Warning): a server request reusing the id of one still unanswered.
	CodeIDReused ProblemCode = "id-reused"
	// CodeCapabilityNotAdvertised (Warning): a server request for a capability the client did
	// not declare; the client answers -32601.
	CodeCapabilityNotAdvertised ProblemCode = "capability-not-advertised"
	// CodeModernServerRequest (Warning): a server request in the modern era, where stdio
	// servers MUST NOT send requests; the client does not answer it.
	CodeModernServerRequest ProblemCode = "modern-server-request"
	// CodeTaskNotDeclared (Warning): a task result to a request that did not declare the
	// tasks extension.
	CodeTaskNotDeclared ProblemCode = "task-not-declared"
	// CodeTaskUnsupportedMethod (Warning): a task result to a method other than tools/call.
	CodeTaskUnsupportedMethod ProblemCode = "task-unsupported-method"
)

// HTTP transport problems (MCP basic/transports §Streamable HTTP), put on lifecycle events.
const (
	// CodeHTTPStatus (Warning): a status code the transport rules do not allow here (202 to a
	// request, an SSE stream or JSON to a notification, a GET stream neither SSE nor 405).
	CodeHTTPStatus ProblemCode = "http-status"
	// CodeHTTPContentType (Warning): an answer to a request that is neither
	// application/json nor text/event-stream, or a body that is not what its Content-Type
	// says (SSE sent as application/json, JSON sent as text/event-stream).
	CodeHTTPContentType ProblemCode = "http-content-type"
	// CodeHTTPSessionStatus (Warning): 400 where the spec says 404 for an unknown session.
	CodeHTTPSessionStatus ProblemCode = "http-session-status"
	// CodeHTTPSessionChanged (Warning): a response carried a session id other than the one
	// the initialize response gave.
	CodeHTTPSessionChanged ProblemCode = "http-session-changed"
	// CodeHTTPWrongStream (Warning): a response on the GET stream, or on the POST stream of
	// another request.
	CodeHTTPWrongStream ProblemCode = "http-wrong-stream"
	// CodeSSEUnterminated (Warning): a request's stream ended inside an event that holds
	// its response, without the blank line that dispatches it (HTML §9.2.6: the event is
	// discarded); the response is taken anyway, except with Strict.
	CodeSSEUnterminated ProblemCode = "sse-unterminated"
)

// Trace problems, put on events read back from a recording.
const (
	// CodeTraceLinesLost (Info): trace lines just before this event could not be read
	// (mcp-inspect open puts it on the next event; the text gives the count).
	CodeTraceLinesLost ProblemCode = "trace-lines-lost"
)
