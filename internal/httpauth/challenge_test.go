package httpauth

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in      []string
		want    string // scheme{name=value,...};...
		warning string
	}{
		{[]string{`Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b"`}, `Bearer{resource_metadata=https://x/.well-known/oauth-protected-resource,scope=a b}`, ""},
		{[]string{`Bearer realm="x", Basic realm="y"`}, `Bearer{realm=x};Basic{realm=y}`, ""},
		{[]string{`Bearer`, `Basic realm=y`}, `Bearer{};Basic{realm=y}`, ""},
		{[]string{`Bearer scope="a", Scope="b"`}, `Bearer{scope=a,scope=b}`, "given twice"},
		{[]string{`Bearer error='invalid_token', error_description="it \"expired\""`}, `Bearer{error=invalid_token,error_description=it "expired"}`, "single quotes"},
		{[]string{`Bearer error="invalid_token`}, `Bearer{error=invalid_token}`, "not closed"},
	} {
		cs, ws := Parse(tc.in)
		var parts []string
		for _, c := range cs {
			var ps []string
			for _, p := range c.Params {
				ps = append(ps, p.Name+"="+p.Value)
			}
			parts = append(parts, c.Scheme+"{"+strings.Join(ps, ",")+"}")
		}
		if got := strings.Join(parts, ";"); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.in, got, tc.want)
		}
		if w := strings.Join(ws, "\n"); tc.warning == "" && w != "" || !strings.Contains(w, tc.warning) {
			t.Errorf("%q: warnings %q, want %q", tc.in, w, tc.warning)
		}
	}
	if cs, _ := Parse([]string{`Bearer scope="a"`}); cs[0].Get("SCOPE") != "a" {
		t.Error("Get is not case-insensitive")
	}
}

// FuzzParse: any header value is read to its end without a panic or a hang.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`Bearer realm="x", Basic realm="y"`, `Bearer error='a'`, `Basic dG9rZW4=`, `,,= "`, `Bearer a=b c=d`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		Parse([]string{s})
	})
}
