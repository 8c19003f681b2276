package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// opLines draws an op's state: elapsed time and progress while running; cancelled with the
// late response when one came; the error when it failed. Done ops draw nothing (the pane
// shows the result).
func opLines(st *themes.Styles, bar barView, o *session.Op, now time.Time, w int) []string {
	if o == nil {
		return nil
	}
	var out []string
	switch o.State {
	case session.OpRunning:
		out = append(out, st.Accent.Render(fmt.Sprintf("⟳ %s %s: waiting for the answer… %s", o.Method, clean(o.Target), now.Sub(o.Started).Round(100*time.Millisecond))))
		if o.Total > 0 {
			out = append(out, bar(min(o.Progress/o.Total, 1))+fmt.Sprintf("  %g/%g", o.Progress, o.Total))
		} else if o.Progress > 0 {
			out = append(out, fmt.Sprintf("progress: %g", o.Progress))
		}
		if o.ProgressMessage != "" {
			out = append(out, wrapStyled(st.Muted, clean(o.ProgressMessage), w)...)
		}
		out = append(out, st.Muted.Render("ctrl+x cancels (sends notifications/cancelled)"))
	case session.OpCancelled:
		out = append(out, st.Warning.Render(fmt.Sprintf("%s %s: cancelled by you after %s (notifications/cancelled sent)", o.Method, clean(o.Target), o.Ended.Sub(o.Started).Round(time.Millisecond))))
		if o.Late != nil {
			out = append(out, wrapStyled(st.Warning, fmt.Sprintf("a late response arrived after the cancel (#%d); it is not used:", o.Late.Seq), w)...)
			out = append(out, wrap(clean(strings.TrimSpace(string(o.Late.Raw))), w)...)
		}
	case session.OpFailed:
		out = append(out, errorLines(st, o.Err, w)...)
	}
	return out
}

// barView draws a progress bar at a fraction.
type barView func(frac float64) string
