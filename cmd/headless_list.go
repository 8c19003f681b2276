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
	"github.com/mcp-inspect/mcp-inspect/internal/schemaform"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// listKind describes one listing command.
type listKind struct {
	use, short, method, key string
	human                   func(w io.Writer, safe func(string) string, items []json.RawMessage, mark func(int) string)
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
			pg, err := h.client.ListPaged(ctx, k.method, k.key)
			items := pg.Items
			for _, w := range pg.Warnings {
				h.warn("%s", w)
			}
			if err != nil && len(items) == 0 {
				return nil, err
			}
			if items == nil {
				items = []json.RawMessage{}
			}
			h.doc.Pages = pagesDoc(pg)
			h.listFindings(k.method, items)
			// On an error after some pages, result holds the items fetched so far.
			result, _ := json.Marshal(map[string][]json.RawMessage{k.key: items})
			mark := repeatMarks(pg)
			out := &outcome{result: result, human: func(w io.Writer, safe func(string) string) {
				if k.method == "tools/list" || k.method == "prompts/list" {
					humanInstructions(w, safe, h.init)
				}
				k.human(w, safe, items, mark)
			}}
			return out, err
		})
	})
}

// jsonPages is --json's account of a listing's pages: how many came and the items that
// more than one page carried (listed once in the result).
type jsonPages struct {
	Count   int          `json:"count"`
	Repeats []jsonRepeat `json:"repeats"`
}

// jsonRepeat is an item several pages carried: its identity (name, uri or uriTemplate),
// the pages (1-based; the first copy is the one listed) and whether the copies differ.
type jsonRepeat struct {
	ID     string `json:"id"`
	Pages  []int  `json:"pages"`
	Differ bool   `json:"differ"`
}

func pagesDoc(pg *mcpclient.Pager) *jsonPages {
	out := &jsonPages{Count: pg.Pages, Repeats: []jsonRepeat{}}
	for _, r := range pg.Repeats {
		out.Repeats = append(out.Repeats, jsonRepeat{ID: r.ID, Pages: r.Pages, Differ: r.Differ})
	}
	return out
}

// repeatMarks gives, for item i of the pager's merged items, the flag the human listing
// shows beside it ("" for an item one page carried).
func repeatMarks(pg *mcpclient.Pager) func(int) string {
	return func(i int) string {
		id, ok := mcpclient.ItemIdentity(pg.Method, pg.Items[i])
		if !ok {
			return ""
		}
		return repeatMark(pg, id)
	}
}

// repeatMark is the flag of an item pages repeated: "⚠ on pages 1 and 3, merged (copies
// differ)"; "" when one page carried it.
func repeatMark(pg *mcpclient.Pager, id string) string {
	r, ok := pg.RepeatOf(id)
	if !ok {
		return ""
	}
	s := "⚠ on pages " + r.PagesText() + ", merged"
	if r.Differ {
		s += fmt.Sprintf(" (copies differ; page %d's shown)", r.Pages[0])
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
	case schemaform.KindUnion:
		// A union is marked with its variants: the arguments must fit one of them, and
		// --args or -a KEY:=JSON is how a headless call picks it.
		var labels []string
		for _, o := range f.Options {
			if !o.Omit && !o.Null {
				labels = append(labels, o.Label)
			}
		}
		return "union of " + strings.Join(labels, " | ")
	}
	return f.Kind.String()
}

func humanTools(w io.Writer, safe func(string) string, items []json.RawMessage, mark func(int) string) {
	for i, raw := range items {
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
		if m := mark(i); m != "" {
			fmt.Fprintf(w, "    %s\n", m)
		}
	}
}

func humanResources(w io.Writer, safe func(string) string, items []json.RawMessage, mark func(int) string) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for i, raw := range items {
		var r mcpclient.Resource
		_ = json.Unmarshal(raw, &r)
		fmt.Fprintf(tw, "%s\t%s\t%s%s\n", safe(r.URI), safe(r.Name), safe(r.MimeType), markCol(mark(i)))
	}
	tw.Flush()
}

func humanTemplates(w io.Writer, safe func(string) string, items []json.RawMessage, mark func(int) string) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for i, raw := range items {
		var r mcpclient.ResourceTemplate
		_ = json.Unmarshal(raw, &r)
		fmt.Fprintf(tw, "%s\t%s\t%s%s\n", safe(r.URITemplate), safe(r.Name), safe(r.MimeType), markCol(mark(i)))
	}
	tw.Flush()
}

func humanPrompts(w io.Writer, safe func(string) string, items []json.RawMessage, mark func(int) string) {
	for i, raw := range items {
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
		if m := mark(i); m != "" {
			fmt.Fprintf(w, "    %s\n", m)
		}
	}
}

// markCol is a repeat mark as a last table column ("" for none).
func markCol(m string) string {
	if m == "" {
		return ""
	}
	return "\t" + m
}
