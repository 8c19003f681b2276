package tap

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/trace"
)

// DroppedError is returned by Stream.Next when the tap disconnected the viewer for falling
// too far behind.
type DroppedError struct{ Reason string }

func (e *DroppedError) Error() string { return "dropped by the tap: " + e.Reason }

// QueryInfo asks the tap listening on socket for its Info.
func QueryInfo(socket string, timeout time.Duration) (Info, error) {
	c, err := net.DialTimeout("unix", socket, timeout)
	if err != nil {
		return Info{}, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(timeout))
	if _, err := c.Write([]byte(`{"op":"info"}` + "\n")); err != nil {
		return Info{}, err
	}
	line, err := bufio.NewReader(c).ReadBytes('\n')
	if err != nil {
		return Info{}, fmt.Errorf("%s: %w", socket, err)
	}
	if ctl, reason := control(line); ctl != "" {
		return Info{}, fmt.Errorf("%s: %s: %s", socket, ctl, reason)
	}
	var info Info
	if err := json.Unmarshal(line, &info); err != nil {
		return Info{}, fmt.Errorf("%s: %w", socket, err)
	}
	info.Socket = socket
	return info, nil
}

// control decodes a control line ({"tap":...}); what is "" for a trace line.
func control(line []byte) (what, reason string) {
	if !bytes.HasPrefix(line, []byte(`{"tap":`)) {
		return "", ""
	}
	var c struct {
		Tap    string `json:"tap"`
		Reason string `json:"reason"`
	}
	if json.Unmarshal(line, &c) != nil {
		return "", ""
	}
	return c.Tap, c.Reason
}

// Stream is an attached viewer's side of the socket: the trace header, then events as the
// tap sends them, with derived data (classification, pairing, stream offsets) recomputed as
// trace.Trace.Events does.
type Stream struct {
	// Header is the trace's header; HeaderLine its line as sent.
	Header     trace.Header
	HeaderLine []byte

	// OnNote, when set, receives what the tap says about the history that is not an error
	// (earlier events dropped by a tap with no trace file) as NextLine reads past it.
	OnNote func(reason string)

	conn  net.Conn
	br    *bufio.Reader
	holds holdState // breakpoints: what the tap says of them, and the ops sent
	pair  *mcpclient.Pairer
	offs  map[mcpclient.Direction]*[2]int64
	lines int64
}

// Attach connects to the tap listening on socket and reads the trace header.
func Attach(socket string) (*Stream, error) {
	c, err := net.DialTimeout("unix", socket, 5*time.Second)
	if err != nil {
		return nil, err
	}
	if _, err := c.Write([]byte(`{"op":"attach"}` + "\n")); err != nil {
		c.Close()
		return nil, err
	}
	s := &Stream{conn: c, br: bufio.NewReaderSize(c, 256<<10), pair: mcpclient.NewPairer(), offs: map[mcpclient.Direction]*[2]int64{}}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := readLine(s.br)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("%s: reading the trace header: %w", filepath.Base(socket), err)
	}
	_ = c.SetReadDeadline(time.Time{})
	if ctl, reason := control(line); ctl != "" {
		c.Close()
		return nil, fmt.Errorf("%s: %s", ctl, reason)
	}
	s.Header, err = trace.ParseHeader(line)
	if err != nil {
		c.Close()
		return nil, err
	}
	s.HeaderLine = line
	return s, nil
}

// NextLine returns the next trace line exactly as the tap sent it (newline included), for
// a viewer that stores or forwards the trace. Control lines are returned as errors, as by
// Next; io.EOF ends the stream.
func (s *Stream) NextLine() ([]byte, error) {
	line, err := s.nextLine()
	if err != nil {
		s.holds.close()
	}
	return line, err
}

func (s *Stream) nextLine() ([]byte, error) {
	for {
		line, err := readLine(s.br)
		if len(bytes.TrimSpace(line)) == 0 {
			if err != nil {
				return nil, err
			}
			continue
		}
		if s.holds.take(line) {
			continue
		}
		if ctl, reason := control(line); ctl != "" {
			if ctl == "history-dropped" {
				if s.OnNote != nil {
					s.OnNote(reason)
				}
				continue
			}
			if ctl == "dropped" {
				return nil, &DroppedError{Reason: reason}
			}
			return nil, fmt.Errorf("tap: %s: %s", ctl, reason)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if err != nil {
			return nil, io.EOF // a line cut short: the tap went away mid-write
		}
		return line, nil
	}
}

// Next returns the next event. It returns io.EOF when the tap's session ended (or the tap
// went away) and a *DroppedError when the tap dropped this viewer. A tap with no trace
// file that dropped earlier events says so first: a lifecycle note with Seq 0. A trace line that cannot
// be read is skipped.
func (s *Stream) Next() (mcpclient.Event, error) {
	ev, err := s.next()
	if err != nil {
		s.holds.close()
	}
	return ev, err
}

func (s *Stream) next() (mcpclient.Event, error) {
	for {
		line, err := readLine(s.br)
		if len(bytes.TrimSpace(line)) == 0 {
			if err != nil {
				if errors.Is(err, net.ErrClosed) {
					err = io.EOF
				}
				return mcpclient.Event{}, err
			}
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return mcpclient.Event{}, err
		}
		if s.holds.take(line) {
			continue
		}
		if ctl, reason := control(line); ctl != "" {
			if ctl == "history-dropped" {
				// Shown as the first row: Seq 0 and the trace's start sort before every
				// event kept.
				return mcpclient.Event{Seq: 0, Time: s.Header.Start, Dir: mcpclient.Lifecycle, Kind: mcpclient.KindLifecycle,
					Life: &mcpclient.LifeInfo{Kind: mcpclient.LifeNote, Text: reason}}, nil
			}
			if ctl == "dropped" {
				return mcpclient.Event{}, &DroppedError{Reason: reason}
			}
			return mcpclient.Event{}, fmt.Errorf("tap: %s: %s", ctl, reason)
		}
		r, perr := trace.ParseRecord(line)
		if perr != nil {
			if err != nil {
				// The stream ended in the middle of a line.
				return mcpclient.Event{}, io.EOF
			}
			continue
		}
		ev := r.Event(s.Header.Start)
		if ev.Dir != mcpclient.Lifecycle {
			o := s.offs[ev.Dir]
			if o == nil {
				o = &[2]int64{}
				s.offs[ev.Dir] = o
			}
			ev.Offset = o[0]
			o[1]++
			ev.Line = o[1]
			o[0] += ev.Size
		}
		s.pair.Add(&ev)
		s.lines++
		return ev, nil
	}
}

// Close detaches.
func (s *Stream) Close() error { return s.conn.Close() }

// readLine reads one whole line of any length (a 10 MB message is one line), as a copy.
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err == nil {
		return append([]byte(nil), line...), nil
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		return append([]byte(nil), line...), err
	}
	buf := append([]byte(nil), line...)
	for {
		line, err = br.ReadSlice('\n')
		buf = append(buf, line...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return buf, err
		}
	}
}

// Title is a one-line description of a tap for lists and the TUI header.
func (i Info) Title() string {
	return fmt.Sprintf("tap %s: %s", i.Name, strings.Join(i.Argv, " "))
}
