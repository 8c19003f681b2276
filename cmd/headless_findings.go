package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mcp-inspect/mcp-inspect/internal/findings"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// finding records an advisory (internal/findings) for the document's "findings" and as a
// warning, the same words the TUI shows.
func (h *headless) finding(f findings.Finding) {
	h.warnMu.Lock()
	h.doc.Findings = append(h.doc.Findings, f)
	h.warnMu.Unlock()
	h.warn("%s", f.String())
}

// strictFindings is the error a --strict run ends with when a finding breaks a MUST of the
// spec (a structuredContent that does not match the outputSchema, a schema whose root is
// not an object); nil otherwise, or without --strict.
func (h *headless) strictFindings() error {
	if !h.flags.session.strict {
		return nil
	}
	h.warnMu.Lock()
	defer h.warnMu.Unlock()
	for _, f := range h.doc.Findings {
		if f.Level() == findings.Must {
			return &findingError{f}
		}
	}
	return nil
}

// findingError ends a --strict headless run on a finding (exit 4, kind "protocol").
type findingError struct{ f findings.Finding }

func (e *findingError) Error() string {
	return "strict mode: " + e.f.String()
}

// addModelText lists text written for a model in the document's "modelText" and warns of
// what the lint marks in it.
func (h *headless) addModelText(texts []findings.ModelText) {
	for _, mt := range texts {
		h.warnMu.Lock()
		h.doc.ModelText = append(h.doc.ModelText, mt)
		h.warnMu.Unlock()
		for _, f := range mt.Findings() {
			h.finding(f)
		}
	}
}

// instructionsText lints the handshake's instructions (every headless run: a host may put
// them in the model's context) and, when keep, lists them in "modelText".
func (h *headless) instructionsText(keep bool) {
	if h.init == nil {
		return
	}
	mt, ok := findings.Instructions(h.init.Instructions)
	if !ok {
		return
	}
	if keep {
		h.addModelText([]findings.ModelText{mt})
		return
	}
	for _, f := range mt.Findings() {
		h.finding(f)
	}
}

// checkCallResult checks a tools/call result against the tool's outputSchema, as the TUI's
// result pane does: a result the schema does not describe is a finding. The schema comes
// from the tool list: the one -a fetched, else one fetched now for a result that carries
// structuredContent (a plain result costs no second request, so a call's traffic stays
// one request; its missing structuredContent is found when -a listed the tools).
func (h *headless) checkCallResult(ctx context.Context, tool string, res *mcpclient.CallToolResult) {
	if res == nil || res.IsError {
		return
	}
	// A server that negotiated a version before outputSchema existed is not held to it.
	if h.init != nil && h.init.ProtocolVersion != "" && !mcpclient.HasOutputSchema(h.init.ProtocolVersion) {
		return
	}
	if h.tools == nil && len(res.StructuredContent) == 0 {
		return
	}
	if h.tools == nil {
		tools, _, err := h.client.ListTools(ctx)
		if err != nil {
			h.logger.Info("headless: tools/list for the outputSchema check failed", "err", err)
			return
		}
		h.tools = tools
	}
	for _, t := range h.tools {
		if t.Name == tool {
			for _, f := range findings.CheckOutput(t.OutputSchema, res).Findings(tool) {
				h.finding(f)
			}
			return
		}
	}
}

// listFindings are the findings of a tools or prompts listing, and its model text.
func (h *headless) listFindings(method string, items []json.RawMessage) {
	switch method {
	case "tools/list":
		h.instructionsText(true)
		for _, raw := range items {
			var t mcpclient.Tool
			if json.Unmarshal(raw, &t) != nil {
				continue
			}
			for _, f := range findings.Tool(t) {
				if f.Code != findings.CodeSteering { // those come with the model text
					h.finding(f)
				}
			}
			h.addModelText(findings.ToolTexts(t))
		}
	case "prompts/list":
		h.instructionsText(true)
		for _, raw := range items {
			var p mcpclient.Prompt
			if json.Unmarshal(raw, &p) == nil {
				h.addModelText(findings.PromptTexts(p))
			}
		}
	}
}

// humanModelText prints text for a model in full, indented, under a label with its length
// and any lint marks: "    description (212 chars):".
func humanModelText(w io.Writer, safe func(string) string, label string, mt findings.ModelText) {
	fmt.Fprintf(w, "    %s (%d chars):\n", label, mt.Chars)
	fmt.Fprintln(w, indent(safe(mt.Text), "      "))
	for _, l := range mt.Lint {
		fmt.Fprintf(w, "      ⚠ steering? %s\n", safe(l))
	}
}

// humanInstructions prints the server's instructions in full before a listing.
func humanInstructions(w io.Writer, safe func(string) string, init *mcpclient.InitializeResult) {
	if init == nil {
		return
	}
	if mt, ok := findings.Instructions(init.Instructions); ok {
		fmt.Fprintf(w, "server instructions (%d chars):\n", mt.Chars)
		fmt.Fprintln(w, indent(safe(mt.Text), "  "))
		for _, l := range mt.Lint {
			fmt.Fprintf(w, "  ⚠ steering? %s\n", safe(l))
		}
		fmt.Fprintln(w)
	}
}
