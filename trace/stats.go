package trace

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Stats summarizes a trace: counts by direction and kind, messages by method, request
// latencies by method, problems by code, bytes per stream, and how the session ended.
type Stats struct {
	Events   int `json:"events"`
	BadLines int `json:"badLines,omitempty"`
	// Duration is from the first to the last event.
	Duration time.Duration `json:"durationNs"`
	// ByDir counts events per direction ("c2s", "s2c", "stderr", "event"); Bytes sums
	// frame sizes per direction.
	ByDir map[string]int   `json:"byDir"`
	Bytes map[string]int64 `json:"bytes"`
	// ByKind counts frames per kind ("request", "response", "not JSON", ...).
	ByKind map[string]int `json:"byKind"`
	// Methods has one entry per direction and method of requests and notifications.
	Methods []MethodStats `json:"methods"`
	// Problems counts frames per problem code.
	Problems map[string]int `json:"problems,omitempty"`
	// Unanswered counts requests that never got a response; a request a tap replaced by its
	// edit (same id) is not one of them.
	Unanswered int `json:"unanswered"`
	// Written counts the frames a tap wrote itself, by mark ("edited", "injected";
	// mcpclient.Event.Written).
	Written map[string]int `json:"written,omitempty"`
	// Exit says how the server ended ("exited with code 0", "killed by signal KILL"), empty
	// when the trace has no exit event.
	Exit string `json:"exit,omitempty"`
	// Warnings are the trace's reader warnings.
	Warnings []string `json:"warnings,omitempty"`
}

// MethodStats are the numbers of one method in one direction. Latencies (request to
// response, in nanoseconds) are measured only for requests that got a response.
type MethodStats struct {
	Dir      string        `json:"dir"`
	Method   string        `json:"method"`
	Kind     string        `json:"kind"` // "request" or "notification"
	Count    int           `json:"count"`
	Errors   int           `json:"errors"`
	Answered int           `json:"answered"`
	P50      time.Duration `json:"p50Ns"`
	P90      time.Duration `json:"p90Ns"`
	Max      time.Duration `json:"maxNs"`

	lat []time.Duration
}

// ComputeStats reads the whole trace once, sequentially.
func ComputeStats(t *Trace) (*Stats, error) {
	s := &Stats{ByDir: map[string]int{}, Bytes: map[string]int64{}, ByKind: map[string]int{}, Problems: map[string]int{}, Warnings: t.Warnings}
	methods := map[string]*MethodStats{}
	get := func(dir, kind, method string) *MethodStats {
		k := dir + "\x00" + kind + "\x00" + method
		m := methods[k]
		if m == nil {
			m = &MethodStats{Dir: dir, Method: method, Kind: kind}
			methods[k] = m
		}
		return m
	}
	type open struct {
		t  time.Time
		ms *MethodStats
	}
	pending := map[uint64]open{}
	byID := map[string]uint64{} // pending requests by direction and id: a tap's edit replaces one
	var first, last time.Time
	for ev, err := range t.Events() {
		if err != nil {
			s.BadLines++
			continue
		}
		s.Events++
		if first.IsZero() {
			first = ev.Time
		}
		last = ev.Time
		dir := ev.Dir.String()
		s.ByDir[dir]++
		s.Bytes[dir] += ev.Size
		if ev.Dir != mcpclient.Lifecycle {
			s.ByKind[ev.Kind.String()]++
		}
		if ev.Written != "" {
			if s.Written == nil {
				s.Written = map[string]int{}
			}
			s.Written[string(ev.Written)]++
		}
		for _, p := range ev.Problems {
			if p.Severity < mcpclient.Warning {
				continue
			}
			if s.BadLines > 0 && (p.Code == mcpclient.CodeUnknownID || p.Code == mcpclient.CodeUnknownProgressToken) {
				// What it answers may have been on a lost line: not the server's fault (as
				// mcp-inspect open says).
				continue
			}
			s.Problems[string(p.Code)]++
		}
		switch ev.Kind {
		case mcpclient.KindRequest:
			ms := get(dir, "request", ev.Msg.Method)
			ms.Count++
			key := dir + " " + mcpclient.IDKey(ev.Msg.ID)
			if old, ok := byID[key]; ok && ev.Written != "" {
				delete(pending, old) // replaced by the tap: the receiver never had it
			}
			byID[key] = ev.Seq
			pending[ev.Seq] = open{ev.Time, ms}
		case mcpclient.KindNotification:
			get(dir, "notification", ev.Msg.Method).Count++
		case mcpclient.KindResponse, mcpclient.KindErrorResponse:
			o, ok := pending[ev.Pair]
			if ev.Pair == 0 || !ok {
				continue
			}
			delete(pending, ev.Pair)
			if key := o.ms.Dir + " " + mcpclient.IDKey(ev.Msg.ID); byID[key] == ev.Pair {
				delete(byID, key)
			}
			o.ms.Answered++
			if ev.Kind == mcpclient.KindErrorResponse {
				o.ms.Errors++
			}
			o.ms.lat = append(o.ms.lat, ev.Time.Sub(o.t))
		case mcpclient.KindLifecycle:
			if ev.Life.Kind == mcpclient.LifeExited || ev.Life.Kind == mcpclient.LifeSpawnFailed {
				s.Exit = ev.Life.Text
			}
		}
	}
	s.Unanswered = len(pending)
	if !first.IsZero() {
		s.Duration = last.Sub(first)
	}
	for _, m := range methods {
		if len(m.lat) > 0 {
			slices.Sort(m.lat)
			m.P50 = percentile(m.lat, 50)
			m.P90 = percentile(m.lat, 90)
			m.Max = m.lat[len(m.lat)-1]
		}
		s.Methods = append(s.Methods, *m)
	}
	sort.Slice(s.Methods, func(i, j int) bool {
		a, b := s.Methods[i], s.Methods[j]
		if a.Dir != b.Dir {
			return a.Dir < b.Dir
		}
		if a.Kind != b.Kind {
			return a.Kind > b.Kind // requests first
		}
		return a.Method < b.Method
	})
	return s, nil
}

// percentile is the nearest-rank percentile of sorted durations.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100
	if rank < 1 {
		rank = 1
	}
	return sorted[rank-1]
}

// WriteText prints the stats as aligned tables.
func (s *Stats) WriteText(w io.Writer, h *Header) error {
	var b strings.Builder
	if h != nil {
		fmt.Fprintf(&b, "trace     %s %s, format %d, started %s\n", orDash(h.Tool), h.ToolVersion, h.Version, h.Start.Local().Format(time.DateTime))
		if len(h.Argv) > 0 {
			fmt.Fprintf(&b, "server    %s\n", strings.Join(h.Argv, " "))
		}
		if !h.Redaction.Enabled {
			b.WriteString("redaction OFF (recorded with --no-redact)\n")
		}
	}
	fmt.Fprintf(&b, "events    %d over %s", s.Events, s.Duration.Round(time.Millisecond))
	if s.BadLines > 0 {
		fmt.Fprintf(&b, " (%d unreadable lines)", s.BadLines)
	}
	b.WriteByte('\n')
	for _, d := range []string{"c2s", "s2c", "stderr", "event"} {
		if n := s.ByDir[d]; n > 0 {
			fmt.Fprintf(&b, "  %-7s %6d", d, n)
			if d != "event" {
				fmt.Fprintf(&b, "  %s", jsontext.ByteSize(s.Bytes[d]))
			}
			b.WriteByte('\n')
		}
	}
	if len(s.ByKind) > 0 {
		var parts []string
		for _, k := range sortedKeys(s.ByKind) {
			parts = append(parts, fmt.Sprintf("%s %d", k, s.ByKind[k]))
		}
		fmt.Fprintf(&b, "kinds     %s\n", strings.Join(parts, ", "))
	}
	if s.Exit != "" {
		fmt.Fprintf(&b, "end       %s\n", s.Exit)
	}
	if len(s.Written) > 0 {
		var parts []string
		for _, k := range sortedKeys(s.Written) {
			parts = append(parts, fmt.Sprintf("%s %d", k, s.Written[k]))
		}
		fmt.Fprintf(&b, "by tap    %s (frames a tap wrote itself; the notes say why)\n", strings.Join(parts, ", "))
	}
	if s.Unanswered > 0 {
		fmt.Fprintf(&b, "unanswered requests: %d\n", s.Unanswered)
	}
	if len(s.Problems) > 0 {
		var parts []string
		for _, k := range sortedKeys(s.Problems) {
			parts = append(parts, fmt.Sprintf("%s %d", k, s.Problems[k]))
		}
		fmt.Fprintf(&b, "problems  %s\n", strings.Join(parts, ", "))
	}
	for _, wn := range s.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", wn)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if len(s.Methods) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "dir\tmethod\tkind\tcount\terrors\tp50\tp90\tmax\t")
	for _, m := range s.Methods {
		if m.Kind == "request" {
			lat := func(d time.Duration) string {
				if m.Answered == 0 {
					return "-"
				}
				return fmtDur(d)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t\n", m.Dir, m.Method, m.Kind, m.Count, m.Errors, lat(m.P50), lat(m.P90), lat(m.Max))
		} else {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t\t\t\t\t\n", m.Dir, m.Method, m.Kind, m.Count)
		}
	}
	return tw.Flush()
}

func fmtDur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(10 * time.Microsecond).String()
	default:
		return d.Round(time.Millisecond).String()
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
