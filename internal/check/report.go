package check

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Status is a rule's outcome.
type Status string

const (
	// StatusPass: the rule was checked and held.
	StatusPass Status = "pass"
	// StatusFail: a MUST-level finding; the run exits 1.
	StatusFail Status = "fail"
	// StatusWarn: only SHOULD-level findings.
	StatusWarn Status = "warn"
	// StatusSkip: --skip named the rule (Reason says why).
	StatusSkip Status = "skip"
	// StatusNA: the rule does not apply to this server (Reason says why: a capability not
	// declared, a remote server, nothing to check).
	StatusNA Status = "n/a"
)

// Event names one wire event that shows a finding: the session it belongs to and its seq
// there (the trace's "seq"), and with --record the trace file that holds it (each session
// has its own: "mcp-inspect open FILE" shows the event's bytes).
type Event struct {
	Session string `json:"session"`
	Seq     uint64 `json:"seq"`
	Trace   string `json:"trace,omitempty"`
}

// String is "#12" for the main session, "version-future#3" for another.
func (e Event) String() string {
	if e.Session == SessionMain {
		return "#" + strconv.FormatUint(e.Seq, 10)
	}
	return e.Session + "#" + strconv.FormatUint(e.Seq, 10)
}

// Finding is one deviation from a rule.
type Finding struct {
	Level Level  `json:"level"`
	Text  string `json:"text"`
	// Events are the wire events that show it (requests and the responses, or the frame).
	Events []Event `json:"events,omitempty"`
}

// Result is one rule's outcome.
type Result struct {
	Rule
	Status   Status    `json:"status"`
	Findings []Finding `json:"findings,omitempty"`
	// Notes say what was checked ("3 tools on 1 page"), for a passing rule too.
	Notes []Note `json:"notes,omitempty"`
	// Reason says why a rule was skipped or does not apply.
	Reason string `json:"reason,omitempty"`
	// Events are wire events where the rule was checked without a note (a reason's).
	Events []Event `json:"events,omitempty"`
}

// Note is what a rule checked, with the events where.
type Note struct {
	Text   string  `json:"text"`
	Events []Event `json:"events,omitempty"`
}

// Server is what the report says about the server checked.
type Server struct {
	Target          string `json:"target"`
	Name            string `json:"name,omitempty"`
	Version         string `json:"version,omitempty"`
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	Era             string `json:"era,omitempty"`
	Transport       string `json:"transport"`
}

// Session is one connection the check opened, with its event count.
type Session struct {
	Name    string  `json:"name"`
	Purpose string  `json:"purpose"`
	Events  int     `json:"events"`
	Ms      float64 `json:"ms"`
	// Trace is the file the session was recorded to, "" when it was not.
	Trace string `json:"trace,omitempty"`
}

// Counts sums the results by status.
type Counts struct {
	Fail int `json:"fail"`
	Warn int `json:"warn"`
	Pass int `json:"pass"`
	Skip int `json:"skip"`
	NA   int `json:"na"`
}

// Report is a whole check.
type Report struct {
	Server   Server    `json:"server"`
	Results  []Result  `json:"results"`
	Sessions []Session `json:"sessions"`
	Counts   Counts    `json:"counts"`
	// TotalMs is the wall time of the check, server start-ups included.
	TotalMs float64 `json:"totalMs"`
}

// Failed reports whether a MUST rule failed.
func (r *Report) Failed() bool { return r.Counts.Fail > 0 }

// count fills Counts from Results.
func (r *Report) count() {
	r.Counts = Counts{}
	for _, res := range r.Results {
		switch res.Status {
		case StatusFail:
			r.Counts.Fail++
		case StatusWarn:
			r.Counts.Warn++
		case StatusPass:
			r.Counts.Pass++
		case StatusSkip:
			r.Counts.Skip++
		case StatusNA:
			r.Counts.NA++
		}
	}
}

// Result is the result of rule id, nil when absent.
func (r *Report) Result(id string) *Result {
	for i := range r.Results {
		if r.Results[i].ID == id {
			return &r.Results[i]
		}
	}
	return nil
}

// settle sets a checked result's status from its findings.
func (res *Result) settle() {
	if res.Status == StatusSkip || res.Status == StatusNA {
		return
	}
	res.Status = StatusPass
	for _, f := range res.Findings {
		if f.Level == Must {
			res.Status = StatusFail
			return
		}
		res.Status = StatusWarn
	}
}

// Human writes the report for a person: MUST failures, SHOULD warnings, passes, then what
// was skipped or did not apply, each rule with its source and the events that show it.
// safe makes server text safe for the terminal.
func (r *Report) Human(w interface{ Write([]byte) (int, error) }, safe func(string) string) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	s := r.Server
	name := s.Name
	if s.Version != "" {
		name += " " + s.Version
	}
	p("mcp-inspect check: %s\n", safe(s.Target))
	if name != "" {
		p("server %s, protocol %s, %s\n", safe(name), safe(s.ProtocolVersion), s.Transport)
	}
	sections := []struct {
		status Status
		title  string
	}{
		{StatusFail, "MUST failures"},
		{StatusWarn, "SHOULD warnings"},
		{StatusPass, "passes"},
		{StatusSkip, "skipped"},
		{StatusNA, "not applicable"},
	}
	for _, sec := range sections {
		var in []Result
		for _, res := range r.Results {
			if res.Status == sec.status {
				in = append(in, res)
			}
		}
		if len(in) == 0 {
			continue
		}
		p("\n%s (%d)\n", sec.title, len(in))
		if sec.status == StatusNA {
			in = r.humanUnreached(p, in)
		}
		for _, res := range in {
			mark := map[Status]string{StatusFail: "✗", StatusWarn: "!", StatusPass: "✓", StatusSkip: "-", StatusNA: "·"}[res.Status]
			p("  %s %-22s %s\n", mark, res.ID, res.Title)
			switch res.Status {
			case StatusSkip, StatusNA:
				p("      %s%s\n", safe(res.Reason), eventsText(res.Events))
				continue
			case StatusFail:
				p("      MUST rule; %s\n", res.Source)
			case StatusWarn:
				// A MUST rule may warn for a lesser deviation: the label is the finding's
				// level, not the rule's strongest.
				p("      SHOULD-level warning; %s\n", res.Source)
			}
			for _, f := range res.Findings {
				p("      %s: %s%s\n", f.Level, safe(f.Text), eventsText(f.Events))
			}
			for _, n := range res.Notes {
				p("      %s%s\n", safe(n.Text), eventsText(n.Events))
			}
		}
	}
	c := r.Counts
	sessions := "sessions"
	if len(r.Sessions) == 1 {
		sessions = "session"
	}
	p("\n%d MUST failed, %d SHOULD warned, %d passed, %d skipped, %d not applicable (%.0f ms, %d %s)\n",
		c.Fail, c.Warn, c.Pass, c.Skip, c.NA, r.TotalMs, len(r.Sessions), sessions)
}

// humanUnreached writes the rules never reached (the server could not start, the check
// was interrupted) as one line per reason, not a line pair per rule, and returns the rest.
func (r *Report) humanUnreached(p func(string, ...any), in []Result) []Result {
	var rest []Result
	var reasons []string
	ids := map[string][]string{}
	for _, res := range in {
		if !strings.HasPrefix(res.Reason, "not reached") {
			rest = append(rest, res)
			continue
		}
		if ids[res.Reason] == nil {
			reasons = append(reasons, res.Reason)
		}
		ids[res.Reason] = append(ids[res.Reason], res.ID)
	}
	for _, why := range reasons {
		p("  · %s (%d rules): %s\n", why, len(ids[why]), strings.Join(ids[why], ", "))
	}
	return rest
}

// nameTraces sets each cited event's Trace from its session's (traces: session → file).
func (r *Report) nameTraces(traces map[string]string) {
	name := func(evs []Event) {
		for i := range evs {
			evs[i].Trace = traces[evs[i].Session]
		}
	}
	for i := range r.Results {
		res := &r.Results[i]
		name(res.Events)
		for j := range res.Findings {
			name(res.Findings[j].Events)
		}
		for j := range res.Notes {
			name(res.Notes[j].Events)
		}
	}
}

// eventsText is " (events #3, #4)" or "", with the trace file of each run of events when
// they were recorded: " (events #3, #4 in check.jsonl; version-future#2 in
// check.version-future.jsonl)".
func eventsText(evs []Event) string {
	if len(evs) == 0 {
		return ""
	}
	const most = 6
	var groups, s []string
	cur := evs[0].Trace
	flush := func() {
		if len(s) == 0 {
			return
		}
		g := strings.Join(s, ", ")
		if cur != "" {
			g += " in " + cur
		}
		groups, s = append(groups, g), nil
	}
	for i, e := range evs {
		if i == most {
			flush()
			groups = append(groups, fmt.Sprintf("… %d more", len(evs)-most))
			break
		}
		if e.Trace != cur {
			flush()
			cur = e.Trace
		}
		s = append(s, e.String())
	}
	flush()
	return " (events " + strings.Join(groups, "; ") + ")"
}

// sortEvents orders and dedupes events.
func sortEvents(evs []Event) []Event {
	slices.SortFunc(evs, func(a, b Event) int {
		if a.Session != b.Session {
			return strings.Compare(a.Session, b.Session)
		}
		return int(a.Seq) - int(b.Seq)
	})
	return slices.Compact(evs)
}
