package mcpclient

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// split feeds reads to a stderrSplitter and returns the frames' bytes.
func split(reads ...string) []string {
	var sp stderrSplitter
	var out []string
	emit := func(f Frame) { out = append(out, string(f.Raw)) }
	for _, r := range reads {
		sp.Feed([]byte(r), true, emit)
	}
	sp.End(emit)
	return out
}

// Issue 24 §5: stderr is cut as a terminal shows it: lines, a progress bar's redraws as
// they come, an unfinished line at the end of its read.
func TestStderrSplitter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		reads []string
		want  []string
	}{
		{"lines", []string{"a\nb\n"}, []string{"a\n", "b\n"}},
		{"crlf kept whole", []string{"a\r\nb\r\n"}, []string{"a\r\n", "b\r\n"}},
		{"crlf split between reads", []string{"a\r", "\nb\n"}, []string{"a", "\r\n", "b\n"}},
		{"tqdm redraws", []string{"\r 10%|█", "\r 20%|██", "\r100%|███\n"}, []string{"\r 10%|█", "\r 20%|██", "\r100%|███\n"}},
		{"redraws in one read", []string{"\r1\r2\r3\n"}, []string{"\r1", "\r2", "\r3\n"}},
		{"trailing-CR bars", []string{"10%\r", "20%\r", "done\n"}, []string{"10%", "\r20%", "\rdone\n"}},
		{"unfinished line continued", []string{"Loading… ", "done\n"}, []string{"Loading… ", "done\n"}},
		{"no end at EOF", []string{"bye"}, []string{"bye"}},
		{"a held CR at EOF", []string{"x\r"}, []string{"x", "\r"}},
	} {
		if got := split(c.reads...); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	// A long line that arrives in pieces waits for its end (one frame), up to the bound.
	long := strings.Repeat("x", 3*stderrOpenMax)
	if got := split(long[:stderrOpenMax+1], long[stderrOpenMax+1:]+"\n"); len(got) != 1 || got[0] != long+"\n" {
		t.Errorf("a long line in two reads: %d frames", len(got))
	}
	// A read that filled its buffer holds a line it cut for the rest.
	var sp stderrSplitter
	var got []string
	emit := func(f Frame) { got = append(got, string(f.Raw)) }
	sp.Feed([]byte("a\nflo"), false, emit)
	sp.Feed([]byte("od 2\n"), true, emit)
	if strings.Join(got, "|") != "a\n|flood 2\n" {
		t.Errorf("a line cut by a full read: %q", got)
	}
	huge := strings.Repeat("y", stderrFrameMax+10)
	if got := split(huge); len(got) != 1 || len(got[0]) != len(huge) {
		t.Errorf("a line over the frame bound in one read: %d frames", len(got))
	}
}

// Whatever the reads, the frames are the stream's exact bytes, at their offsets.
func TestStderrSplitterKeepsEveryByte(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab\r\n ")
	for round := range 500 {
		stream := make([]byte, r.IntN(200))
		for i := range stream {
			stream[i] = alphabet[r.IntN(len(alphabet))]
		}
		var sp stderrSplitter
		var got []byte
		emit := func(f Frame) {
			if f.Offset != int64(len(got)) || f.Size != int64(len(f.Raw)) || len(f.Raw) == 0 {
				t.Fatalf("round %d: frame at %d (size %d, %d bytes) after %d bytes", round, f.Offset, f.Size, len(f.Raw), len(got))
			}
			got = append(got, f.Raw...)
		}
		for rest := stream; len(rest) > 0; {
			n := 1 + r.IntN(len(rest))
			sp.Feed(rest[:n], r.IntN(2) == 0, emit)
			rest = rest[n:]
		}
		sp.End(emit)
		if !bytes.Equal(got, stream) {
			t.Fatalf("round %d: %q became %q", round, stream, got)
		}
	}
}

// The tail reads as the terminal would show it: redraws replace the unfinished line,
// pieces continue it, and Live is the progress state while the line is unfinished.
func TestStderrTail(t *testing.T) {
	t.Parallel()
	tl := StderrTail{Keep: 3}
	for _, f := range split("starting\n", "\r 10%|█", "\r 50%|███") {
		tl.Add([]byte(f))
	}
	if live, ok := tl.Live(); !ok || live != " 50%|███" {
		t.Fatalf("live %q %v", live, ok)
	}
	for _, f := range split("\r100%|█████\n", "Loading… ", "done\n", "last\n") {
		tl.Add([]byte(f))
	}
	if _, ok := tl.Live(); ok {
		t.Fatal("a finished line is live")
	}
	if got := strings.Join(tl.Lines(10), "|"); got != "100%|█████|Loading… done|last" {
		t.Fatalf("lines %q", got)
	}
	if tl.Count() != 4 {
		t.Fatalf("count %d", tl.Count())
	}
	// A line continued without end keeps its start and says how much more came.
	tl = StderrTail{Keep: 2}
	for range 3 {
		tl.Add(bytes.Repeat([]byte("z"), stderrLineMax))
	}
	if l := tl.Lines(1)[0]; !strings.HasPrefix(l, "zzz") || !strings.HasSuffix(l, " … (8192 bytes more)") || len(l) > stderrLineMax+40 {
		t.Fatalf("long line: %d bytes, ends %q", len(l), l[len(l)-30:])
	}
}
