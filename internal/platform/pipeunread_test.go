package platform

import (
	"os"
	"runtime"
	"testing"
)

// On Linux the write end of a pipe says how much its reader has not read.
func TestPipeUnread(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	w.Write([]byte("hello\n"))
	n, ok := PipeUnread(w)
	if runtime.GOOS != "linux" {
		if ok {
			t.Fatalf("PipeUnread answered %d on %s", n, runtime.GOOS)
		}
		return
	}
	if !ok || n != 6 {
		t.Fatalf("unread = %d, %v; want 6", n, ok)
	}
	r.Read(make([]byte, 4))
	if n, ok = PipeUnread(w); !ok || n != 2 {
		t.Fatalf("after reading 4: %d, %v; want 2", n, ok)
	}
}
