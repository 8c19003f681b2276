package tap

import (
	"bufio"
	"net"
	"strings"
	"time"
)

// expectGrace is how long the body of an Expect: 100-continue request may still be
// arriving after the server's final answer before the connection is given up.
const expectGrace = time.Second

// sentBody is the body of an Expect: 100-continue request as it was forwarded: its exact
// bytes (wire) and, de-chunked, its data.
type sentBody struct {
	wire, data []byte
	err        error
}

// expectContinue forwards a request that waits for 100 Continue before it sends its body
// (Expect: 100-continue). As RFC 9110 section 10.1.1 asks of a proxy, the head goes
// upstream at once; the server's interim 100 reaches the host as it comes (response
// forwards 1xx heads), and the body goes upstream as the host sends it. Waiting for the
// whole body first, as other requests do, would leave the host waiting for a 100 that
// never comes. keep reports whether the connection can carry another request.
func (t *httpTap) expectContinue(c net.Conn, br *bufio.Reader, cw *bufio.Writer, up *net.Conn, ubr **bufio.Reader, rh *head) (bool, error) {
	out := t.outHead(rh)
	method, _, _ := strings.Cut(rh.first, " ")
	start := time.Now()
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if *up == nil {
			if *up, err = t.dial(); err != nil {
				*up = nil
				break
			}
			t.track(*up, true)
			*ubr = bufio.NewReaderSize(*up, 32<<10)
		}
		// A kept-alive connection the server closed may take the head and fail only at
		// the read; the body streams, so the request cannot be sent again then.
		if _, err = (*up).Write(out); err == nil {
			break
		}
		t.track(*up, false)
		(*up).Close()
		*up = nil
	}
	if *up == nil {
		t.record([]httpItem{{t: start, kind: itemOut, raw: clone(out)}})
		t.badGateway(cw, err)
		return false, err
	}
	done := make(chan sentBody, 1)
	go forwardBody(br, *up, rh, done)
	keep, pend, err := t.response(*ubr, cw, method, []httpItem{{t: start, kind: itemOut}}, true)
	var s sentBody
	select {
	case s = <-done:
	case <-time.After(expectGrace):
		// The server answered (a final status instead of 100) and the host did not send
		// the rest: stop reading it; this connection ends.
		_ = c.SetReadDeadline(time.Now())
		s = <-done
		keep = false
	}
	if s.err != nil {
		keep = false
	}
	// As for other requests: the exact bytes, but a chunked body de-chunked.
	rec := append(clone(out), s.wire...)
	if rh.chunked {
		rec = append(clone(out), s.data...)
	}
	pend[0].raw, pend[0].body = rec, s.data
	t.record(pend)
	return keep, err
}

// forwardBody copies the body of the request rh from the host (br) to the upstream as it
// arrives, and sends what it copied on done.
func forwardBody(br *bufio.Reader, up net.Conn, rh *head, done chan<- sentBody) {
	var s sentBody
	fwd := func(raw, data []byte, _ bool) error {
		s.wire = append(s.wire, raw...)
		s.data = append(s.data, data...)
		_, err := up.Write(raw)
		return err
	}
	if rh.chunked {
		_, _, s.err = readChunked(br, fwd)
	} else {
		for n := rh.contentLength; n > 0 && s.err == nil; {
			p, err := br.Peek(min(int(n), max(br.Buffered(), 1)))
			if len(p) > 0 {
				s.err = fwd(p, p, false)
				n -= int64(len(p))
				_, _ = br.Discard(len(p))
			}
			if s.err == nil {
				s.err = err
			}
		}
	}
	done <- s
}
