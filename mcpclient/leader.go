package mcpclient

import (
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// Caller-reads mode (Config.CallerReads), a leader/follower reader for the server's stdout.
//
// By default a reader goroutine, parked in the runtime's poller, reads stdout, handles each
// frame and hands a response to its waiting caller over a channel: per call the poller
// wakes a thread, the reader runs, then the caller. On a small machine where waking threads
// and system calls are dear that is most of a call's cost. Here the caller that has just
// written its request takes the read role when it is free (it is the leader), reads stdout
// itself on its own thread with poll(2) and read(2) (no goroutine hand-off), feeds the
// same framing and frame handling the reader goroutine uses (handleFrame: events, pairing,
// server requests, progress, violations, recording), and returns as soon as its own
// response has been handled. Other callers meanwhile wait as followers; a leader that is
// done hands the role to the oldest of them. Leaders and followers run Client.wait's one
// loop (waiter.next): a leader reads between looks at its signals, the others block. The
// system calls are in internal/platform (pollfd_linux.go).
//
// Between calls a background goroutine reads what the server sends by itself
// (notifications, server requests, the end of the stream): once the role has been free for
// leaderIdleDelay it waits in the runtime's poller, on a copy of the descriptor registered
// only for that wait, for stdout to be readable, holding neither the role nor a thread,
// and takes the role just to read what came. A caller that takes the role meanwhile stops
// that wait and reads its own response.
//
// The background reader does not block in poll(2) itself (where only a system call that
// outlasts a sysmon tick gives the processor back): with several sessions in one process
// that stalled the next busy session by up to 40% over 10 ms (BenchmarkCallVsBare in a
// fixed order). Only when the descriptor cannot be copied does it, holding the role
// (holdAndRead).
//
// Exactly one goroutine holds the role at a time (l.mu orders the hand-overs); only it
// touches the descriptor, the framer and the read buffer, and only it closes the
// descriptor, at the end of the stream, so no read can meet a closed or reused descriptor
// and no byte is read twice or lost. l.mu is a leaf lock: handleFrame (c.mu) is never
// called with it held.

// leaderIdleDelay is how long the read role must stay free before the background reader
// starts waiting for stdout: far longer than the gap between two calls of a load generator, short enough
// that a notification sent between calls shows within tens of milliseconds.
const leaderIdleDelay = 10 * time.Millisecond

// leaderSlice bounds one poll(2) of a leader, so that a cancelled context ends the call
// within it (deadlines and timeouts are waited for exactly).
const leaderSlice = 20 * time.Millisecond

// idleSlice bounds one poll(2) of the background reader without the runtime's poller,
// which then looks for waiting callers to hand the role to.
const idleSlice = 250 * time.Millisecond

type leaderReader struct {
	c    *Client
	fd   int           // the read end of stdout: out of the runtime's poller, ours to close
	file *os.File      // set when fd is still this file's (detach could not copy it): close it instead
	kick chan struct{} // wakes the background reader waiting for the role to be free

	mu        sync.Mutex
	held      bool     // someone holds the read role
	gen       uint64   // counts takes of the role
	eof       bool     // the stream ended and the descriptor is closed
	bgWaiting bool     // the background reader waits on kick
	bgFile    *os.File // the background reader waits for this copy of fd to be readable
	followers []*follower

	// Only the role holder uses these.
	fr  *Framer
	buf []byte

	// ledFrames and idleFrames count the frames handled by leading callers and by the
	// background reader (tests check which path ran); kicks counts the background reader's
	// wake-ups by a released role.
	ledFrames, idleFrames, kicks atomic.Int64
}

// follower is a caller waiting for its response while another goroutine holds the role.
type follower struct {
	wake     chan struct{} // signalled once when promoted
	promoted bool          // under mu: the role is now this follower's
}

// newLeaderReader takes over f, the read end of the server's stdout.
func newLeaderReader(c *Client, f *os.File) *leaderReader {
	fd, keep := platform.DetachFD(f)
	l := &leaderReader{c: c, fd: fd, file: keep, kick: make(chan struct{}, 1), fr: NewPushFramer(c.cfg.MaxMessage), buf: make([]byte, 64<<10)}
	go l.background()
	return l
}

// takeRole reports whether the caller now holds the read role: it was promoted, or the role
// was free. Otherwise the caller is (or stays) a follower, *fw; after the end of the stream
// it is none, and nobody will lead again.
func (l *leaderReader) takeRole(fw **follower) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if f := *fw; f != nil {
		if f.promoted {
			*fw = nil // the promoter took it off the list
			return true
		}
		if l.eof {
			l.dropFollowerLocked(f)
			*fw = nil
			return false
		}
	}
	if l.eof {
		return false
	}
	if !l.held {
		l.held = true
		l.gen++
		if l.bgFile != nil {
			// The background reader waits for readability: stop it, the caller reads now.
			_ = l.bgFile.SetReadDeadline(time.Unix(1, 0))
			l.bgFile = nil
		}
		if *fw != nil {
			l.dropFollowerLocked(*fw)
			*fw = nil
		}
		return true
	}
	if *fw == nil {
		*fw = &follower{wake: make(chan struct{}, 1)}
		l.followers = append(l.followers, *fw)
	}
	return false
}

// leave takes a follower that stops waiting off the list; one that was promoted meanwhile
// holds the role and passes it on.
func (l *leaderReader) leave(fw *follower) {
	if fw == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if fw.promoted {
		l.releaseLocked()
		return
	}
	l.dropFollowerLocked(fw)
}

func (l *leaderReader) dropFollowerLocked(fw *follower) {
	if i := slices.Index(l.followers, fw); i >= 0 {
		l.followers = slices.Delete(l.followers, i, i+1)
	}
}

// releaseLocked gives up the role held by the caller: to the oldest follower, else it is
// free and a background reader waiting for that is woken.
func (l *leaderReader) releaseLocked() {
	if len(l.followers) > 0 && !l.eof {
		f := l.followers[0]
		l.followers = slices.Delete(l.followers, 0, 1)
		f.promoted = true
		select {
		case f.wake <- struct{}{}:
		default: // already woken (its buffer holds one signal)
		}
		return // held stays true: the role is f's now
	}
	l.held = false
	if l.bgWaiting {
		l.bgWaiting = false
		select {
		case l.kick <- struct{}{}:
		default:
		}
	}
}

func (l *leaderReader) release() {
	l.mu.Lock()
	l.releaseLocked()
	l.mu.Unlock()
}

// lead reads stdout for the caller that holds the role (Client.wait's loop), for up to d,
// and handles the frames it completes; it reports the end of the stream.
func (l *leaderReader) lead(d time.Duration) (eof bool) {
	// No pass through the scheduler first: the event consumers this call made runnable
	// run on another thread while this one waits in poll(2). Running them here first
	// (a Gosched before each read) put their work between the request's write and the
	// wait, long enough for the kernel to wake the server on the other CPU, by then idle:
	// the real bench call made 43 000 calls/s with it and 65 000 without on the quiet
	// 2-core machine, 47 000 and 57 000 with builds running (issue 29, docs/performance.md).
	return l.readOnce(d, &l.ledFrames)
}

// readOnce waits up to d for stdout to be readable, reads what is there and handles the
// frames it completes, counting them in frames. It reports the end of the stream (then
// handled and the descriptor closed). The caller holds the role.
func (l *leaderReader) readOnce(d time.Duration, frames *atomic.Int64) (eof bool) {
	ready, err := platform.PollIn(l.fd, d)
	if err != nil {
		return l.end()
	}
	if !ready {
		return false
	}
	n, again, err := platform.ReadFD(l.fd, l.buf)
	if again {
		return false
	}
	if n <= 0 || err != nil {
		return l.end()
	}
	l.fr.Feed(l.buf[:n], func(f Frame) {
		frames.Add(1)
		l.handle(f)
	})
	return false
}

// handle passes one frame to the client; the push framer lends frames, events keep them.
func (l *leaderReader) handle(f Frame) {
	f.Raw = append([]byte(nil), f.Raw...)
	l.c.waitRoom()
	l.c.handleFrame(f)
}

// end handles the end of stdout as readStdout does (an unterminated tail is a partial
// frame), closes the descriptor and tells the supervisor.
func (l *leaderReader) end() bool {
	l.fr.End(l.handle)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.eof = true
	if l.file != nil {
		l.file.Close()
	} else {
		platform.CloseFD(l.fd)
	}
	close(l.c.stdoutEOF)
	for _, f := range l.followers {
		// Nobody leads any more: followers wait for the supervisor's verdict.
		select {
		case f.wake <- struct{}{}:
		default:
		}
	}
	if l.bgWaiting {
		l.bgWaiting = false
		select {
		case l.kick <- struct{}{}:
		default:
		}
	}
	return true
}

// background reads stdout while no caller does, once the role has been free for
// leaderIdleDelay; it ends with the stream. It waits for stdout to be readable in the
// runtime's poller, holding neither the role nor a thread, and takes the role only to read
// what came; a caller that takes the role meanwhile stops the wait (takeRole).
func (l *leaderReader) background() {
	t := time.NewTimer(leaderIdleDelay)
	t.Stop()
	again := false // the last take of the role was ours: wait again at once
	for {
		l.mu.Lock()
		if l.held && !l.eof {
			// Woken by the role's release, it waits leaderIdleDelay whether or not a caller
			// has taken the role again meanwhile (gen tells): waiting for the role to be
			// free again would have it woken once a call, the release of each call making
			// it runnable on the caller's processor while the caller waits in poll(2), where
			// the runtime takes the processor from the caller to run it.
			l.bgWaiting = true
			l.mu.Unlock()
			<-l.kick
			l.kicks.Add(1)
			l.mu.Lock()
		}
		if l.eof {
			l.mu.Unlock()
			return
		}
		gen := l.gen
		l.mu.Unlock()
		if !again {
			t.Reset(leaderIdleDelay)
			<-t.C
		}
		again = false
		l.mu.Lock()
		if l.held || l.gen != gen || l.eof {
			l.mu.Unlock()
			continue
		}
		f, err := platform.PollerFile(l.fd)
		if err != nil {
			// No poller: read with the role held, in poll(2) (see "Known cost" above).
			l.held = true
			l.gen++
			l.mu.Unlock()
			if l.holdAndRead() {
				return
			}
			continue
		}
		l.bgFile = f
		l.mu.Unlock()
		readable := awaitReadable(f)
		// A request in flight whose caller has not taken the role yet (it registers, writes,
		// then takes the role) reads what came itself: its response, most likely.
		inFlight := readable && l.c.pendingCount() > 0
		l.mu.Lock()
		if l.bgFile == f {
			l.bgFile = nil
		}
		take := readable && !inFlight && !l.held && !l.eof
		if take {
			l.held = true
			l.gen++
		}
		mine := l.gen
		l.mu.Unlock()
		f.Close()
		if !take {
			continue
		}
		if l.readOnce(0, &l.idleFrames) {
			return
		}
		l.mu.Lock()
		again = l.gen == mine && len(l.followers) == 0
		l.releaseLocked()
		l.mu.Unlock()
	}
}

// CallerReading reports whether the session runs in caller-reads mode: Config.CallerReads
// asked for it, the server is a process on stdio (not a URL) and the platform has the
// system calls (Linux).
func (c *Client) CallerReading() bool { return c.lr != nil }

// pendingCount is how many requests await their response.
func (c *Client) pendingCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}

// awaitReadable parks until f is readable (or at its end) in the runtime's poller; false
// when the wait was stopped (its read deadline set) or failed.
func awaitReadable(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	// Look before each wait: the poller only reports new data (edge-triggered), and data
	// already there when the wait began would otherwise never be reported.
	err = rc.Read(func(fd uintptr) bool {
		ready, err := platform.PollIn(int(fd), 0)
		return ready || err != nil
	})
	return err == nil
}

// holdAndRead is the background reader without the runtime's poller: it holds the role
// and reads in poll(2) until a caller waits, or the stream ends (true).
func (l *leaderReader) holdAndRead() bool {
	for {
		if l.readOnce(idleSlice, &l.idleFrames) {
			return true
		}
		l.mu.Lock()
		if len(l.followers) > 0 {
			// A caller waits: it reads its own response from now on.
			l.releaseLocked()
			l.mu.Unlock()
			return false
		}
		l.mu.Unlock()
	}
}
