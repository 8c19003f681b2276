package mcpclient_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// A server that answers notifications (initialized with a result and id null, another with
// an error and no id) gets each reply tied to the notification it answers, under one rule,
// not unknown-id and missing-id warnings.
func TestRepliesToNotificationsTied(t *testing.T) {
	s := startFake(t, "reply-to-notification", nil)
	ctx := context.Background()
	if _, err := s.c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.c.Notify("notifications/roots/list_changed", nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.c.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	evs := s.events(t)
	notes := map[uint64]string{}
	for _, ev := range evs {
		if ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindNotification {
			notes[ev.Seq] = ev.Msg.Method
		}
	}
	var tied []string
	for _, ev := range evs {
		if ev.Dir != mcpclient.ServerToClient || (ev.Kind != mcpclient.KindResponse && ev.Kind != mcpclient.KindErrorResponse) || ev.Method == "tools/list" || ev.Method == "initialize" {
			continue
		}
		for _, p := range ev.Problems {
			switch p.Code {
			case mcpclient.CodeNotificationReply:
				if notes[ev.Pair] != ev.Method || !strings.Contains(p.Text, "reply to "+ev.Method+" #") {
					t.Errorf("#%d tied to #%d %s: %s", ev.Seq, ev.Pair, ev.Method, p.Text)
				}
				tied = append(tied, ev.Method)
			case mcpclient.CodeUnknownID, mcpclient.CodeNoID, mcpclient.CodeNullID:
				t.Errorf("#%d: %s", ev.Seq, p.Text)
			}
		}
	}
	if strings.Join(tied, ",") != "notifications/initialized,notifications/roots/list_changed" {
		t.Fatalf("replies tied: %q", tied)
	}
}
