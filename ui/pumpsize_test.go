package ui

import (
	"testing"
	"time"
)

// TestPumpSizerFollowsCost: the pump's batch size moves toward what absorbs in about
// absorbBudget, within minBatch and maxBatch; a small batch (the pump took all there was)
// does not shrink it unless its events were costly.
func TestPumpSizerFollowsCost(t *testing.T) {
	var p pumpSizer
	if p.size() != maxBatch {
		t.Fatalf("first batch %d, want %d", p.size(), maxBatch)
	}
	// 4,096 events in 60 ms: 1,024 would take the budget.
	for range 20 {
		p.observe(p.size(), time.Duration(p.size())*60*time.Millisecond/4096)
	}
	if s := p.size(); s < 1000 || s > 1050 {
		t.Errorf("at 14.6 µs an event the size settles at %d, want about 1,024", s)
	}
	before := p.size()
	p.observe(10, 50*time.Microsecond) // cheap and small: the pump emptied the channel
	if p.size() < before {
		t.Errorf("a small cheap batch shrank the size from %d to %d", before, p.size())
	}
	for range 20 {
		p.observe(200, 100*time.Millisecond) // 0.5 ms an event: the floor
	}
	if p.size() != minBatch {
		t.Errorf("at 0.5 ms an event the size is %d, want the floor %d", p.size(), minBatch)
	}
	for range 20 {
		p.observe(p.size(), time.Microsecond)
	}
	if p.size() != maxBatch {
		t.Errorf("when absorbing costs nothing the size is %d, want %d", p.size(), maxBatch)
	}
}
