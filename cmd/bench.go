package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// newBenchCmd is `mcp-inspect bench`, a group for load tests.
func newBenchCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "bench",
		Short: "Load-test a server",
		Long:  "bench runs one kind of request repeatedly against one server session and reports throughput and latency.",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
	}
	c.AddCommand(newBenchCallCmd())
	return c
}

// benchStats is what bench reports (--json: the document's "bench" member).
type benchStats struct {
	Tool string `json:"tool"`
	// Calls counts the calls made; CallsPerSec and LatencyMs count only the answered ones
	// (isError results included, Errors not).
	Calls       int          `json:"calls"`
	Concurrency int          `json:"concurrency"`
	Warmup      int          `json:"warmup"`
	DurationMs  float64      `json:"durationMs"`
	CallsPerSec float64      `json:"callsPerSec"`
	LatencyMs   benchLatency `json:"latencyMs"`
	// Errors counts calls that failed (JSON-RPC error, timeout, undecodable result, server
	// gone); ToolErrors counts results with isError: true.
	Errors     int            `json:"errors"`
	ToolErrors int            `json:"toolErrors"`
	ErrorKinds map[string]int `json:"errorKinds"`
	// Stopped says why the run ended early ("server exited", "interrupted"), empty when it
	// ran to the end.
	Stopped string `json:"stopped,omitempty"`
	// streak is set when a streak of timeouts or refused connections ended the run, at
	// stopAt (Stopped is cleared when nothing was left to do by then).
	streak bool
	stopAt time.Time
}

type benchLatency struct {
	Min  float64 `json:"min"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}

func newBenchCallCmd() *cobra.Command {
	var flags headlessFlags
	var af argFlags
	var n, conc, warmup int
	var duration time.Duration
	c := &cobra.Command{
		Use:   "call TOOL [-n N] [-c CONCURRENCY] [--duration D] [flags] (-- COMMAND [ARGS...] | URL)",
		Short: "Call one tool repeatedly and report throughput and latency",
		Long: `bench call starts the server once, connects, makes --warmup calls that are not measured,
then calls TOOL -n times (or for --duration, or until whichever of the two comes first) from
-c concurrent callers on the one session, and prints throughput (calls/s), latency
(min/p50/p90/p99/max/mean, milliseconds) and the error count. Arguments as for call (--args,
-a). With --json the document's "bench" member holds the numbers. A server that stops
answering, or a tool slower than --timeout that reports no progress, ends the run after 3
rounds of calls in a row timed out; a remote server that cannot be reached, after 3 rounds
that could not connect.

Exit codes: 0 every call succeeded; 1 some results had isError; 3 the server failed to start
or exited during the run (the numbers so far are still reported); 4 some calls got a JSON-RPC
error or an undecodable result; 5 some calls timed out; 2 usage; 130 interrupted.`,
		Example: `  mcp-inspect bench call echo -a message=hi -n 10000 -- node dist/index.js
  mcp-inspect bench call echo -a text=x -c 8 --duration 10s --json -- ./fakeserver --scenario minimal`,
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			own, argv, err := splitArgs(cmd, args, 1, "a TOOL name")
			if err != nil {
				return &codeError{exitUsage, err.Error()}
			}
			tool := own[0]
			if conc < 1 || n < 0 || warmup < 0 || duration < 0 {
				return &codeError{exitUsage, "bench call: -c must be at least 1; -n, --warmup and --duration cannot be negative"}
			}
			if duration > 0 && !cmd.Flags().Changed("requests") {
				n = 0 // --duration alone: no call limit
			}
			if n == 0 && duration == 0 {
				return &codeError{exitUsage, "bench call: give -n N, --duration D or both"}
			}
			base, pairs, err := readArgs(cmd, &af)
			if err != nil {
				return err
			}
			h := newHeadless(cmd, &flags, "tools/call")
			h.configure = func(cfg *mcpclient.Config) { benchClientConfig(cfg, conc) }
			return h.run(cmd.Context(), argv, func(ctx context.Context, h *headless) (*outcome, error) {
				arguments, err := h.toolArgs(ctx, tool, base, pairs)
				if err != nil {
					return nil, err
				}
				b, err := newBench(h.client, tool, arguments)
				if err != nil {
					return nil, err
				}
				// A load generator allocates steadily; collect less often than the default.
				defer debug.SetGCPercent(debug.SetGCPercent(400))
				// GOMAXPROCS in the environment wins; otherwise see benchProcs.
				if os.Getenv("GOMAXPROCS") == "" {
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(benchProcs(conc, h.client.CallerReading())))
				}
				for i := 0; i < warmup; i++ {
					if err := b.call(ctx, nil); err != nil {
						return nil, fmt.Errorf("warmup call %d: %w", i+1, err)
					}
				}
				stats, firstErr := b.run(ctx, n, conc, duration)
				stats.Warmup = warmup
				h.doc.Bench = stats
				out := &outcome{human: func(w io.Writer, _ func(string) string) { humanBench(w, stats) }, partial: true}
				switch {
				case stats.Stopped != "" || stats.streak:
					// What stopped the run, or the streak of failures it ended with, is
					// said (a timeout's text tells of --timeout).
					return out, firstErr
				case stats.Errors > 0:
					out.code, _ = classify(firstErr)
				case stats.ToolErrors > 0:
					out.code = exitToolError
				}
				return out, nil
			})
		},
	}
	flags.register(c)
	af.register(c.Flags(), true)
	c.Flags().IntVarP(&n, "requests", "n", 1000, "number of measured calls (0: no limit, with --duration)")
	c.Flags().IntVarP(&conc, "concurrency", "c", 1, "calls in flight at once")
	c.Flags().DurationVar(&duration, "duration", 0, "measure for this long (with -n: whichever ends first)")
	c.Flags().IntVar(&warmup, "warmup", 20, "unmeasured calls made first")
	return c
}

// bench makes the calls of one run.
type bench struct {
	client *mcpclient.Client
	tool   string
	params any // a json.RawMessage, {"name":…,"arguments":…}, encoded (and boxed) once
	// opt says params is json.Marshal's own output, so the client need not check it again
	// per call; shared by the callers (the client only reads it).
	opt *mcpclient.RequestOptions
}

func newBench(c *mcpclient.Client, tool string, args json.RawMessage) (*bench, error) {
	params, err := json.Marshal(struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
	}{tool, args})
	if err != nil {
		return nil, usageErr("arguments: %v", err)
	}
	// Each call carries a progress token, as every tools/call should (cases.md B11): a tool
	// that reports progress keeps its call alive past --timeout, as with call. Leaving it
	// out made 9 % more calls/s against the minimal server and broke that.
	return &bench{client: c, tool: tool, params: json.RawMessage(params), opt: &mcpclient.RequestOptions{ParamsMarshaled: true}}, nil
}

// call makes one tools/call; a result with isError is counted through isErr, not returned.
// It sends what Client.CallTool sends but decodes only what bench needs (content must be an
// array, isError a boolean), which keeps the load generator's own CPU per call low.
func (b *bench) call(ctx context.Context, isErr *bool) error {
	resp, err := b.client.Request(ctx, "tools/call", b.params, b.opt)
	if err != nil {
		return err
	}
	result := resp.Msg.Result
	if mcpclient.MayBeTask(result) {
		// A call that runs as a task ends when the task does (the one task follower).
		if t, ok, _ := mcpclient.ParseCreateTask(result); ok {
			end, err := session.AwaitTask(ctx, b.client, t, resp, session.FollowOptions{})
			if err != nil {
				return err
			}
			if result, err = end.Outcome(); err != nil {
				return err
			}
		}
	}
	isError, err := toolResultShape(result)
	if err != nil {
		return fmt.Errorf("tools/call result is not a CallToolResult: %w", err)
	}
	if isErr != nil {
		*isErr = isError
	}
	return nil
}

// toolResultShape checks what bench needs of a CallToolResult, as decoding it into
// {Content []json.RawMessage; IsError bool} would (content an array or null, isError a
// boolean or null) and returns isError. It reads the members in place (result is valid
// JSON: the client classified it); anything the scan does not settle (a key in other
// letter case, which the decoder also matches, or a wrong type, for the decoder's error)
// is decoded.
func toolResultShape(result json.RawMessage) (isError bool, err error) {
	ok := true
	if string(result) != "null" {
		ok = mcpclient.ForEachMember(result, func(key []byte, v json.RawMessage) {
			switch {
			case string(key) == "content":
				ok = ok && (v[0] == '[' || string(v) == "null")
			case string(key) == "isError":
				switch string(v) {
				case "true":
					isError = true
				case "false":
					isError = false
				case "null":
				default:
					ok = false
				}
			case strings.EqualFold(string(key), "content") || strings.EqualFold(string(key), "isError"):
				ok = false
			}
		}) && ok
	}
	if ok {
		return isError, nil
	}
	var res struct {
		Content []json.RawMessage `json:"content"`
		IsError bool              `json:"isError"`
	}
	if err := json.Unmarshal(result, &res); err != nil {
		return false, err
	}
	return res.IsError, nil
}

// timeoutStreak is how many rounds of timed-out calls in a row (timeoutStreak × the
// concurrency) end a run: the server has stopped answering, or the tool takes longer than
// --timeout.
const timeoutStreak = 3

// benchWorker is one calling goroutine's tally.
type benchWorker struct {
	lat        []time.Duration
	errors     int
	toolErrors int
	kinds      map[string]int
	firstErr   error
	// stopErr is what stopped the run in this worker (the server gone, an interrupt, or
	// the last of timeoutStreak timeouts in a row); it decides the exit code.
	stopErr error
	stopped string
	// streakKind is "timeout" or "connect" when a streak of those stopped the run: its text
	// gives the streak's length once every caller has ended (a call in flight at the stop
	// may add to it).
	streakKind string
	streakAt   int64     // the streak's length when it stopped the run
	stopAt     time.Time // when the streak stopped it
}

// failed counts a failed call; it reports whether the failure ends the run. streak counts
// the calls in a row, across workers, that timed out or could not connect (streakStop of
// them end it): a server that has stopped answering would otherwise keep the run going one
// --timeout per call, and a remote one that is gone one refused connection per call.
func (w *benchWorker) failed(err error, streak *atomic.Int64, streakStop int64) bool {
	if errors.Is(err, context.Canceled) {
		// The user's interrupt cut this call short: neither answered nor failed, not counted.
		w.stopErr, w.stopped = err, "interrupted"
		return true
	}
	w.errors++
	_, je := classify(err)
	w.kinds[je.Kind]++
	if w.firstErr == nil {
		w.firstErr = err
	}
	if je.Kind != "timeout" && je.Kind != "connect" {
		streak.Store(0)
	}
	var ee *mcpclient.ExitError
	switch {
	case errors.As(err, &ee) || errors.Is(err, mcpclient.ErrClosed):
		w.stopErr, w.stopped = err, "server exited"
	case je.Kind == "connect" || je.Kind == "timeout":
		if w.streakAt = streak.Add(1); w.streakAt < streakStop {
			return false
		}
		// A remote server gone: each call fails at once, and the run would go on making
		// tens of thousands of failed calls a second until --duration. Or one that stopped
		// answering, or a tool slower than --timeout that reports no progress.
		w.stopErr, w.streakKind, w.stopAt = err, je.Kind, time.Now()
	default:
		return false
	}
	return true
}

// run calls the tool from conc goroutines until n calls are made (n > 0) or d has passed
// (d > 0), or the server is gone, or interrupted, or it stopped answering or cannot be
// reached (timeoutStreak).
// It returns the statistics and the error that stopped the run, else the first error seen.
func (b *bench) run(ctx context.Context, n, conc int, d time.Duration) (*benchStats, error) {
	var next atomic.Int64
	var stop atomic.Bool
	var deadline time.Time
	start := time.Now()
	if d > 0 {
		deadline = start.Add(d)
	}
	var streak atomic.Int64
	streakStop := int64(timeoutStreak * conc)
	workers := make([]*benchWorker, conc)
	var wg sync.WaitGroup
	for i := range workers {
		w := &benchWorker{kinds: map[string]int{}}
		if n > 0 {
			w.lat = make([]time.Duration, 0, n/conc+1)
		}
		workers[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			pass := schedPass{on: conc == 1 && b.client.CallerReading() && runtime.GOMAXPROCS(0) > 1}
			// t0 is the call's start: the end of the answered call before it (one clock
			// reading a call), read again after anything slower than the loop's own steps.
			t0 := time.Now()
			for !stop.Load() {
				if n > 0 && next.Add(1) > int64(n) {
					return
				}
				if !deadline.IsZero() && t0.After(deadline) {
					return
				}
				if pass.maybe(t0) {
					t0 = time.Now()
				}
				var isErr bool
				err := b.call(ctx, &isErr)
				if err == nil {
					// Only answered calls make the latency and the throughput: a timeout's
					// time is the --timeout, an interrupted call's is cut short.
					t1 := time.Now()
					w.lat = append(w.lat, t1.Sub(t0))
					t0 = t1
					streak.Store(0)
					if isErr {
						w.toolErrors++
					}
					continue
				}
				if w.failed(err, &streak, streakStop) {
					stop.Store(true)
					return
				}
				t0 = time.Now()
			}
		}()
	}
	wg.Wait()
	st, err := b.stats(workers, conc, time.Since(start), streak.Load())
	if st.streak && ((n > 0 && st.Calls >= n) || (!deadline.IsZero() && !st.stopAt.Before(deadline))) {
		// Every call asked for was made, or the time was up, when the streak was complete:
		// the last calls timing out ended nothing early (the error still says what failed).
		st.Stopped = ""
	}
	return st, err
}

// streakText says why a streak of failed calls ended the run; n is the streak's length
// when every caller had ended.
func streakText(kind string, n int64) string {
	if kind == "connect" {
		return fmt.Sprintf("the server is unreachable: %d calls in a row could not connect", n)
	}
	return fmt.Sprintf("%d calls in a row timed out (the server stopped answering, or the tool takes longer than --timeout without reporting progress)", n)
}

// stats adds the workers' tallies up: the statistics of a run that took elapsed, and the
// error that stopped it (else the first error seen). streak is the length of the streak of
// failed calls at the end, for the text of a run a streak stopped.
func (b *bench) stats(workers []*benchWorker, conc int, elapsed time.Duration, streak int64) (*benchStats, error) {
	st := &benchStats{Tool: b.tool, Concurrency: conc, DurationMs: ms(elapsed), ErrorKinds: map[string]int{}}
	var all []time.Duration
	var firstErr, stopErr error
	for _, w := range workers {
		all = append(all, w.lat...)
		st.Errors += w.errors
		st.ToolErrors += w.toolErrors
		for k, v := range w.kinds {
			st.ErrorKinds[k] += v
		}
		if firstErr == nil && w.firstErr != nil {
			firstErr = w.firstErr
		}
		if w.stopErr != nil && st.Stopped == "" {
			st.Stopped, stopErr = w.stopped, w.stopErr
			if w.streakKind != "" {
				// A call in flight at the stop may have lengthened the streak (or, answered,
				// ended it: then the length at the stop).
				st.Stopped = streakText(w.streakKind, max(streak, w.streakAt))
				st.streak, st.stopAt = true, w.stopAt
			}
		}
	}
	if stopErr != nil {
		firstErr = stopErr // what ended the run decides the exit code, not an earlier timeout
	}
	st.Calls = len(all) + st.Errors
	if elapsed > 0 {
		st.CallsPerSec = math.Round(float64(len(all))/elapsed.Seconds()*10) / 10
	}
	st.LatencyMs = latencies(all)
	return st, firstErr
}

// latencies summarizes durations in milliseconds (nearest-rank percentiles).
func latencies(d []time.Duration) benchLatency {
	if len(d) == 0 {
		return benchLatency{}
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	rank := func(q float64) time.Duration {
		i := int(math.Ceil(q*float64(len(d)))) - 1
		return d[max(0, min(i, len(d)-1))]
	}
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	return benchLatency{
		Min: ms(d[0]), P50: ms(rank(0.50)), P90: ms(rank(0.90)), P99: ms(rank(0.99)), Max: ms(d[len(d)-1]),
		Mean: ms(sum / time.Duration(len(d))),
	}
}

func humanBench(w io.Writer, st *benchStats) {
	fmt.Fprintf(w, "bench call %s: %d calls in %.3f s, concurrency %d (after %d warmup calls)\n", st.Tool, st.Calls, st.DurationMs/1000, st.Concurrency, st.Warmup)
	answered := ""
	if st.Errors > 0 {
		answered = fmt.Sprintf(" (the %d answered calls; the %d errors are not counted here)", st.Calls-st.Errors, st.Errors)
	}
	fmt.Fprintf(w, "throughput: %.1f calls/s%s\n", st.CallsPerSec, answered)
	if l := st.LatencyMs; st.Calls > st.Errors {
		fmt.Fprintf(w, "latency ms: min %.3f  p50 %.3f  p90 %.3f  p99 %.3f  max %.3f  mean %.3f\n", l.Min, l.P50, l.P90, l.P99, l.Max, l.Mean)
	} else {
		fmt.Fprintln(w, "latency ms: none (no call was answered)")
	}
	fmt.Fprintf(w, "errors:     %d", st.Errors)
	if len(st.ErrorKinds) > 0 {
		kinds := make([]string, 0, len(st.ErrorKinds))
		for k, v := range st.ErrorKinds {
			kinds = append(kinds, fmt.Sprintf("%d %s", v, k))
		}
		sort.Strings(kinds)
		fmt.Fprintf(w, " (%s)", strings.Join(kinds, ", "))
	}
	fmt.Fprintf(w, "; isError results: %d\n", st.ToolErrors)
	if st.Stopped != "" {
		fmt.Fprintf(w, "stopped early: %s\n", st.Stopped)
	}
}

// benchClientConfig is what bench call at concurrency conc asks of its session beyond the
// common flags. At concurrency 1 the caller that wrote a request reads the response itself
// (mcpclient.Config.CallerReads), which spares a thread wake-up and a goroutine hand-off per
// call; with more callers the reader goroutine, which reads many responses per wake-up,
// was as fast or faster here, so it stays.
func benchClientConfig(cfg *mcpclient.Config, conc int) {
	cfg.CallerReads = conc == 1
	// With --record the recorder runs on a processor of its own (benchProcs); woken for
	// each event it cost a thread wake-up per event, more than a call.
	cfg.ObserveGather = benchGather
}

// benchGather is how long --record's recorder lets events gather before it writes them.
const benchGather = time.Millisecond

// benchProcs is bench call's GOMAXPROCS at concurrency conc: as many as callers (never
// more than the machine's CPUs), and two at -c 1 in caller-reads mode (callerReads). There,
// with one, a scheduler trace showed the runtime take the processor from the caller while it
// waited in a system call and the caller go on on another thread, on the other CPU from the
// server's: round trips then took about 55 µs instead of 9 until the two met again on one
// CPU. With two, the caller keeps its processor and the recorder (--record) runs on the
// other one: 70 000 calls/s with one, 82 000 with two and schedPass, against the minimal
// server (docs/performance.md). Without caller-reads mode (other systems, a URL) each
// response is handed from a reader goroutine to the caller, which a second processor turns
// into a thread wake-up per call: one it stays.
func benchProcs(conc int, callerReads bool) int {
	if conc == 1 && callerReads {
		return min(2, runtime.NumCPU())
	}
	return min(conc, runtime.NumCPU())
}

// schedPassEvery is how often a lone caller passes through the scheduler (schedPass).
const schedPassEvery = time.Millisecond

// schedPass lets a caller that only ever waits in system calls (caller-reads mode, -c 1)
// pass through the scheduler once every schedPassEvery, between two calls, at a moment of its
// choosing. Otherwise the runtime preempts it every 10 ms, taking its processor when that
// lands in a system call, and the timers due meanwhile (the recorder's, the background
// reader's) wait for it. At GOMAXPROCS 2 it took -c 1 from 64 000 to 82 000 calls/s; at 1 the
// same pass made it slower (45 000), so it goes with benchProcs' two: on is set only then.
type schedPass struct {
	on   bool
	last time.Time
}

// maybe passes through the scheduler if it is on and schedPassEvery has gone by since the
// last pass, and reports whether it did; now is the caller's clock reading (the call's
// start).
func (p *schedPass) maybe(now time.Time) bool {
	if p.on && now.Sub(p.last) >= schedPassEvery {
		p.last = now
		runtime.Gosched()
		return true
	}
	return false
}
