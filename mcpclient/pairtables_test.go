package mcpclient

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestPairerTablesAgainstModel runs long random sessions through a Pairer and holds each
// response and progress notification to a plain model of what it pairs with: the pending
// request of that id, the latest of the last maxDone settled ones (a duplicate), or none;
// the latest request that carried that token and has not settled (a request whose id was
// reused while in flight keeps its token), or none. The sessions reuse ids, also in
// flight, answer late, and settle more than maxDone requests, so the settled ring wraps
// before and after its index is first built, and tokens are either the id (found in
// pending) or their own.
func TestPairerTablesAgainstModel(t *testing.T) {
	for seed := range uint64(6) {
		// Odd seeds answer only pending requests until the ring has wrapped, so its index is
		// first built from a full ring; even ones build it at once.
		quiet := int(seed%2) * 12000
		t.Run(fmt.Sprint(seed), func(t *testing.T) { pairerModelRun(t, rand.New(rand.NewPCG(seed, 29)), quiet) })
	}
}

type modelReq struct {
	seq   uint64
	token string // key form; "" without one
}

func pairerModelRun(t *testing.T, r *rand.Rand, quiet int) {
	p := NewPairer()
	var seq uint64
	add := func(dir Direction, line string) *Event {
		seq++
		ev := &Event{Seq: seq, Dir: dir, Raw: []byte(line + "\n")}
		ev.Kind, ev.Msg, ev.Problems = Classify(ev.Raw)
		p.Add(ev)
		return ev
	}
	add(ClientToServer, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}`)
	add(ServerToClient, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}`)

	pending := map[string]modelReq{}
	tokens := map[string]uint64{} // token → the request that carried it last, until it settles
	var done []struct {
		key string
		seq uint64
	}
	nextID, nextTok := 1, 1
	ids := func() string { // an id in use lately, pending or not, or one never used
		if r.IntN(8) == 0 {
			return strconv.Itoa(nextID + 1000000)
		}
		return strconv.Itoa(max(1, nextID-r.IntN(6000)))
	}
	for i := range 30000 {
		switch k := r.IntN(10); {
		case k < 4: // a request: a new id, or now and then one reused
			id := nextID
			if r.IntN(10) == 0 {
				id = max(1, nextID-r.IntN(5000))
			} else {
				nextID++
			}
			key := strconv.Itoa(id)
			if _, busy := pending[key]; busy && r.IntN(2) == 0 {
				key = strconv.Itoa(nextID) // in flight: reused only half the time
				nextID++
			}
			var tok, meta string
			switch r.IntN(3) {
			case 0:
				tok, meta = key, `,"_meta":{"progressToken":`+key+`}`
			case 1:
				tok = strconv.Quote("t" + strconv.Itoa(nextTok))
				nextTok++
				meta = `,"_meta":{"progressToken":` + tok + `}`
			}
			ev := add(ClientToServer, `{"jsonrpc":"2.0","id":`+key+`,"method":"tools/call","params":{"name":"x"`+meta+`}}`)
			pending[key] = modelReq{seq: ev.Seq, token: tok}
			if tok != "" {
				tokens[tok] = ev.Seq
			}
		case k < 8: // a response, to a pending id or to any other
			key := ids()
			if i < quiet && p.done.index != nil {
				t.Fatalf("#%d: the index was built before any unpaired response", seq)
			}
			if i < quiet && len(pending) == 0 {
				continue
			}
			if i < quiet || r.IntN(3) > 0 {
				for k := range pending {
					key = k
					break
				}
			}
			ev := add(ServerToClient, `{"jsonrpc":"2.0","id":`+key+`,"result":{}}`)
			if pr, ok := pending[key]; ok {
				if ev.Pair != pr.seq || len(ev.Problems) != 0 {
					t.Fatalf("#%d answers pending request #%d: paired %d, %+v", ev.Seq, pr.seq, ev.Pair, ev.Problems)
				}
				delete(pending, key)
				if pr.token != "" {
					delete(tokens, pr.token)
				}
				done = append(done, struct {
					key string
					seq uint64
				}{key, pr.seq})
				if len(done) > maxDone {
					done = done[1:]
				}
				continue
			}
			var want uint64
			for i := len(done) - 1; i >= 0; i-- {
				if done[i].key == key {
					want = done[i].seq
					break
				}
			}
			code := CodeUnknownID
			if want != 0 {
				code = CodeDuplicateResponse
			}
			if ev.Pair != want || !HasCode(ev.Problems, code) {
				t.Fatalf("#%d (id %s) should pair with #%d as %s: paired %d, %+v", ev.Seq, key, want, code, ev.Pair, ev.Problems)
			}
		default: // progress, for a pending request's token or any other
			if i < quiet {
				continue
			}
			tok := ids()
			if r.IntN(2) == 0 {
				tok = strconv.Quote("t" + strconv.Itoa(r.IntN(nextTok+1)))
			}
			for t := range tokens {
				if r.IntN(2) == 0 {
					tok = t
					break
				}
			}
			want := tokens[tok]
			ev := add(ServerToClient, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":`+tok+`,"progress":1}}`)
			if ev.Pair != want || (want == 0) != HasCode(ev.Problems, CodeUnknownProgressToken) {
				t.Fatalf("#%d (token %s) should pair with #%d: paired %d, %+v", ev.Seq, tok, want, ev.Pair, ev.Problems)
			}
		}
	}
	if p.done.index == nil || len(p.done.ents) != maxDone {
		t.Fatalf("the run did not wrap the ring (%d settled) or never built its index", len(p.done.ents))
	}
}

// A request whose id is reused while it is in flight keeps its progress token: progress
// for it pairs with it before and after the answer to the id (which settles the newer
// request), whether or not its token is its id (helper 38's trace).
func TestPairerIDReusedInFlightKeepsToken(t *testing.T) {
	for _, tok := range []string{"5", `"t5"`} {
		p := NewPairer()
		lines := []struct {
			dir  Direction
			line string
		}{
			{ClientToServer, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}`},
			{ServerToClient, `{"jsonrpc":"2.0","id":0,"result":{}}`},
			{ClientToServer, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"a","_meta":{"progressToken":` + tok + `}}}`},
			{ClientToServer, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"b"}}`},
			{ServerToClient, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + tok + `,"progress":1}}`},
			{ServerToClient, `{"jsonrpc":"2.0","id":5,"result":{}}`},
			{ServerToClient, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":` + tok + `,"progress":2}}`},
		}
		var evs []*Event
		for i, l := range lines {
			ev := &Event{Seq: uint64(i + 1), Dir: l.dir, Raw: []byte(l.line + "\n")}
			ev.Kind, ev.Msg, ev.Problems = Classify(ev.Raw)
			p.Add(ev)
			evs = append(evs, ev)
		}
		if evs[4].Pair != 3 || evs[6].Pair != 3 || evs[5].Pair != 4 {
			t.Fatalf("token %s: progress paired %d and %d (want 3), the answer %d (want 4): %+v %+v", tok, evs[4].Pair, evs[6].Pair, evs[5].Pair, evs[4].Problems, evs[6].Problems)
		}
	}
}

// TestPairerVouchedToken holds the client's word on its own request's token to what the
// Pairer finds without it: the same pairing, and a word given for other bytes (equal, not
// the same) or left from an earlier request is not taken.
func TestPairerVouchedToken(t *testing.T) {
	rf, ok := appendRequestFrame(7, "tools/call", json.RawMessage(`{"name":"echo"}`), true, false)
	if !ok {
		t.Fatal("no fast-path frame")
	}
	_, msg, _ := Classify(rf.frame)
	for _, vouch := range []bool{false, true} {
		p := NewPairer()
		if vouch {
			p.vouch(rf.params)
		}
		req := &Event{Seq: 1, Dir: ClientToServer, Kind: KindRequest, Raw: rf.frame, Msg: &Message{JSONRPC: "2.0", ID: rf.id, Method: "tools/call", Params: rf.params}}
		p.Add(req)
		if p.vouched != nil || p.pending["7"].token != "7" {
			t.Fatalf("vouch %v: pending %+v, vouched left %q", vouch, p.pending["7"], p.vouched)
		}
		prog := &Event{Seq: 2, Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":1}}` + "\n")}
		prog.Kind, prog.Msg, prog.Problems = Classify(prog.Raw)
		p.Add(prog)
		if prog.Pair != 1 {
			t.Fatalf("vouch %v: progress paired %d, %+v", vouch, prog.Pair, prog.Problems)
		}
	}

	// The same bytes in another request (id 8): its token is 7, not its id.
	p := NewPairer()
	p.vouch(rf.params)
	p.Add(&Event{Seq: 1, Dir: ClientToServer, Kind: KindRequest, Msg: &Message{JSONRPC: "2.0", ID: json.RawMessage("8"), Method: "tools/call", Params: append(json.RawMessage(nil), rf.params...)}})
	if p.vouched != nil || p.pending["8"].token != "7" {
		t.Fatalf("a word for other bytes was taken (left %q): %+v", p.vouched, p.pending["8"])
	}
	p.vouch(msg.Params)
	p.Add(&Event{Seq: 2, Dir: ClientToServer, Kind: KindNotification, Msg: &Message{JSONRPC: "2.0", Method: "notifications/initialized"}})
	if !p.vouchedFor(msg.Params) {
		t.Fatal("a notification took the word meant for the next request")
	}
	if p.vouchedFor(msg.Params) {
		t.Fatal("a word was taken twice")
	}
}
