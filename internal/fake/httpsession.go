package fake

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
)

// forgetful is a server with sessions that forgets the first one after it answered one
// request (besides initialize): every later request in session s1 (or in an unknown session)
// is answered as `how` says a dropped session is answered ("404", "400", "401", "200");
// later sessions work.
type forgetful struct {
	how    string
	mu     sync.Mutex
	next   int
	s1Used bool
}

func newForgetful(how string) *forgetful { return &forgetful{how: how} }

func (f *forgetful) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodDelete {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	m, ok := readRPC(w, r)
	if !ok {
		return
	}
	switch sid := r.Header.Get("Mcp-Session-Id"); {
	case m.Method == "initialize":
		f.mu.Lock()
		f.next++
		w.Header().Set("Mcp-Session-Id", "s"+strconv.Itoa(f.next))
		f.mu.Unlock()
	case m.ID != nil && !f.known(sid) && !f.firstOfS1(sid):
		f.drop(w)
		return
	}
	answerRPC(w, m, false)
}

// firstOfS1 reports whether this is session s1's first request (then answered).
func (f *forgetful) firstOfS1(sid string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if sid != "s1" || f.s1Used {
		return false
	}
	f.s1Used = true
	return true
}

// known reports whether sid is a session the server still has (s2 and later).
func (f *forgetful) known(sid string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, err := strconv.Atoi(sid[min(1, len(sid)):])
	return err == nil && len(sid) > 1 && sid[0] == 's' && n >= 2 && n <= f.next
}

// drop answers a request in a session the server forgot.
func (f *forgetful) drop(w http.ResponseWriter) {
	const tsSDK = `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}`
	switch f.how {
	case "404":
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "session not found")
		return
	case "401":
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, "Unauthorized: session expired")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if f.how == "400" {
		w.WriteHeader(http.StatusBadRequest)
	}
	fmt.Fprint(w, tsSDK)
}
