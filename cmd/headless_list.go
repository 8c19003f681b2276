package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mcp-inspect/mcp-inspect/internal/findings"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/ui/schemaform"
)

// listKind describes one listing command.
type listKind struct {
	use, short, method, key string
	human                   func(w io.Writer, safe func(string) string, items []json.RawMessage)
}

// listKinds are the four listing commands: tools, resources, templates, prompts.
func listKinds() []listKind {
	return []listKind{
		{"tools", "List the server's tools (every page), with their arguments", "tools/list", "tools", humanTools},
		{"resources", "List the server's resources (every page)", "resources/list", "resources", humanResources},
		{"templates", "List the server's resource templates (every page)", "resources/templates/list", "resourceTemplates", humanTemplates},
		{"prompts", "List the server's prompts (every page), with their arguments", "prompts/list", "prompts", humanPrompts},
	}
}

func newListCmd(k listKind) *cobra.Command {
	var flags headlessFlags
	return headlessCommand(&flags, headlessUsage{
		use:   k.use + " [flags] (-- COMMAND [ARGS...] | URL)",
		short: k.short,
		long: k.short + `, then exit. Every page of ` + k.method + ` is fetched (a cursor
that repeats, or more than 1000 pages, stops the listing with a warning); with --json the
result holds all items in one "` + k.key + `" array.
`,
		example: `  mcp-inspect ` + k.use + ` -- npx -y @modelcontextprotocol/server-everything
  mcp-inspect ` + k.use + ` --json -- ./my-server | jq '.result.` + k.key + `[].name'
  mcp-inspect ` + k.use + ` --config .vscode/mcp.json --server fetch`,
	}, 0, "", func(cmd *cobra.Command, _, argv []string) error {
		h := newHeadless(cmd, &flags, k.method)
		return h.run(cmd.Context(), argv, func(ctx context.Context, h *headless) (*outcome, error) {
			items, warnings, err := h.client.ListAll(ctx, k.method, k.key)
			for _, w := range warnings {
				h.warn("%s", w)
			}
			if err != nil && len(items) == 0 {
				return nil, err
			}
			if items == nil {
				items = []json.RawMessage{}
			}
			h.listFindings(k.method, items)
			// On an error after some pages, result holds the items fetched so far.
			result, _ := json.Marshal(map[string][]json.RawMessage{k.key: items})
			out := &outcome{result: result, human: func(w io.Writer, safe func(string) string) {
				if k.method == "tools/list" || k.method == "prompts/list" {
					humanInstructions(w, safe, h.init)
				}
				k.human(w, safe, items)
			}}
			return out, err
		})
	})
}

// firstLine is the first line of s, for one-line listings.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i]) + " …"
	}
	return s
}

// argSummary renders a tool's input schema as "a: integer, b?: string" from the schema
// engine's fields (schema order; ? marks optional).
func argSummary(schema json.RawMessage) string {
	if len(schema) == 0 {
		return ""
	}
	form, err := schemaform.New(schema)
	if err != nil {
		return "…"
	}
	root := form.Root()
	if root.Kind != schemaform.KindObject {
		return "…"
	}
	var parts []string
	for _, f := range root.Children() {
		opt := "?"
		if f.Required {
			opt = ""
		}
		parts = append(parts, f.Key+opt+": "+kindWord(f))
	}
	if root.AllowsEntries() {
		parts = append(parts, "…")
	}
	return strings.Join(parts, ", ")
}

func kindWord(f *schemaform.Field) string {
	switch f.Kind {
	case schemaform.KindRaw:
		if f.Expect != "" {
			return f.Expect
		}
		return "json"
	case schemaform.KindEnum:
		var vals []string
		for _, o := range f.Options {
			if !o.Omit && !o.Null {
				vals = append(vals, string(o.Value))
			}
		}
		if len(vals) > 4 {
			vals = append(vals[:4], "…")
		}
		return strings.Join(vals, "|")
	case schemaform.KindMultiSelect:
		return "array"
	}
	return f.Kind.String()
}

func humanTools(w io.Writer, safe func(string) string, items []json.RawMessage) {
	for _, raw := range items {
		var t mcpclient.Tool
		if json.Unmarshal(raw, &t) != nil {
			fmt.Fprintf(w, "%s\n", safe(string(raw)))
			continue
		}
		fmt.Fprintf(w, "%s(%s)\n", safe(t.Name), safe(argSummary(t.InputSchema)))
		for _, mt := range findings.ToolTexts(t) {
			humanModelText(w, safe, mt.Field, mt)
		}
		for _, f := range findings.Tool(t) {
			if f.Code != findings.CodeSteering {
				fmt.Fprintf(w, "    ⚠ %s\n", safe(f.Text))
			}
		}
	}
}

func humanResources(w io.Writer, safe func(string) string, items []json.RawMessage) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, raw := range items {
		var r mcpclient.Resource
		_ = json.Unmarshal(raw, &r)
		fmt.Fprintf(tw, "%s\t%s\t%s\n", safe(r.URI), safe(r.Name), safe(r.MimeType))
	}
	tw.Flush()
}

func humanTemplates(w io.Writer, safe func(string) string, items []json.RawMessage) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, raw := range items {
		var r mcpclient.ResourceTemplate
		_ = json.Unmarshal(raw, &r)
		fmt.Fprintf(tw, "%s\t%s\t%s\n", safe(r.URITemplate), safe(r.Name), safe(r.MimeType))
	}
	tw.Flush()
}

func humanPrompts(w io.Writer, safe func(string) string, items []json.RawMessage) {
	for _, raw := range items {
		var p mcpclient.Prompt
		_ = json.Unmarshal(raw, &p)
		var args []string
		for _, a := range p.Arguments {
			if a.Required {
				args = append(args, a.Name)
			} else {
				args = append(args, a.Name+"?")
			}
		}
		fmt.Fprintf(w, "%s(%s)\n", safe(p.Name), safe(strings.Join(args, ", ")))
		for _, mt := range findings.PromptTexts(p) {
			humanModelText(w, safe, mt.Field, mt)
		}
	}
}
