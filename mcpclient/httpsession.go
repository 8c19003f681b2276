package mcpclient

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Sessions of the Streamable HTTP transport (MCP 2025-11-25 basic/transports §Session
// Management): following the id across answers, and a server that forgot it.

// sessionHeaders follows the session across a POST's answer: a changed Mcp-Session-Id is
// flagged, initialize's answer opens the session, and after notifications/initialized the
// legacy GET stream is opened (MCP 2025-11-25 basic/transports §Session Management).
func (t *streamable) sessionHeaders(f outFrame, resp *http.Response, sid string, modern bool) {
	if got := resp.Header.Get(HeaderSessionID); sid != "" && got != "" && got != sid {
		t.c.problem(Problem{Warning, CodeHTTPSessionChanged, fmt.Sprintf("the response carries Mcp-Session-Id %q, but the session is %q; a session id comes only with the initialize response", got, sid)})
	}
	if f.msg != nil && f.msg.Method == "initialize" && resp.StatusCode/100 == 2 {
		t.mu.Lock()
		t.sessionID = resp.Header.Get(HeaderSessionID)
		old, now := t.dropped, t.sessionID
		t.dropped = ""
		t.mu.Unlock()
		if old != "" {
			if now == "" {
				now = "(no id)"
			}
			t.c.note("new session " + now + " replaces session " + old + ": the session boundary (what came before belongs to the old session)")
		}
	}
	if f.msg != nil && f.msg.Method == "notifications/initialized" && resp.StatusCode/100 == 2 && !modern {
		// Wait (briefly) for the GET stream to be open before the next request: a server
		// sends messages unrelated to a request there, and drops them while it has none.
		waitAny(t.startListen(), listenWait)
	}
}

// dropSession ends the session the server forgot: a new initialize starts a new one, with
// its own id, version and GET stream. The request fails with err.
func (t *streamable) dropSession(f outFrame, err *SessionExpiredError) {
	t.mu.Lock()
	if t.sessionID == err.SessionID {
		t.sessionID, t.protocol, t.listening = "", "", false
		t.dropped = err.SessionID
	}
	t.mu.Unlock()
	if err.Status == 0 || err.Status == http.StatusNotFound {
		t.c.note("session " + err.SessionID + " expired: the server answered 404; a new session needs initialize")
	} else {
		t.c.problem(Problem{Warning, CodeHTTPSessionStatus, fmt.Sprintf("the server seems to have dropped session %s: it answered %d (%q); MCP says 404 (basic/transports §Session Management)", err.SessionID, err.Status, err.Said)})
	}
	t.fail(f, err)
}

// droppedSession reports whether an answer to a request that carried a session id reads as
// the server no longer knowing the session: a 400 or 401 whose body, or a JSON-RPC error
// without an id whose message, speaks of the session (what the TypeScript SDK answers:
// "Bad Request: No valid session ID provided", -32000, id null). It returns what the
// server said.
func droppedSession(status int, body []byte) (said string, ok bool) {
	var m struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	text := strings.TrimSpace(string(body))
	if json.Unmarshal(body, &m) == nil && m.Error != nil {
		if m.ID != nil && string(m.ID) != "null" {
			return "", false // an error response to a request: not about the session
		}
		text = m.Error.Message
	} else if status/100 == 2 {
		return "", false
	}
	if !strings.Contains(strings.ToLower(text), "session") {
		return "", false
	}
	if len(text) > 200 {
		text = text[:200] + "…"
	}
	switch status {
	case http.StatusBadRequest, http.StatusUnauthorized, http.StatusOK, http.StatusNotFound, http.StatusGone:
		return text, true
	}
	return "", false
}
