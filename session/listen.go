package session

import (
	"context"
	"errors"
	"slices"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Listen is the lifecycle of the modern subscriptions/listen stream (MCP 2026-07-28
// basic/patterns/subscriptions): which generation is open, its cancel func, and whether
// one is open. Opening a new stream closes the one before; the end of an old generation
// is ignored. The zero value has none open.
type Listen struct {
	gen    int
	cancel context.CancelFunc
	on     bool
}

// ListenFilter is what a stream listens for: the list changes the server offers (caps)
// and the resources subscribed to (subs, sorted here); ok is false when that is nothing.
func ListenFilter(caps mcpclient.ServerCapabilities, subs []string) (f mcpclient.ListenFilter, ok bool) {
	f.ToolsListChanged = caps.Tools != nil && caps.Tools.ListChanged
	f.PromptsListChanged = caps.Prompts != nil && caps.Prompts.ListChanged
	f.ResourcesListChanged = caps.Resources != nil && caps.Resources.ListChanged
	f.ResourceSubscriptions = slices.Sorted(slices.Values(subs))
	ok = f.ToolsListChanged || f.PromptsListChanged || f.ResourcesListChanged || len(f.ResourceSubscriptions) > 0
	return f, ok
}

// Open closes the stream open, if any, and opens generation gen with filter f (from
// ListenFilter): the caller sends subscriptions/listen with ctx and reports its end with
// Ended(gen, …). ok is false (and nothing is open) when f listens for nothing.
func (l *Listen) Open(parent context.Context, f mcpclient.ListenFilter) (gen int, ctx context.Context, ok bool) {
	l.Stop()
	if !f.ToolsListChanged && !f.PromptsListChanged && !f.ResourcesListChanged && len(f.ResourceSubscriptions) == 0 {
		return 0, nil, false
	}
	l.gen++
	ctx, l.cancel = context.WithCancel(parent)
	l.on = true
	return l.gen, ctx, true
}

// On reports whether a stream is open.
func (l *Listen) On() bool { return l.on }

// Stop closes the stream open, if any.
func (l *Listen) Stop() {
	if l.cancel != nil {
		l.cancel()
		l.cancel = nil
	}
	l.on = false
}

// Ended records the end of generation gen's stream with err: the note to show, nil when
// it was closed on purpose (context.Canceled) or gen is an old generation.
func (l *Listen) Ended(gen int, err error) *Note {
	if gen != l.gen {
		return nil
	}
	l.on = false
	switch {
	case errors.Is(err, context.Canceled):
		return nil
	case err != nil:
		return &Note{Warning, "subscriptions/listen ended: " + err.Error()}
	}
	return &Note{Info, "the server ended the subscriptions/listen stream"}
}
