package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/wirefilter"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// bpTyping is what the breakpoints dialog's input is being typed for.
type bpTyping int

const (
	bpList bpTyping = iota
	bpAdding
	bpTimeout
)

// breakpointsDialog edits a set of breakpoints (wire filters) and their hold timeout;
// confirming asks the holder for the set (Breakpoints.Set).
type breakpointsDialog struct {
	c       *common
	filters []string
	timeout time.Duration
	sel     int
	typing  bpTyping
	input   textinput.Model
	// problem is what is wrong with the text typed ("" when it parses).
	problem string
	w, h    int
}

// newBreakpointsDialog edits a copy of set.
func newBreakpointsDialog(c *common, set session.BreakpointSet) *breakpointsDialog {
	ti := textinput.New()
	ti.SetStyles(inputStyles(c.st))
	return &breakpointsDialog{c: c, filters: append([]string(nil), set.Filters...), timeout: set.Timeout, input: ti}
}

// checkInput checks what is typed: a wire filter (not empty: that would hold everything),
// or a positive duration.
func (d *breakpointsDialog) checkInput() {
	v := strings.TrimSpace(d.input.Value())
	d.problem = ""
	switch {
	case v == "" && d.typing == bpAdding:
		d.problem = "type a wire filter (an empty one would hold every message)"
	case d.typing == bpAdding:
		if _, err := wirefilter.Parse(v); err != nil {
			d.problem = err.Error()
		}
	case d.typing == bpTimeout:
		if t, err := time.ParseDuration(v); err != nil || t <= 0 {
			d.problem = "a positive duration: 30s, 2m, 1h"
		}
	}
}

func (d *breakpointsDialog) handleKey(msg tea.KeyPressMsg) (tea.Msg, tea.Cmd) {
	k := d.c.keys
	if d.typing != bpList {
		switch {
		case key.Matches(msg, k.Dialog.Confirm):
			d.checkInput()
			if d.problem != "" {
				return nil, nil
			}
			v := strings.TrimSpace(d.input.Value())
			if d.typing == bpAdding {
				d.filters = append(d.filters, v)
				d.sel = len(d.filters) - 1
			} else {
				d.timeout, _ = time.ParseDuration(v)
			}
			d.stopTyping()
		case key.Matches(msg, k.Dialog.Dismiss):
			d.stopTyping()
		default:
			var cmd tea.Cmd
			d.input, cmd = d.input.Update(msg)
			d.checkInput()
			return nil, cmd
		}
		return nil, nil
	}
	switch {
	case key.Matches(msg, k.Breakpoints.Add):
		return nil, d.startTyping(bpAdding, "filter: ", "")
	case key.Matches(msg, k.Breakpoints.Timeout):
		return nil, d.startTyping(bpTimeout, "timeout: ", d.timeout.String())
	case key.Matches(msg, k.Breakpoints.Remove):
		if d.sel < len(d.filters) {
			d.filters = append(d.filters[:d.sel:d.sel], d.filters[d.sel+1:]...)
			d.sel = min(d.sel, max(len(d.filters)-1, 0))
		}
	case key.Matches(msg, k.List.Up):
		d.sel = max(d.sel-1, 0)
	case key.Matches(msg, k.List.Down):
		d.sel = min(d.sel+1, max(len(d.filters)-1, 0))
	case key.Matches(msg, k.Dialog.Confirm, k.Dialog.Accept):
		return setBreakpointsAct{session.BreakpointSet{Filters: append([]string{}, d.filters...), Timeout: d.timeout}}, nil
	case key.Matches(msg, k.Dialog.Dismiss):
		return closeAct{level: "info", note: "breakpoints unchanged"}, nil
	}
	return nil, nil
}

// startTyping focuses the input for a filter or the timeout, holding value.
func (d *breakpointsDialog) startTyping(t bpTyping, prompt, value string) tea.Cmd {
	d.typing = t
	d.input.Prompt = prompt
	d.input.SetValue(value)
	d.input.CursorEnd()
	d.checkInput()
	return d.input.Focus()
}

func (d *breakpointsDialog) stopTyping() {
	d.typing, d.problem = bpList, ""
	d.input.SetValue("")
	d.input.Blur()
}

func (d *breakpointsDialog) setSize(w, h int) {
	d.w, d.h = w, h
	d.input.SetWidth(max(w-12, 10))
}

func (d *breakpointsDialog) focus() tea.Cmd {
	if d.typing != bpList {
		return d.input.Focus()
	}
	return nil
}

func (d *breakpointsDialog) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	if d.typing == bpList {
		return nil, false
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return cmd, true
}

func (d *breakpointsDialog) bindings(k *keyMap) []key.Binding {
	return k.offered("breakpoints")
}

// view draws the breakpoints, the input while typing (with what is wrong with it), the
// timeout and the keys.
func (d *breakpointsDialog) view() string {
	st := d.c.st
	w := d.w
	lines := []string{fit(st.Title.Render("breakpoints")+st.Muted.Render(fmt.Sprintf("  (%d) · a message one matches is held until you decide", len(d.filters))), w),
		st.Border.Render(strings.Repeat("─", max(w, 0)))}
	if len(d.filters) == 0 {
		lines = append(lines, st.Muted.Render("  (none: nothing is held)"))
	}
	for i, f := range d.filters {
		row := "  " + clean(f)
		if i == d.sel && d.typing == bpList {
			lines = append(lines, selectRow(st, row, w))
		} else {
			lines = append(lines, fit(row, w))
		}
	}
	lines = append(lines, "", fit(fmt.Sprintf("hold timeout %s: then the message goes on unchanged", d.timeout), w))
	if d.typing != bpList {
		lines = append(lines, fit(d.input.View(), w))
		if d.problem != "" {
			lines = append(lines, wrapStyled(st.Error, "✗ "+clean(d.problem), w)...)
		} else {
			lines = append(lines, st.Success.Render("✓ enter takes it"))
		}
	}
	lines = append(lines, wrapStyled(st.Muted, "e.g. method:tools/call tool:delete_*  ·  dir:in kind:response  (the wire's filter language)", w)...)
	k := d.c.keys
	lines = append(lines, wrapStyled(st.Muted, strings.Join([]string{
		k.Breakpoints.Add.Help().Key + " add", k.Breakpoints.Remove.Help().Key + " remove", k.Breakpoints.Timeout.Help().Key + " timeout",
		k.Dialog.Confirm.Help().Key + "/" + k.Dialog.Accept.Help().Key + " set them", k.Dialog.Dismiss.Help().Key + " cancel"}, " · "), w)...)
	return strings.Join(window(lines, 0, d.h, w), "\n")
}
