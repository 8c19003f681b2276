package cmd

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/internal/repeatcmd"
)

// TestRepeatHeaders: --bearer-env VAR's Authorization is written as "Bearer $VAR", another
// credential header as its $NAME, a header that is no credential with its value.
func TestRepeatHeaders(t *testing.T) {
	h := http.Header{}
	h.Set("Authorization", "Bearer t0k")
	h.Set("X-Api-Key", "k3y")
	h.Set("X-Trace", "on")
	got := repeatHeaders(h, "MY_TOKEN")
	want := []repeatcmd.Header{
		{Name: "Authorization", Prefix: "Bearer ", Ref: "MY_TOKEN"},
		{Name: "X-Api-Key", Ref: "X_API_KEY"},
		{Name: "X-Trace", Value: "on"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("repeatHeaders = %+v, want %+v", got, want)
	}
	if got := repeatHeaders(h, ""); got[0] != (repeatcmd.Header{Name: "Authorization", Ref: "AUTHORIZATION"}) {
		t.Errorf("-H Authorization without --bearer-env = %+v, want $AUTHORIZATION", got[0])
	}
}
