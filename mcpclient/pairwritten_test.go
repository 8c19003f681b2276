package mcpclient

import "testing"

// TestPairerTapWritten: a tap's edit of an answer (Event.Written), recorded after the
// answer as it came, pairs with the same request without a duplicate-response problem; an
// answer sent twice by the server still has one.
func TestPairerTapWritten(t *testing.T) {
	for _, c := range []struct {
		written NoteCond
		want    bool // the duplicate-response problem
	}{{NoteEdited, false}, {"", true}} {
		p := NewPairer()
		evs := []Event{
			{Seq: 1, Dir: ClientToServer, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)},
			{Seq: 2, Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`)},
			{Seq: 3, Dir: ServerToClient, Raw: []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}`), Written: c.written},
		}
		for i := range evs {
			evs[i].Kind, evs[i].Msg, evs[i].Problems = Classify(evs[i].Raw)
			p.Add(&evs[i])
		}
		if got := HasCode(evs[2].Problems, CodeDuplicateResponse); got != c.want || evs[2].Pair != 1 {
			t.Errorf("written %q: duplicate-response %v (want %v), pair %d (want 1)", c.written, got, c.want, evs[2].Pair)
		}
	}
}
