package mcpclient

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/platform"
)

// ListenNote starts every lifecycle note about the GET stream for server messages
// unrelated to a request (MCP 2025-11-25 basic/transports §Listening for Messages from
// the Server): it ended, was resumed, or could not be opened again.
const ListenNote = "GET stream: "

// startListen opens the optional GET stream for server messages unrelated to a request
// (legacy era); 405 means the server offers none, which is normal and stays silent. When
// the stream ends it is resumed with Last-Event-ID after the server's retry delay (MCP
// 2025-11-25 basic/transports §Resumability and Redelivery); each end and each failed
// reconnection is a lifecycle note, so a server that went away shows on the wire.
func (t *streamable) startListen() <-chan struct{} {
	opened := make(chan struct{})
	t.mu.Lock()
	if t.listening {
		t.mu.Unlock()
		close(opened)
		return opened
	}
	t.listening = true
	t.mu.Unlock()
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		once := sync.OnceFunc(func() { close(opened) })
		defer once()
		t.listen(once)
	}()
	return opened
}

// listen runs the GET stream and its reconnections until the session closes, the server
// refuses or answers otherwise, or maxReconnects reconnections bring no new event.
func (t *streamable) listen(opened func()) {
	last, retry, idle := "", time.Duration(-1), 0
	for again := false; t.ctx.Err() == nil; again = true {
		resp, err := t.get(t.ctx, last)
		opened()
		if err != nil {
			if t.ctx.Err() == nil && again {
				t.c.noteCond(NoteStreamLost, ListenNote+"reconnect failed: "+netReason(err)+"; the server may be gone; requests will tell")
			} else if t.ctx.Err() == nil {
				t.c.noteCond(NoteStreamLost, ListenNote+"could not open: "+netReason(err))
			}
			return
		}
		ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		if resp.StatusCode != http.StatusOK || ct != "text/event-stream" {
			t.drainBody(resp, true)
			resp.Body.Close()
			switch {
			case resp.StatusCode != http.StatusMethodNotAllowed:
				t.c.problem(Problem{Warning, CodeHTTPStatus, fmt.Sprintf("GET for the server's event stream answered %s; MCP says an event stream or 405 Method Not Allowed", resp.Status)})
			case again:
				t.c.noteCond(NoteStreamLost, ListenNote+"reconnect answered 405 Method Not Allowed: the server no longer offers the stream")
			}
			return
		}
		nl, nr, _, rerr := t.readSSE(t.ctx, resp.Body, outFrame{}, nil)
		t.c.emitEncoded(resp)
		resp.Body.Close()
		if t.ctx.Err() != nil {
			return // the session is closing: its own end, not the server's
		}
		if nr >= 0 {
			retry = nr
		}
		if nl == "" || nl == last {
			idle++
		} else {
			idle, last = 0, nl
		}
		wait := retry
		if wait < 0 {
			wait = defaultRetry
		}
		if idle >= maxReconnects {
			t.c.noteCond(NoteStreamLost, fmt.Sprintf("%sended: %s; not reconnecting: %d reconnections in a row brought no new event", ListenNote, netReason(rerr), idle))
			return
		}
		how := "reconnecting in " + wait.String()
		if last != "" {
			how += " with Last-Event-ID " + last
		}
		t.c.note(ListenNote + "ended: " + netReason(rerr) + "; " + how)
		select {
		case <-time.After(wait):
		case <-t.ctx.Done():
			return
		}
	}
}

// netReason says briefly why a connection or stream ended: "EOF (the server closed the
// stream)", "connection refused", "connection reset", or the error without the URL.
func netReason(err error) string {
	switch {
	case err == nil || errors.Is(err, io.EOF):
		return "EOF (the server closed the stream)"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "unexpected EOF (the connection broke mid-stream)"
	case platform.IsConnRefused(err):
		return "connection refused"
	case platform.IsConnReset(err):
		return "connection reset"
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timeout: " + err.Error()
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}
