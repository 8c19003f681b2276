package mcpclient

// sentNotJSON is the problem of a client frame that is not JSON: the client never writes
// one by accident, so it is a probe (check's parse-error rule) or a raw line the user sent.
const sentNotJSON = "sent by the client on purpose (a probe, or a raw line): the line is not JSON; the server should answer -32700 Parse error with id null and go on (JSON-RPC 2.0 §5.1)"

// SentProblems adjusts the problems Classify found in a frame the client sent
// (ClientToServer): a line that is not JSON is the client's deliberate probe, not a
// violation by the server, so it is Info and carries no advice about the server's stdout.
// Other problems are kept as they are. probs is changed in place and returned.
func SentProblems(probs []Problem) []Problem {
	for i, p := range probs {
		if p.Code == CodeNotJSON {
			probs[i] = Problem{Severity: Info, Code: CodeNotJSON, Text: sentNotJSON}
		}
	}
	return probs
}
