package oauth

import (
	"fmt"
	"net"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// callbackPath is the redirect URI's path on the loopback listener.
const callbackPath = "/callback"

// callback is the loopback redirect endpoint (RFC 8252 §7.3): 127.0.0.1 on a random port.
// It delivers the redirect whose state matches the pending authorization and answers any
// other with 400, so a forged redirect cannot complete it.
type callback struct {
	redirectURL string
	srv         *http.Server

	mu    sync.Mutex
	state string
	ch    chan callbackResult
}

type callbackResult struct {
	res *auth.AuthorizationResult
	err error
}

func listenCallback() (*callback, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	cb := &callback{redirectURL: fmt.Sprintf("http://127.0.0.1:%d%s", ln.Addr().(*net.TCPAddr).Port, callbackPath)}
	mux := http.NewServeMux()
	mux.HandleFunc(callbackPath, cb.serve)
	cb.srv = &http.Server{Handler: mux}
	go cb.srv.Serve(ln)
	return cb, nil
}

// expect arms the callback for state and returns the channel its redirect arrives on; ""
// disarms it.
func (cb *callback) expect(state string) <-chan callbackResult {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	cb.state = state
	cb.ch = nil
	if state == "" {
		return nil
	}
	cb.ch = make(chan callbackResult, 1)
	return cb.ch
}

func (cb *callback) serve(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	cb.mu.Lock()
	ch := cb.ch
	ok := ch != nil && q.Get("state") == cb.state
	if ok {
		cb.ch = nil
	}
	cb.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if !ok {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintln(w, "mcp-inspect: no authorization is waiting for this redirect (unknown or reused state)")
		return
	}
	if e := q.Get("error"); e != "" {
		ch <- callbackResult{err: &RefusedError{Code: e, Description: q.Get("error_description")}}
		fmt.Fprintf(w, "mcp-inspect: the authorization was refused (%s). You can close this tab.\n", e)
		return
	}
	if q.Get("code") == "" {
		ch <- callbackResult{err: fmt.Errorf("oauth: the authorization redirect has no code")}
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintln(w, "mcp-inspect: the redirect has no code")
		return
	}
	ch <- callbackResult{res: &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}}
	fmt.Fprintln(w, "mcp-inspect: authorized. You can close this tab and return to the terminal.")
}

func (cb *callback) close() error { return cb.srv.Close() }
