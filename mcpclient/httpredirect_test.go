package mcpclient_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/fake"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// lifeNotes are the texts of the session's lifecycle notes.
func lifeNotes(evs []mcpclient.Event) []string {
	var out []string
	for _, ev := range evs {
		if ev.Kind == mcpclient.KindLifecycle && ev.Life != nil {
			out = append(out, ev.Life.Text)
		}
	}
	return out
}

// R01: 307 and 308 are followed with the method and the body; both hops are on the wire,
// and a note names the URL to use.
func TestHTTPRedirect307And308Followed(t *testing.T) {
	for _, sc := range []string{"http-redirect-307", "http-redirect-308"} {
		t.Run(sc, func(t *testing.T) {
			_, url := fake.HTTPServer(t, sc, fake.HTTPOptions{})
			s := connectHTTP(t, mcpclient.Config{URL: url, Timeout: 5 * time.Second})
			ctx := context.Background()
			res, _, err := s.c.CallTool(ctx, "echo", []byte(`{"text":"hi"}`))
			if err != nil || len(res.Content) != 1 || res.Content[0].Text != "hi" {
				t.Fatalf("tools/call through the redirect: %+v, %v", res, err)
			}
			evs := s.close()
			hops := 0
			for _, ev := range evs {
				if ev.Kind == mcpclient.KindHTTPRequest && strings.HasPrefix(string(ev.Raw), "POST /mcp ") {
					hops++
				}
			}
			if hops < 3 {
				t.Errorf("%d POSTs to /mcp on the wire, want every request's second hop", hops)
			}
			notes := strings.Join(lifeNotes(evs), "\n")
			if !strings.Contains(notes, "redirected") || !strings.Contains(notes, "use "+strings.TrimSuffix(url, "/start")+"/mcp as the server URL") {
				t.Errorf("no redirect note naming the URL to use:\n%s", notes)
			}
			if strings.Count(notes, "was redirected") != 1 {
				t.Errorf("the redirect is noted more than once:\n%s", notes)
			}
		})
	}
}

// R02: a 302 answering a POST is not turned into a GET: the request fails naming Location.
func TestHTTPRedirect302OnPOSTStops(t *testing.T) {
	var mu sync.Mutex
	var gets int
	_, url := fake.HTTPServer(t, "http-redirect-302", fake.HTTPOptions{Seen: func(r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Method == http.MethodGet {
			gets++
		}
	}})
	s := startHTTP(t, mcpclient.Config{URL: url, Timeout: 5 * time.Second})
	_, err := s.c.Connect(context.Background())
	var re *mcpclient.RedirectError
	if !errors.As(err, &re) || re.StatusCode != http.StatusFound || !strings.HasSuffix(re.Location, "/mcp") {
		t.Fatalf("initialize: %v, want a RedirectError for the 302", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "Location: "+re.Location) || !strings.Contains(msg, "connect to it instead") {
		t.Errorf("message: %s", msg)
	}
	s.close()
	mu.Lock()
	defer mu.Unlock()
	if gets != 0 {
		t.Errorf("%d GETs: the POST was turned into a GET", gets)
	}
}

// R03: a redirect loop is capped and named.
func TestHTTPRedirectLoopNamed(t *testing.T) {
	_, url := fake.HTTPServer(t, "http-redirect-loop", fake.HTTPOptions{})
	s := startHTTP(t, mcpclient.Config{URL: url, Timeout: 5 * time.Second})
	_, err := s.c.Connect(context.Background())
	var re *mcpclient.RedirectError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "a redirect loop") || len(re.Hops) != 3 {
		t.Fatalf("initialize: %v, want a named redirect loop of 3 hops", err)
	}
	s.close()
}

// R04: a redirect to another origin is followed without the credentials, and the wire says
// which were held back.
func TestHTTPRedirectAwayHoldsCredentials(t *testing.T) {
	var mu sync.Mutex
	var leaked []string
	away, _ := fake.HTTPServer(t, "http-minimal", fake.HTTPOptions{Seen: func(r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		for _, h := range []string{"Authorization", "X-Api-Key", "Cookie"} {
			if r.Header.Get(h) != "" {
				leaked = append(leaked, h)
			}
		}
	}})
	var atHome int
	_, url := fake.HTTPServer(t, "http-redirect-away", fake.HTTPOptions{Away: away.URL, Seen: func(r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Header.Get("Authorization") == "Bearer s3cret" && r.Header.Get("X-Api-Key") == "k3y" {
			atHome++
		}
	}})
	h := http.Header{}
	h.Set("Authorization", "Bearer s3cret")
	h.Set("X-Api-Key", "k3y")
	s := startHTTP(t, mcpclient.Config{URL: url, Header: h, Timeout: 5 * time.Second})
	if _, err := s.c.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(lifeNotes(s.close()), "\n")
	mu.Lock()
	defer mu.Unlock()
	if atHome == 0 {
		t.Error("the first origin did not get the credentials")
	}
	if len(leaked) > 0 {
		t.Errorf("sent to another origin: %v", leaked)
	}
	if !strings.Contains(notes, "Authorization, X-Api-Key held back") {
		t.Errorf("no held-back note:\n%s", notes)
	}
}
