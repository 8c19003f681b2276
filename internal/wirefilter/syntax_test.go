package wirefilter

import "testing"

// TestSyntaxParses: every example the man page shows is an expression the parser takes.
func TestSyntaxParses(t *testing.T) {
	for _, term := range Syntax() {
		if _, err := Parse(term.Example); err != nil {
			t.Errorf("%s: %v", term.Example, err)
		}
	}
}
