package mcpclient

import (
	"runtime"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
	"github.com/mcp-inspect/mcp-inspect/internal/platform/platformtest"
)

// TestObserveGatherThreadPriority: a gathering OnEvents consumer runs on a thread of its own
// BackgroundNice nice values below the process's (up to 19); without gathering it runs at
// the process's.
func TestObserveGatherThreadPriority(t *testing.T) {
	runtime.LockOSThread() // this thread's nice is the process's: no consumer ran on it
	base, err := platformtest.ThreadNice()
	runtime.UnlockOSThread()
	if err != nil {
		t.Fatal(err)
	}
	for _, gather := range []time.Duration{0, time.Millisecond} {
		nice := make(chan int, 1)
		c := startEcho(t, Config{ObserveGather: gather, OnEvents: func([]Event) {
			if n, err := platformtest.ThreadNice(); err == nil {
				select {
				case nice <- n:
				default:
				}
			}
		}}, nil)
		callEcho(t, c, 1)
		c.Close()
		want := base
		if gather > 0 {
			want = min(base+platform.BackgroundNice, 19)
		}
		if got := <-nice; got != want {
			t.Errorf("ObserveGather %v: the consumer's thread runs at nice %d, want %d", gather, got, want)
		}
	}
}
