package wirefilter

// MayMatch reports whether an event could pass the filter when only some of its terms can
// be read yet: known says, by key ("dir", "method", "tool", ...), whether ev answers for
// it; a term on any other key is taken as unknown, true for some events and false for
// others. False means no event like ev passes; true means some might (or all do). A
// forwarding path asks it to skip reading what no filter can match.
func (f Filter) MayMatch(ev Event, known func(key string) bool) bool {
	return f.root == nil || maybe(f.root, ev, known) != no
}

// tri is a three-valued truth: a term on an unknown key is unknown.
type tri uint8

const (
	no tri = iota
	yes
	unknown
)

func maybe(n node, ev Event, known func(string) bool) tri {
	switch n := n.(type) {
	case andNode:
		r := yes
		for _, c := range n {
			switch maybe(c, ev, known) {
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
			switch maybe(c, ev, known) {
			case yes:
				return yes
			case unknown:
				r = unknown
			}
		}
		return r
	case notNode:
		switch maybe(n.n, ev, known) {
		case yes:
			return no
		case no:
			return yes
		}
		return unknown
	case *term:
		if !known(n.key) {
			return unknown
		}
		if n.match(ev) {
			return yes
		}
		return no
	}
	return unknown
}
