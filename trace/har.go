package trace

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// HAR writes the HTTP exchanges of a trace of a remote server as a HAR 1.2 log (W3C Web
// Performance WG "HTTP Archive (HAR) format", version 1.2), the format browser devtools and
// mitmproxy open: one entry per HTTP request, with its response's status, headers and body
// (decoded when it came content-encoded; an SSE stream as its frames, in order) and the
// timings the trace measured (wait: request to response head; receive: head to the body's
// last event). Credential headers and OAuth credentials in bodies are masked, as in a trace
// recorded with redaction, whatever the trace holds. It returns the number of entries.
func HAR(t *Trace, w io.Writer, creatorVersion string) (int, error) {
	b := harBuilder{byReq: map[uint64]*harEntry{}}
	for r, err := range t.Records() {
		if err != nil {
			continue // an unreadable line: the entries around it are still written
		}
		b.add(r)
	}
	scheme := "http"
	if strings.HasPrefix(strings.ToLower(t.Header.URL), "https:") {
		scheme = "https"
	}
	doc := harDoc{Log: harLog{Version: "1.2", Creator: harCreator{Name: "mcp-inspect", Version: creatorVersion}, Pages: []any{}, Entries: []harJSONEntry{}}}
	for _, e := range b.order {
		doc.Log.Entries = append(doc.Log.Entries, e.json(scheme))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return len(doc.Log.Entries), enc.Encode(doc)
}

// harBuilder pairs the records: a response's events name their request (Record.Exchange);
// a trace written before exchanges were stored pairs a head with the oldest request still
// waiting for one.
type harBuilder struct {
	order   []*harEntry
	byReq   map[uint64]*harEntry
	waiting []*harEntry
	last    *harEntry // the entry of the last head, for bodies of old traces
}

type harEntry struct {
	req, head *Record
	bodies    []*Record
	lastMono  int64
}

func (b *harBuilder) add(r *Record) {
	switch r.Dir {
	case mcpclient.HTTPOut:
		e := &harEntry{req: r, lastMono: r.Mono}
		b.order = append(b.order, e)
		b.byReq[r.Seq] = e
		b.waiting = append(b.waiting, e)
		return
	case mcpclient.HTTPIn:
	default:
		return
	}
	e := b.byReq[r.Exchange]
	if e == nil && r.HTTPKind == "head" && len(b.waiting) > 0 {
		e = b.waiting[0]
	}
	if e == nil && r.Exchange == 0 {
		e = b.last
	}
	if e == nil {
		return
	}
	if r.HTTPKind == "head" {
		e.head = r
		b.last = e
		for i, x := range b.waiting {
			if x == e {
				b.waiting = append(b.waiting[:i], b.waiting[i+1:]...)
				break
			}
		}
	} else {
		e.bodies = append(e.bodies, r)
	}
	e.lastMono = max(e.lastMono, r.Mono)
}

// The HAR 1.2 shapes mcp-inspect writes (required members only, and comment).
type (
	harDoc struct {
		Log harLog `json:"log"`
	}
	harLog struct {
		Version string         `json:"version"`
		Creator harCreator     `json:"creator"`
		Pages   []any          `json:"pages"`
		Entries []harJSONEntry `json:"entries"`
	}
	harCreator struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	harJSONEntry struct {
		StartedDateTime string      `json:"startedDateTime"`
		Time            float64     `json:"time"`
		Request         harRequest  `json:"request"`
		Response        harResponse `json:"response"`
		Cache           struct{}    `json:"cache"`
		Timings         harTimings  `json:"timings"`
		Comment         string      `json:"comment,omitempty"`
	}
	harNV struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	harRequest struct {
		Method      string       `json:"method"`
		URL         string       `json:"url"`
		HTTPVersion string       `json:"httpVersion"`
		Cookies     []harNV      `json:"cookies"`
		Headers     []harNV      `json:"headers"`
		QueryString []harNV      `json:"queryString"`
		PostData    *harPostData `json:"postData,omitempty"`
		HeadersSize int          `json:"headersSize"`
		BodySize    int          `json:"bodySize"`
	}
	harPostData struct {
		MimeType string `json:"mimeType"`
		Text     string `json:"text"`
	}
	harResponse struct {
		Status      int        `json:"status"`
		StatusText  string     `json:"statusText"`
		HTTPVersion string     `json:"httpVersion"`
		Cookies     []harNV    `json:"cookies"`
		Headers     []harNV    `json:"headers"`
		Content     harContent `json:"content"`
		RedirectURL string     `json:"redirectURL"`
		HeadersSize int        `json:"headersSize"`
		BodySize    int64      `json:"bodySize"`
	}
	harContent struct {
		Size        int64  `json:"size"`
		Compression int64  `json:"compression,omitempty"`
		MimeType    string `json:"mimeType"`
		Text        string `json:"text,omitempty"`
		Encoding    string `json:"encoding,omitempty"`
	}
	harTimings struct {
		Send    float64 `json:"send"`
		Wait    float64 `json:"wait"`
		Receive float64 `json:"receive"`
	}
)

// json is the entry as HAR: what the trace kept of the request and its response; an
// exchange that got no response (a refused connection, the end of the session) has status 0.
func (e *harEntry) json(scheme string) harJSONEntry {
	out := harJSONEntry{StartedDateTime: e.req.Wall.UTC().Format(time.RFC3339Nano)}
	out.Request = harRequestOf(e.req, scheme)
	out.Response = harResponse{Cookies: []harNV{}, Headers: []harNV{}, HeadersSize: -1, BodySize: -1}
	if e.head == nil {
		out.Comment = "no response in the trace"
		return out
	}
	out.Response = harResponseOf(e.head, e.bodies)
	ms := func(d int64) float64 { return float64(max(d, 0)) / float64(time.Millisecond) }
	out.Timings = harTimings{Wait: ms(e.head.Mono - e.req.Mono), Receive: ms(e.lastMono - e.head.Mono)}
	out.Time = out.Timings.Wait + out.Timings.Receive
	return out
}

// harRequestOf reads a request as written (head and body), its credentials masked.
func harRequestOf(r *Record, scheme string) harRequest {
	raw := r.Raw
	if masked, ok := HTTPHead(raw); ok {
		raw = masked
	}
	out := harRequest{Cookies: []harNV{}, Headers: []harNV{}, QueryString: []harNV{}, HeadersSize: -1, BodySize: -1}
	req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil {
		out.Method, out.HTTPVersion = "?", "HTTP/1.1"
		return out
	}
	out.Method, out.HTTPVersion = req.Method, req.Proto
	out.URL = scheme + "://" + req.Host + req.URL.RequestURI()
	out.Headers = harHeaders(req.Header, req.Host)
	for k, vs := range req.URL.Query() {
		for _, v := range vs {
			out.QueryString = append(out.QueryString, harNV{k, v})
		}
	}
	body, _ := io.ReadAll(req.Body)
	if _, rest, ok := bytes.Cut(raw, []byte("\r\n\r\n")); ok && len(body) == 0 {
		body = rest // a head rebuilt without Content-Length (the connection was not tapped)
	}
	out.BodySize = len(body)
	if len(body) > 0 {
		out.PostData = &harPostData{MimeType: req.Header.Get("Content-Type"), Text: harText(body)}
	}
	return out
}

// harResponseOf reads a response head and gathers its body: the decoded body (or the SSE
// frames, in order); a content-encoded one counts its bytes as received.
func harResponseOf(head *Record, bodies []*Record) harResponse {
	out := harResponse{Cookies: []harNV{}, Headers: []harNV{}, HeadersSize: -1}
	raw := head.Raw
	if masked, ok := HTTPHead(raw); ok {
		raw = masked
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), nil)
	if err == nil {
		// The reason phrase as the server sent it ("200 OK" → "OK").
		_, reason, _ := strings.Cut(resp.Status, " ")
		out.Status, out.StatusText, out.HTTPVersion = resp.StatusCode, reason, resp.Proto
		out.Headers = harHeaders(resp.Header, "")
		out.RedirectURL = resp.Header.Get("Location")
		out.Content.MimeType = resp.Header.Get("Content-Type")
	}
	var text bytes.Buffer
	wire := int64(-1)
	for _, r := range bodies {
		switch r.HTTPKind {
		case "encoded":
			wire = r.Size
			if r.Encoding != nil && r.Encoding.Err != "" && text.Len() == 0 {
				out.Content.Text, out.Content.Encoding = harBase64(r.Raw), "base64"
			}
		default:
			body := r.Raw
			if masked, ok := OAuthCredentials(body); ok {
				body = masked
			}
			text.Write(body)
		}
	}
	out.Content.Size = int64(text.Len())
	out.BodySize = int64(text.Len())
	if wire >= 0 {
		out.BodySize = wire
		out.Content.Compression = out.Content.Size - wire
	}
	if text.Len() > 0 {
		out.Content.Text = harText(text.Bytes())
		if !utf8.Valid(text.Bytes()) {
			out.Content.Text, out.Content.Encoding = harBase64(text.Bytes()), "base64"
		}
	}
	return out
}

// harHeaders lists headers in a stable order (HAR keeps them as a list); host, when set,
// comes first as the Host header (net/http moves it out of the map).
func harHeaders(h http.Header, host string) []harNV {
	out := []harNV{}
	if host != "" {
		out = append(out, harNV{"Host", host})
	}
	for _, k := range sortedKeys(h) {
		for _, v := range h[k] {
			out = append(out, harNV{k, v})
		}
	}
	return out
}

// harText is body text as HAR holds it: valid UTF-8 as it is, anything else base64 (the
// caller says so in the content's encoding).
func harText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return harBase64(b)
}

func harBase64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
