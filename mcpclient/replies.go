package mcpclient

import "strconv"

// Replies to notifications (issue 24). A server that answers notifications/initialized (or
// any notification) with a response or an error, with id null, no id, or an id of no
// pending request, breaks one rule: a notification takes no reply (JSON-RPC 2.0 §4.1). It
// reads as a row of unknown-id and missing-id warnings unless it is tied to the
// notification it answers: the client's latest one not replied to yet.

// maxUnreplied bounds the notifications kept to tie replies to.
const maxUnreplied = 16

// noteSent keeps a notification the client sent, to tie a reply to it.
func (p *Pairer) noteSent(seq uint64, method string) {
	if len(p.unreplied) == maxUnreplied {
		p.unreplied = p.unreplied[1:]
	}
	p.unreplied = append(p.unreplied, pend{seq: seq, method: method})
}

// notificationReply ties the response ev (id key key, pending nowhere) to the notification
// it answers, the oldest not replied to (a server answers in order), when it plainly is
// such a reply, and reports whether it did.
func (p *Pairer) notificationReply(ev *Event, key string) bool {
	if len(p.unreplied) == 0 || p.inBatch {
		return false
	}
	n := p.unreplied[0]
	id := ev.Msg.ID
	if len(id) != 0 && string(id) != "null" {
		// A real id: a reply only when it reuses the id of a request answered already and
		// the notification is the last thing the client wrote (else it is late, or a
		// duplicate, or answers an id nobody sent: the other rules).
		last := p.unreplied[len(p.unreplied)-1]
		if d, seen := p.done.find(key); !seen || d.why != "answered" || last.seq != p.lastClient {
			return false
		}
	} else if ev.Kind == KindErrorResponse && ev.Msg.Error != nil && unreadRequestError(id, ev.Msg.Error.Code) {
		return false // the answer to an unreadable line (JSON-RPC 2.0 §5), not a reply
	}
	p.unreplied = p.unreplied[1:]
	ev.Pair, ev.Method = n.seq, n.method
	kept := ev.Problems[:0]
	for _, pr := range ev.Problems {
		if pr.Code != CodeNoID && pr.Code != CodeBadID {
			kept = append(kept, pr) // a missing or null id is this rule's, not one more
		}
	}
	ev.Problems = append(kept, Problem{Severity: Warning, Code: CodeNotificationReply,
		Text: "reply to " + n.method + " #" + strconv.FormatUint(n.seq, 10) + ": notifications take no reply (the server must not answer a notification)"})
	return true
}
