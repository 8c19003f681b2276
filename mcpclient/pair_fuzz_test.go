package mcpclient

import (
	"bytes"
	"testing"
)

// FuzzPairer feeds a session of arbitrary frames (one per line, the first byte picking the
// direction: c client→server, s server→client, x the server's exit) through the Pairer: it
// never panics, and every response it pairs points back to an earlier request in the other
// direction with the same id, or to an earlier notification in the other direction when the
// response is flagged as a reply to a notification (which takes no reply, issue 24).
func FuzzPairer(f *testing.F) {
	f.Add([]byte("c{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\ns{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"))
	f.Add([]byte("c{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/call\",\"params\":{\"_meta\":{\"progressToken\":1}}}\ns{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1}}\ns[{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{}}]\nx\ns{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":1,\"message\":\"m\"}}\n"))
	f.Add([]byte("s{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"roots/list\"}\nc{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"roots\":[]}}\nc{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := NewPairer()
		bySeq := map[uint64]*Event{}
		for i, line := range bytes.Split(data, []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			ev := &Event{Seq: uint64(i + 1)}
			switch line[0] {
			case 'c':
				ev.Dir = ClientToServer
			case 's':
				ev.Dir = ServerToClient
			case 'x':
				ev.Dir, ev.Life = Lifecycle, &LifeInfo{Kind: LifeExited, PID: 1}
			default:
				continue
			}
			if ev.Dir != Lifecycle {
				ev.Raw = append(line[1:len(line):len(line)], '\n')
				ev.Kind, ev.Msg, ev.Problems = Classify(ev.Raw)
				if _, ok := SplitBatch(ev.Raw); ok {
					ev.Kind = KindBatch
				}
			}
			p.Add(ev)
			bySeq[ev.Seq] = ev
			if ev.Pair == 0 || (ev.Kind != KindResponse && ev.Kind != KindErrorResponse) || ev.Msg == nil {
				continue
			}
			req := bySeq[ev.Pair]
			if req != nil && req.Kind == KindNotification && req.Dir != ev.Dir && ev.Pair < ev.Seq {
				if !HasCode(ev.Problems, CodeNotificationReply) {
					t.Fatalf("event %d (%s) paired with notification %d but not flagged as its reply: %+v", ev.Seq, ev.Raw, ev.Pair, ev.Problems)
				}
				continue
			}
			if req == nil || ev.Pair >= ev.Seq || req.Dir == ev.Dir || req.Msg == nil || req.Kind != KindRequest ||
				IDKey(req.Msg.ID) != IDKey(ev.Msg.ID) {
				t.Fatalf("event %d (%s) paired with %d: %+v", ev.Seq, ev.Raw, ev.Pair, req)
			}
		}
	})
}
