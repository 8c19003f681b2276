package wirefilter

// MayMatch reports whether an event could pass the filter when only some of its terms can
// be read yet: known says, by key ("dir", "method", "tool", ...), whether ev answers for
// it; a term on any other key is taken as unknown, true for some events and false for
// others. False means no event like ev passes; true means some might (or all do). A
// forwarding path asks it to skip reading what no filter can match.
func (f Filter) MayMatch(ev Event, known func(key string) bool) bool {
	return f.root == nil || maybe(f.root, func(t *term) tri {
		if !known(t.key) {
			return unknown
		}
		if t.match(ev) {
			return yes
		}
		return no
	}) != no
}

// tri is a three-valued truth: a term on an unknown key is unknown.
type tri uint8

const (
	no tri = iota
	yes
	unknown
)

// maybe evaluates n with each term's truth given by eval.
func maybe(n node, eval func(*term) tri) tri {
	switch n := n.(type) {
	case andNode:
		r := yes
		for _, c := range n {
			switch maybe(c, eval) {
			case no:
				return no
			case unknown:
				r = unknown
			}
		}
		return r
	case orNode:
		r := no
		for _, c := range n {
			switch maybe(c, eval) {
			case yes:
				return yes
			case unknown:
				r = unknown
			}
		}
		return r
	case notNode:
		switch maybe(n.n, eval) {
		case yes:
			return no
		case no:
			return yes
		}
		return unknown
	case *term:
		return eval(n)
	}
	return unknown
}
