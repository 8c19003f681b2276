package mcpclient

import "encoding/json"

// The Pairer's tables of settled requests and progress tokens are kept so that a session
// whose every response pairs and whose every token is its request's id (the client's own
// requests) pays a map insert, two lookups and a delete per request, all in pending, and
// nothing else: the other tables are built or filled only when a frame needs them.

// maxDone is how many settled requests a Pairer remembers (for late and duplicate answers).
const maxDone = 4096

// doneRing holds the latest maxDone settled requests, oldest first once it wraps. Its
// index by id key is built the first time it is looked in (a response that pairs with no
// pending request) and kept up to date from then on.
type doneRing struct {
	ents  []doneEnt // grows to maxDone, then is reused as a ring
	next  int       // where the next entry goes once full
	index map[string]doneR
}

type doneEnt struct {
	key string
	d   doneR
}

// push adds the settled request d of id key, in place of the oldest when the ring is full.
// For an id settled more than once the latest counts, and stays until it leaves the ring.
func (r *doneRing) push(key string, d doneR) {
	if len(r.ents) < maxDone {
		r.ents = append(r.ents, doneEnt{key, d})
	} else {
		old := r.ents[r.next]
		r.ents[r.next] = doneEnt{key, d}
		r.next = (r.next + 1) % maxDone
		if r.index != nil {
			if cur, ok := r.index[old.key]; ok && cur.seq == old.d.seq {
				delete(r.index, old.key)
			}
		}
	}
	if r.index != nil {
		r.index[key] = d
	}
}

// find returns the latest settled request of id key still in the ring.
func (r *doneRing) find(key string) (doneR, bool) {
	if r.index == nil {
		r.index = make(map[string]doneR, len(r.ents))
		for i := range r.ents {
			e := &r.ents[(r.next+i)%len(r.ents)] // oldest first: the latest of a key wins
			r.index[e.key] = e.d
		}
	}
	d, ok := r.index[key]
	return d, ok
}

// putPending makes pr pending under its id key and findable by its progress token. One
// whose token is its id key is found in pending, until a request reusing the id in flight
// takes its place there: it then keeps its token as a token of its own, in byToken. An
// entry another request left under pr's token goes, as pr's would have replaced it.
func (p *Pairer) putPending(pr pend) {
	if prev, busy := p.pending[pr.key]; busy && prev.token == prev.key && pr.token != pr.key {
		p.byToken[prev.key] = prev
	}
	p.pending[pr.key] = pr
	switch {
	case pr.token == "":
	case pr.token != pr.key:
		p.byToken[pr.token] = pr
	case len(p.byToken) > 0:
		delete(p.byToken, pr.token)
	}
}

// dropToken forgets pr's token (pr has one) as it settles.
func (p *Pairer) dropToken(pr pend) {
	if pr.token != pr.key || len(p.byToken) > 0 {
		delete(p.byToken, pr.token)
	}
}

// tokenOf is the pending request that carries progress token tok (its key form).
func (p *Pairer) tokenOf(tok string) (pend, bool) {
	if pr, ok := p.byToken[tok]; ok {
		return pr, true
	}
	pr, ok := p.pending[tok]
	return pr, ok && pr.token == tok
}

// vouch tells the Pairer that the next client request it sees, if its params are these very
// bytes (the same slice), carries its id as params._meta.progressToken and no other _meta:
// appendRequestFrame built them so, and checked the caller's params for a _meta and \u.
// The Pairer then need not look (tokenIsID); a trace's Pairer, which is never told, looks
// and finds the same.
func (p *Pairer) vouch(params json.RawMessage) { p.vouched = params }

// vouchedFor reports whether params are the vouched ones, and forgets them.
func (p *Pairer) vouchedFor(params json.RawMessage) bool {
	v := p.vouched
	p.vouched = nil
	return len(v) > 0 && len(params) == len(v) && &params[0] == &v[0]
}
