package tap

// What the rules could match, asked before a frame is read: the HTTP tap streams what no
// rule can match as it does without rules, rather than reading it whole (a JSON body) or
// frame by frame (an event stream) to match it.

import (
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/wirefilter"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// mayMatch reports whether some rule could match a frame going dir, from its direction
// alone (wirefilter.Filter.MayMatch): false only when none can, so the caller may forward
// such frames unread. An attach's breakpoints count as rules do.
func (in *injector) mayMatch(dir mcpclient.Direction) bool {
	if in.holds != nil && in.holds.table.MayMatch(dirOnly(dir), knowsDir) {
		return true // an attach's breakpoint may hold it
	}
	for i := range in.rules {
		if in.rules[i].Filter.MayMatch(dirOnly(dir), knowsDir) {
			return true
		}
	}
	return false
}

// knowsDir: of a frame not yet read, only its direction is known.
func knowsDir(key string) bool { return key == "dir" }

// dirOnly is a frame of which only the direction is known (one byte: no allocation as a
// wirefilter.Event); MayMatch reads nothing else of it.
type dirOnly mcpclient.Direction

var _ wirefilter.Event = dirOnly(0)

func (d dirOnly) Dir() string {
	ev := frameEv{dir: mcpclient.Direction(d)}
	return ev.Dir()
}
func (dirOnly) Kind() string           { return "" }
func (dirOnly) Method() string         { return "" }
func (dirOnly) ID() string             { return "" }
func (dirOnly) Elapsed() time.Duration { return 0 }
func (dirOnly) HasProblem() bool       { return false }
func (dirOnly) Tool() string           { return "" }
func (dirOnly) ToolError() bool        { return false }
func (dirOnly) Raw() ([]byte, bool)    { return nil, false }
func (dirOnly) Exchange() uint64       { return 0 }
