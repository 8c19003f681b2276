package trace_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// synthTrace writes a trace of n events (requests and responses) to a buffer.
func synthTrace(t testing.TB, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := trace.NewWriter(&buf, trace.Header{Tool: "synth"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i := 1; i <= n; i++ {
		ev := mcpclient.Event{Seq: uint64(i), Time: now.Add(time.Duration(i) * time.Millisecond)}
		id := (i + 1) / 2
		if i%2 == 1 {
			ev.Dir = mcpclient.ClientToServer
			ev.Raw = []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"n":%d}}}`+"\n", id, i))
		} else {
			ev.Dir = mcpclient.ServerToClient
			ev.Raw = []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"%d"}]}}`+"\n", id, i))
		}
		ev.Size = int64(len(ev.Raw))
		if err := w.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

func openBytes(t testing.TB, b []byte) *trace.Trace {
	t.Helper()
	tr, err := trace.OpenReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestReaderTruncatedLastLine: a trace cut anywhere inside its last line opens, without
// that line, and says so; cut at a line boundary it opens clean.
func TestReaderTruncatedLastLine(t *testing.T) {
	t.Parallel()
	full := synthTrace(t, 10)
	lastStart := bytes.LastIndexByte(full[:len(full)-1], '\n') + 1
	for cut := lastStart + 1; cut < len(full)-1; cut += 7 {
		tr := openBytes(t, full[:cut])
		if tr.Len() != 9 || !tr.Truncated || len(tr.Warnings) != 1 || !strings.Contains(tr.Warnings[0], "incomplete") {
			t.Fatalf("cut at %d: Len %d, truncated %v, warnings %v", cut, tr.Len(), tr.Truncated, tr.Warnings)
		}
		if n := len(loadEvents(t, tr)); n != 9 {
			t.Fatalf("cut at %d: %d events", cut, n)
		}
	}
	// Only the newline lost: the record is whole and kept.
	tr := openBytes(t, full[:len(full)-1])
	if tr.Len() != 10 || tr.Truncated {
		t.Errorf("missing final newline: Len %d truncated %v", tr.Len(), tr.Truncated)
	}
	tr = openBytes(t, full[:lastStart])
	if tr.Len() != 9 || tr.Truncated || len(tr.Warnings) != 0 {
		t.Errorf("cut at a boundary: Len %d truncated %v %v", tr.Len(), tr.Truncated, tr.Warnings)
	}
}

// TestReaderTolerance: unknown members are ignored, a newer version is named, empty lines
// are skipped, a bad line in the middle is reported and the rest still read, and a file that
// is not a trace is refused.
func TestReaderTolerance(t *testing.T) {
	t.Parallel()
	head := `{"format":"mcp-inspect-trace","version":7,"start":"2026-01-02T03:04:05Z","future":{"x":1},"redaction":{"enabled":true}}` + "\n"
	body := `{"seq":1,"t":"2026-01-02T03:04:05.001Z","mono":1000000,"dir":"c2s","raw":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n","size":40,"colour":"blue"}` + "\n" +
		"\n" +
		`{"seq":2,"dir":"sideways","raw":"x"}` + "\n" +
		`not json at all` + "\n" +
		`{"seq":4,"t":"2026-01-02T03:04:05.002Z","mono":2000000,"dir":"s2c","raw":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n","size":36}` + "\n"
	tr := openBytes(t, []byte(head+body))
	if len(tr.Warnings) != 1 || !strings.Contains(tr.Warnings[0], "version 7 is newer") {
		t.Errorf("warnings: %v", tr.Warnings)
	}
	if tr.Len() != 4 {
		t.Fatalf("Len %d, want 4 (the empty line skipped)", tr.Len())
	}
	var good []mcpclient.Event
	var bad []error
	for ev, err := range tr.Events() {
		if err != nil {
			bad = append(bad, err)
			continue
		}
		good = append(good, ev)
	}
	if len(good) != 2 || len(bad) != 2 {
		t.Fatalf("%d good, %d bad: %v", len(good), len(bad), bad)
	}
	var le *trace.LineError
	if !errors.As(bad[0], &le) || le.Index != 1 || le.Offset != int64(len(head)+bytes.IndexByte([]byte(body), '\n')+2) {
		t.Errorf("bad line error: %v", bad[0])
	}
	if good[1].Pair != 1 || good[1].Method != "ping" || good[1].Time.Sub(good[0].Time) != time.Millisecond {
		t.Errorf("derived data across a bad line: pair %d %q, dt %v", good[1].Pair, good[1].Method, good[1].Time.Sub(good[0].Time))
	}
	for _, notTrace := range []string{"", "\n", `{"seq":1,"dir":"c2s"}` + "\n", "hello\n", `{"format":"other"}` + "\n"} {
		if _, err := trace.OpenReader(strings.NewReader(notTrace), int64(len(notTrace))); !errors.Is(err, trace.ErrNotTrace) {
			t.Errorf("%q: err %v, want ErrNotTrace", notTrace, err)
		}
	}
}

// boundedReaderAt records the largest single read, to show a trace is never read whole.
type boundedReaderAt struct {
	r       io.ReaderAt
	mu      sync.Mutex
	largest int
	total   int64
}

func (b *boundedReaderAt) ReadAt(p []byte, off int64) (int, error) {
	b.mu.Lock()
	b.largest = max(b.largest, len(p))
	b.total += int64(len(p))
	b.mu.Unlock()
	return b.r.ReadAt(p, off)
}

// TestReaderReadsOnDemand: indexing a 20 MB trace reads it in bounded chunks, and reading one
// event reads only its line.
func TestReaderReadsOnDemand(t *testing.T) {
	t.Parallel()
	data := synthTrace(t, 200_000)
	br := &boundedReaderAt{r: bytes.NewReader(data)}
	tr, err := trace.OpenReader(br, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Len() != 200_000 {
		t.Fatalf("Len %d", tr.Len())
	}
	if br.largest > 1<<20 {
		t.Errorf("largest read while indexing %d bytes: the file was not streamed", br.largest)
	}
	br.total = 0
	ev, err := tr.Event(123_456)
	if err != nil || ev.Seq != 123_457 {
		t.Fatalf("Event: %v seq %d", err, ev.Seq)
	}
	if br.total > 400 {
		t.Errorf("reading one event read %d bytes", br.total)
	}
}

// TestCrashSafety kills a recording process with SIGKILL mid-session: the trace opens, and
// every event whose Write had returned before the kill is in it, in order, complete.
func TestCrashSafety(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "crash.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "RECORDER_TEST_HELPER=recorder", "RECORDER_TRACE="+path, "RECORDER_FAKE="+fake.Binary(t))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := platform.Start(cmd) // its own tree: the server it starts goes with it
	if err != nil {
		t.Fatal(err)
	}
	var written uint64
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		n, _ := strconv.ParseUint(strings.TrimPrefix(sc.Text(), "seq "), 10, 64)
		written = n
		if written >= 200 {
			break
		}
	}
	// Kill the recorder (not its server first: the recorder is what must survive a kill -9),
	// then everything left in its group.
	cmd.Process.Kill()
	for sc.Scan() {
		n, _ := strconv.ParseUint(strings.TrimPrefix(sc.Text(), "seq "), 10, 64)
		written = max(written, n)
	}
	cmd.Wait()
	tree.Kill()
	tree.WaitGone(10 * time.Second)
	tree.Release()
	if written < 200 {
		t.Fatalf("the recorder reported only %d events", written)
	}
	tr := openTrace(t, path)
	evs := loadEvents(t, tr)
	if uint64(len(evs)) < written {
		t.Fatalf("trace has %d events; %d were written before the kill", len(evs), written)
	}
	for i, ev := range evs {
		if ev.Seq != uint64(i+1) {
			t.Fatalf("event %d has seq %d", i, ev.Seq)
		}
		if ev.Dir != mcpclient.Lifecycle && (len(ev.Raw) == 0 || ev.Raw[len(ev.Raw)-1] != '\n') {
			t.Fatalf("event %d is not a whole frame: %q", i, ev.Raw)
		}
	}
	progress := 0
	for _, ev := range evs {
		if ev.Msg != nil && ev.Msg.Method == "notifications/progress" && ev.Pair != 0 {
			progress++
		}
	}
	if progress < 50 {
		t.Errorf("only %d paired progress notifications", progress)
	}
	t.Logf("killed after %d reported events; the trace holds %d (truncated last line: %v)", written, len(evs), tr.Truncated)
}

// TestEventBySeq: events are found by Seq through the index, also when the Seqs have gaps
// and a line in the middle is bad; a missing Seq is an error.
func TestEventBySeq(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"format":"` + trace.FormatName + `","version":1}` + "\n")
	seqs := []uint64{1, 2, 5, 6, 9, 40, 41}
	for i, s := range seqs {
		if i == 3 {
			b.WriteString("{not a record}\n")
		}
		fmt.Fprintf(&b, `{"seq":%d,"dir":"s2c","raw":"{\"jsonrpc\":\"2.0\",\"method\":\"m%d\"}\n","size":1}`+"\n", s, s)
	}
	tr, err := trace.OpenReader(strings.NewReader(b.String()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range seqs {
		ev, err := tr.EventBySeq(s)
		if err != nil {
			t.Fatalf("#%d: %v", s, err)
		}
		if ev.Seq != s || ev.Msg == nil || ev.Msg.Method != fmt.Sprintf("m%d", s) {
			t.Errorf("#%d: got #%d %+v", s, ev.Seq, ev.Msg)
		}
	}
	for _, s := range []uint64{0, 3, 7, 39, 42, 1000} {
		if _, err := tr.EventBySeq(s); err == nil {
			t.Errorf("#%d: found an event that is not there", s)
		}
	}
}

// TestEventsParallelSameAsSequential: the chunked decode on several CPUs yields exactly
// what one CPU does: the same events in the same order (offsets, lines, pairing,
// problems), the same bad lines at the same indexes, on a trace with bad and empty lines,
// frames bigger than a chunk's byte bound and a truncated last line; stopping early works.
func TestEventsParallelSameAsSequential(t *testing.T) {
	lines := bytes.SplitAfter(synthTrace(t, 6000), []byte("\n"))
	var b bytes.Buffer
	for i, l := range lines {
		switch i {
		case 700, 2500:
			b.WriteString("{\"seq\":\n") // a bad line
		case 1500:
			b.WriteString("\n\n") // empty lines
		case 3000:
			big := strings.Repeat("x", 5<<20)
			fmt.Fprintf(&b, `{"seq":100000,"dir":"s2c","raw":"%s\n","size":%d}`+"\n", big, len(big)+1)
		}
		b.Write(l)
	}
	b.WriteString(`{"seq":200000,"dir":"s2c","ra`) // cut mid-line
	collect := func(procs int) ([]mcpclient.Event, []string) {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		tr := openBytes(t, b.Bytes())
		var evs []mcpclient.Event
		var errs []string
		for ev, err := range tr.Events() {
			if err != nil {
				errs = append(errs, err.Error())
				continue
			}
			evs = append(evs, ev)
		}
		return evs, errs
	}
	seqEvs, seqErrs := collect(1)
	parEvs, parErrs := collect(4)
	if len(seqEvs) != 6001 || len(seqErrs) != 2 {
		t.Fatalf("sequential: %d events, errors %q", len(seqEvs), seqErrs)
	}
	if !slices.Equal(seqErrs, parErrs) {
		t.Errorf("errors differ:\n%q\n%q", seqErrs, parErrs)
	}
	if len(parEvs) != len(seqEvs) {
		t.Fatalf("%d events in parallel, %d in sequence", len(parEvs), len(seqEvs))
	}
	for i := range seqEvs {
		a, p := seqEvs[i], parEvs[i]
		if a.Seq != p.Seq || !bytes.Equal(a.Raw, p.Raw) || a.Offset != p.Offset || a.Line != p.Line || a.Pair != p.Pair ||
			a.Method != p.Method || a.Kind != p.Kind || !reflect.DeepEqual(a.Problems, p.Problems) || !a.Time.Equal(p.Time) {
			t.Fatalf("event %d differs:\n%+v\n%+v", i, a, p)
		}
	}
	// Stopping early: the workers go away.
	old := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(old)
	before := runtime.NumGoroutine()
	tr := openBytes(t, b.Bytes())
	n := 0
	for range tr.Events() {
		if n++; n == 1000 {
			break
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before {
		t.Errorf("%d goroutines after stopping early, %d before", g, before)
	}
}
