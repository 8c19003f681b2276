package trace

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"sync"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// maxMockBody bounds the body of one POST the HTTP mock reads.
const maxMockBody = 64 << 20

// HTTPMock serves a Mock as a Streamable HTTP server (any path). A POSTed request is matched
// as on stdio and answered the way the recorded server answered that exchange: an event
// stream (what the server sent during the request, then the response) or one JSON body.
// Notifications and the client's replies get 202. When the recorded server issued session
// ids, initialize opens a session with a fresh Mcp-Session-Id, which later requests must
// carry (404 for an unknown one, 400 without one), and DELETE ends it; otherwise every POST
// shares one session and DELETE is 405. GET opens a stream only when the recording had one
// (405 otherwise); it carries what the recorded server sent outside a request's answer.
type HTTPMock struct {
	m        *Mock
	mu       sync.Mutex
	sessions map[string]*httpMockSession
	shared   *httpMockSession
	exit     chan *MockExit
}

type httpMockSession struct {
	*mockSession
	streamMu sync.Mutex
	streams  map[chan []byte]struct{} // open GET streams
}

// NewHTTPMock serves m over HTTP.
func NewHTTPMock(m *Mock) *HTTPMock {
	h := &HTTPMock{m: m, sessions: map[string]*httpMockSession{}, exit: make(chan *MockExit, 1)}
	h.shared = h.newSession()
	return h
}

// Exit delivers the end of the recorded server when it died during a request the mock was
// asked: the connection of that request is dropped and the caller should stop serving.
func (h *HTTPMock) Exit() <-chan *MockExit { return h.exit }

// Sessionful reports whether the mock issues session ids.
func (h *HTTPMock) Sessionful() bool { return h.m.sessionful }

func (h *HTTPMock) newSession() *httpMockSession {
	return &httpMockSession{
		mockSession: &mockSession{m: h.m, out: io.Discard, waiters: map[string]chan struct{}{}, exit: make(chan *MockExit, 1)},
		streams:     map[chan []byte]struct{}{},
	}
}

// session finds the session of r; status is non-zero (with a message) when there is none.
func (h *HTTPMock) session(r *http.Request, initialize bool) (s *httpMockSession, id string, status int, text string) {
	if !h.m.sessionful {
		return h.shared, "", 0, ""
	}
	id = r.Header.Get("Mcp-Session-Id")
	h.mu.Lock()
	defer h.mu.Unlock()
	if id == "" {
		if !initialize {
			return nil, "", http.StatusBadRequest, "Bad Request: Mcp-Session-Id header is required"
		}
		var b [16]byte
		_, _ = rand.Read(b[:])
		id = hex.EncodeToString(b[:])
		s = h.newSession()
		h.sessions[id] = s
		return s, id, 0, ""
	}
	s = h.sessions[id]
	if s == nil {
		return nil, "", http.StatusNotFound, "Session not found"
	}
	return s, id, 0, ""
}

// broadcast sends a frame to the session's GET streams; it is dropped when none is open.
func (s *httpMockSession) broadcast(b []byte) {
	s.streamMu.Lock()
	defer s.streamMu.Unlock()
	for ch := range s.streams {
		select {
		case ch <- b:
		default:
		}
	}
}

func (h *HTTPMock) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodGet:
		h.get(w, r)
	case http.MethodDelete:
		if !h.m.sessionful {
			w.Header().Set("Allow", "GET, POST")
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
			return
		}
		_, id, status, text := h.session(r, false)
		if status != 0 {
			http.Error(w, text, status)
			return
		}
		h.mu.Lock()
		delete(h.sessions, id)
		h.mu.Unlock()
		w.WriteHeader(http.StatusOK)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	}
}

func writeJSON(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func (h *HTTPMock) post(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxMockBody))
	if err != nil {
		http.Error(w, "Bad Request: "+err.Error(), http.StatusBadRequest)
		return
	}
	kind, msg, _ := mcpclient.Classify(bytes.TrimSpace(body))
	switch kind {
	case mcpclient.KindNotJSON, mcpclient.KindEmpty:
		writeJSON(w, http.StatusBadRequest, errorFrame(nil, -32700, "Parse error: the body is not JSON", nil))
		return
	case mcpclient.KindRequest, mcpclient.KindNotification, mcpclient.KindResponse, mcpclient.KindErrorResponse:
	default:
		writeJSON(w, http.StatusBadRequest, errorFrame(nil, -32600, "Invalid Request: the mock takes one JSON-RPC message per POST", nil))
		return
	}
	s, id, status, text := h.session(r, kind == mcpclient.KindRequest && msg.Method == "initialize")
	if status != 0 {
		writeJSON(w, status, errorFrame(nil, -32000, text, nil))
		return
	}
	if id != "" {
		w.Header().Set("Mcp-Session-Id", id)
	}
	switch kind {
	case mcpclient.KindNotification:
		w.WriteHeader(http.StatusAccepted)
		return
	case mcpclient.KindResponse, mcpclient.KindErrorResponse:
		s.mu.Lock()
		if ch, ok := s.waiters[idKey(msg.ID)]; ok {
			close(ch)
			delete(s.waiters, idKey(msg.ID))
		}
		s.mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
		return
	}
	e := s.match(msg)
	if e == nil {
		if msg.Method == "ping" {
			writeJSON(w, http.StatusOK, []byte(`{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"result":{}}`))
			return
		}
		code, text, data := h.m.miss(msg)
		writeJSON(w, http.StatusOK, errorFrame(msg.ID, code, text, data))
		return
	}
	if e.exit != nil {
		select {
		case h.exit <- &MockExit{Code: e.exit.code, Signal: e.exit.signal, Text: e.exit.text}:
		default:
		}
		panic(http.ErrAbortHandler) // the recorded server died here: drop the connection
	}
	want := idKey(msg.ID)
	isAnswer := func(b []byte) bool {
		k, rm, _ := mcpclient.Classify(b)
		return (k == mcpclient.KindResponse || k == mcpclient.KindErrorResponse) && idKey(rm.ID) == want
	}
	if !e.sse {
		var answer []byte
		s.play(r.Context(), e, msg, func(frames ...[]byte) {
			for _, b := range frames {
				if answer == nil && isAnswer(b) {
					answer = b
				} else {
					s.broadcast(b)
				}
			}
		})
		writeJSON(w, http.StatusOK, answer)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	if fl != nil {
		fl.Flush()
	}
	var wmu sync.Mutex
	answered := false
	s.play(r.Context(), e, msg, func(frames ...[]byte) {
		wmu.Lock()
		defer wmu.Unlock()
		for _, b := range frames {
			if answered {
				s.broadcast(b) // after the response the stream is over
				continue
			}
			answered = isAnswer(b)
			_, _ = w.Write(sseFrame(b))
		}
		if fl != nil {
			fl.Flush()
		}
	})
}

// sseFrame is one message event carrying b.
func sseFrame(b []byte) []byte {
	b = bytes.TrimRight(b, "\r\n")
	out := make([]byte, 0, len(b)+32)
	out = append(out, "event: message\ndata: "...)
	out = append(out, b...)
	return append(out, "\n\n"...)
}

func (h *HTTPMock) get(w http.ResponseWriter, r *http.Request) {
	if !h.m.getStream {
		w.Header().Set("Allow", "POST")
		http.Error(w, "Method Not Allowed: the recorded server had no GET stream", http.StatusMethodNotAllowed)
		return
	}
	s, id, status, text := h.session(r, false)
	if status != 0 {
		http.Error(w, text, status)
		return
	}
	if id != "" {
		w.Header().Set("Mcp-Session-Id", id)
	}
	ch := make(chan []byte, 64)
	s.streamMu.Lock()
	s.streams[ch] = struct{}{}
	s.streamMu.Unlock()
	defer func() {
		s.streamMu.Lock()
		delete(s.streams, ch)
		s.streamMu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	if fl != nil {
		fl.Flush()
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case b := <-ch:
			if _, err := w.Write(sseFrame(b)); err != nil {
				return
			}
			if fl != nil {
				fl.Flush()
			}
		}
	}
}
