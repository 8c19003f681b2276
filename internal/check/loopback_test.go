package check

import "testing"

// http-host judges only servers on this machine: loopback names and addresses are, other
// hosts (whose Host check is a proxy's or not wanted) are not (the rule is n/a there).
func TestLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST": true, "app.localhost": true, "127.0.0.1": true, "127.8.9.10": true, "::1": true,
		"example.com": false, "10.0.0.5": false, "192.168.1.2": false, "::": false, "0.0.0.0": false, "localhost.example.com": false, "": false,
	} {
		if got := loopback(host); got != want {
			t.Errorf("loopback(%q) = %v, want %v", host, got, want)
		}
	}
}
