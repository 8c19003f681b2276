package ui

import "slices"

// The wire pane's rows: which events the filter in force shows, in order.

// count is the number of rows in the filtered view.
func (p *wirePane) count() int {
	if p.exprOn() {
		return len(p.find.rows)
	}
	switch p.filter {
	case filterMessages:
		return len(p.tl.messages)
	case filterProblems:
		return len(p.tl.problems)
	case filterStderr:
		return len(p.tl.stderr)
	case filterFlows:
		return p.flowCount()
	}
	return p.tl.len()
}

// at maps a view row to an event position.
func (p *wirePane) at(row int) int {
	if p.exprOn() {
		return int(p.find.rows[row])
	}
	switch p.filter {
	case filterMessages:
		return int(p.tl.messages[row])
	case filterProblems:
		return int(p.tl.problems[row])
	case filterStderr:
		return int(p.tl.stderr[row])
	case filterFlows:
		return p.flowAt(row)
	}
	return row
}

// rowOf finds the view row of event position i, or the nearest row after it.
func (p *wirePane) rowOf(i int) int {
	var idx []int32
	switch {
	case p.exprOn():
		idx = p.find.rows
	case p.filter == filterMessages:
		idx = p.tl.messages
	case p.filter == filterProblems:
		idx = p.tl.problems
	case p.filter == filterStderr:
		idx = p.tl.stderr
	case p.filter == filterFlows:
		return p.flowRowOf(i)
	default:
		return i
	}
	r, _ := slices.BinarySearch(idx, int32(i))
	return min(r, max(len(idx)-1, 0))
}
