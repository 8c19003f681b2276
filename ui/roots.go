package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// rootsResolvedMsg carries roots made from paths (--root, or typed in the editor).
type rootsResolvedMsg struct {
	roots []mcpclient.Root
	errs  []string
	// initial is set for the roots of Options.Roots (no list_changed is sent for them).
	initial bool
}

// resolveRoots turns paths (or file:// URIs) into roots: absolute file:// URIs named by
// their last element (MCP client/roots). It stats each path (I/O, hence a Cmd) and notes
// the ones that do not exist, but keeps them: a debugger may want to send anything.
func resolveRoots(paths []string, initial bool) tea.Cmd {
	if len(paths) == 0 {
		return nil
	}
	return func() tea.Msg {
		roots, errs := session.RootsFromPaths(paths)
		return rootsResolvedMsg{initial: initial, roots: roots, errs: errs}
	}
}

// rootsEditor edits the roots mcp-inspect offers: a add, d delete, esc closes.
type rootsEditor struct {
	c      *common
	sel    int
	adding bool
	input  textinput.Model
	w, h   int
}

func newRootsEditor(c *common) *rootsEditor {
	ti := textinput.New()
	ti.Prompt = "path: "
	ti.Placeholder = "a directory, or a file:// URI"
	ti.SetStyles(inputStyles(c.st))
	return &rootsEditor{c: c, input: ti}
}

// rootsEdit is what the editor asks the root model to do.
type rootsEdit struct {
	add    string
	remove int // index, -1 for none
	close  bool
}

// edit handles a key of the editor (n roots listed); the edit is for the root to apply.
func (e *rootsEditor) edit(msg tea.KeyPressMsg, n int) (*rootsEdit, tea.Cmd) {
	k := e.c.keys
	if e.adding {
		switch {
		case key.Matches(msg, k.Dialog.Confirm):
			e.adding = false
			v := e.input.Value()
			e.input.SetValue("")
			e.input.Blur()
			if strings.TrimSpace(v) == "" {
				return nil, nil
			}
			return &rootsEdit{add: v, remove: -1}, nil
		case key.Matches(msg, k.Dialog.Dismiss):
			e.adding = false
			e.input.Blur()
			return nil, nil
		}
		var c tea.Cmd
		e.input, c = e.input.Update(msg)
		return nil, c
	}
	switch {
	case key.Matches(msg, k.Dialog.AddRoot):
		e.adding = true
		return nil, e.input.Focus()
	case key.Matches(msg, k.Dialog.RemoveRoot):
		if e.sel < n {
			return &rootsEdit{remove: e.sel}, nil
		}
	case key.Matches(msg, k.List.Up):
		e.sel = max(e.sel-1, 0)
	case key.Matches(msg, k.List.Down):
		e.sel = min(e.sel+1, max(n-1, 0))
	case key.Matches(msg, k.Dialog.Dismiss, k.Dialog.Confirm, k.Global.Roots):
		return &rootsEdit{close: true, remove: -1}, nil
	}
	return nil, nil
}

// render draws the editor over the body.
func (e *rootsEditor) render(roots []mcpclient.Root, legacy bool, notes []string) string {
	st := e.c.st
	w := e.w
	lines := []string{fit(st.Title.Render("roots offered to the server")+st.Muted.Render(fmt.Sprintf("  (%d)", len(roots))), w),
		st.Border.Render(strings.Repeat("─", max(w, 0)))}
	if len(roots) == 0 {
		lines = append(lines, st.Muted.Render("  (none)"))
	}
	for i, r := range roots {
		row := "  " + clean(r.URI)
		if r.Name != "" {
			row += "  (" + clean(r.Name) + ")"
		}
		if i == e.sel {
			lines = append(lines, selectRow(st, row, w))
		} else {
			lines = append(lines, fit(row, w))
		}
	}
	lines = append(lines, "")
	if e.adding {
		lines = append(lines, fit(e.input.View(), w))
	}
	for _, n := range notes {
		lines = append(lines, wrapStyled(st.Warning, "⚠ "+clean(n), w)...)
	}
	if legacy {
		lines = append(lines, st.Muted.Render("each change sends notifications/roots/list_changed"))
	} else {
		lines = append(lines, st.Muted.Render("modern era: the server asks again when it needs them (no list_changed)"))
	}
	lines = append(lines, st.Muted.Render("a add · d delete · ↑/↓ select · esc/enter done"))
	return strings.Join(window(lines, 0, e.h, w), "\n")
}
