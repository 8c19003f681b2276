package wirefilter

// Term is one row of the filter language's reference: an example expression (it parses:
// TestSyntaxParses) and what it matches.
type Term struct {
	Example, Means string
}

// SyntaxRules says how terms combine, for the man page (docs/reference.md says the same).
const SyntaxRules = `Terms separated by spaces must all match; "|" or "or" between terms means either; "!" or "not" negates the next term; parentheses group. A value may list alternatives with "|" (kind:request|response) and may be quoted (text:"two words", \" for a quote). A bare word is text:WORD.`

// Syntax is the filter language's terms, in the order the man page lists them.
func Syntax() []Term {
	return []Term{
		{"dir:out", "frames the client sent (dir:> too); dir:in or dir:< the server's; dir:stderr, dir:lifecycle"},
		{"kind:request", "request, notification, response, error (an error response), batch, invalid (not JSON, not JSON-RPC, empty, oversize, header, partial line), stderr, lifecycle, http"},
		{"method:tools/*", "the method, of a response too (the one it answers); * any run of characters, ? one"},
		{"id:3", "the JSON-RPC id as written (id:abc matches the string id \"abc\")"},
		{"tool:echo", "a tools/call request for that tool, and its response (a glob as for method:)"},
		{"text:foo", "the frame's bytes, or the decoded text of its JSON strings, contain foo, ignoring case (a bare word foo too)"},
		{"is:problem", "frames that break a rule (a problem of warning severity)"},
		{"is:tool-error", "tools/call results with isError: true"},
		{"time:1s..3s", "time since the first event: time:>2s, time:<=500ms, time:2s.. (> < strict, ranges inclusive)"},
		{"ex:12", "the HTTP exchange whose request is event #12: the request and its response's head, body, SSE frames and encoded form"},
	}
}
