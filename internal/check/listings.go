package check

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/findings"
	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/internal/schemaform"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// toolNameRE is the tool name rule of MCP 2025-11-25 server/tools §Tool Names.
var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// listing is one paginated list method and the capability that declares it.
type listing struct {
	capability, method, key string
}

func listingsOf() []listing {
	return []listing{
		{"tools", "tools/list", "tools"},
		{"resources", "resources/list", "resources"},
		{"resources", "resources/templates/list", "resourceTemplates"},
		{"prompts", "prompts/list", "prompts"},
	}
}

// listings lists what each declared capability offers, page by page, and checks the
// items; a capability not declared must get -32601.
func (r *run) listings(ctx context.Context) {
	checked, undeclared := 0, 0
	for _, l := range listingsOf() {
		if ctx.Err() != nil {
			return
		}
		if _, declared := r.caps[l.capability]; !declared {
			undeclared++
			r.undeclared(ctx, l)
			continue
		}
		items, ok := r.list(ctx, l)
		if !ok {
			continue
		}
		checked++
		switch l.key {
		case "tools":
			r.tools = items
			r.checkTools(items)
		case "resources":
			r.resources = items
			r.checkResources(items)
		case "resourceTemplates":
			r.templates = items
			r.checkTemplates(items)
		case "prompts":
			r.prompts = items
			r.checkPrompts(items)
		}
	}
	if undeclared == 0 {
		r.na("undeclared-capability", "the server declares tools, resources and prompts")
	}
	if checked == 0 {
		for _, id := range []string{"list-pages", "list-items"} {
			r.na(id, "the server declares no tools, resources or prompts")
		}
	}
	if r.tools == nil {
		for _, id := range []string{"tool-names", "tool-schemas"} {
			r.na(id, "no tools listed")
		}
	}
	if r.templates == nil {
		r.na("uri-templates", "no resource templates listed")
	}
	r.itemEvs = nil
	if r.init != nil {
		if mt, ok := findings.Instructions(r.init.Instructions); ok {
			r.linted++
			r.steering("instructions", mt.Findings())
		}
	}
	if r.annotated == 0 {
		r.na("annotations", "no listed item carries annotations")
	} else {
		r.note("annotations", nil, "%d items' annotations checked", r.annotated)
	}
	r.note("steering", nil, "%d texts for the model linted", r.linted)
}

// undeclared sends the list method of a capability the server did not declare.
func (r *run) undeclared(ctx context.Context, l listing) {
	x := r.main.request(ctx, l.method, nil, r.opt.Server.Timeout)
	rpc := x.rpcErr()
	switch {
	case rpc != nil && rpc.Code == -32601:
		r.note("undeclared-capability", x.events, "%s (no %s capability): -32601", l.method, l.capability)
	case rpc != nil:
		r.find("undeclared-capability", Should, x.events, "%s (no %s capability) got error %d %q, not -32601 Method not found", l.method, l.capability, rpc.Code, rpc.Message)
	case x.err != nil:
		r.find("undeclared-capability", Should, x.events, "%s (no %s capability): %v", l.method, l.capability, x.err)
	default:
		r.find("undeclared-capability", Should, x.events, "%s answered a result though the server declared no %s capability", l.method, l.capability)
	}
}

// list follows every page of l and checks the paging; ok is false when the listing failed.
func (r *run) list(ctx context.Context, l listing) ([]json.RawMessage, bool) {
	p := mcpclient.NewPager(l.method, l.key)
	var evs []Event
	cursor := ""
	for {
		var params any
		if cursor != "" {
			params = map[string]string{"cursor": cursor}
		}
		x := r.main.request(ctx, l.method, params, r.opt.Server.Timeout)
		evs = append(evs, x.events...)
		if rpc := x.rpcErr(); rpc != nil && rpc.Code == -32601 && l.key == "resourceTemplates" && p.Pages == 0 {
			r.note("list-pages", x.events, "%s: -32601 (the server has no templates)", l.method)
			return nil, false
		}
		if x.idMismatch() {
			r.na("list-pages", notJudgedIDs)
			return nil, false
		}
		if x.err != nil {
			r.find("list-pages", Must, evs, "%s page %d: %v", l.method, p.Pages+1, x.err)
			return nil, false
		}
		next, more, err := p.Add(x.result())
		if err != nil {
			r.find("list-pages", Must, x.events, "%v", err)
			return nil, false
		}
		if !more {
			break
		}
		cursor = next
	}
	for _, w := range p.Warnings {
		level := Should
		if strings.HasPrefix(w, "stopped") {
			level = Must
		}
		r.find("list-pages", level, evs, "%s", w)
	}
	for _, rep := range p.Repeats {
		r.find("list-pages", Should, evs, "%s", rep.Warning())
	}
	for _, d := range mcpclient.DuplicateWarnings(l.method, p.Items) {
		r.find("list-items", Should, evs, "%s", d)
	}
	r.note("list-pages", evs, "%s: %s on %s", l.method, jsontext.Count(len(p.Items), "item", "items"), jsontext.Count(p.Pages, "page", "pages"))
	r.note("list-items", evs, "%s: %d items", l.method, len(p.Items))
	r.itemEvs = evs
	return p.Items, true
}

// members decodes an item one level; ok is false when it is not an object.
func members(item json.RawMessage) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	return m, json.Unmarshal(item, &m) == nil && m != nil
}

// str is a string member, "" when absent or not a string.
func str(m map[string]json.RawMessage, k string) string {
	var s string
	_ = json.Unmarshal(m[k], &s)
	return s
}

// required flags the members of item (what names it) that are missing or not of kind.
func (r *run) required(what string, m map[string]json.RawMessage, kinds map[string]string) {
	for k, kind := range kinds {
		if !isKind(m[k], kind) {
			r.find("list-items", Must, r.itemEvs, "%s: %s is missing or not a%s %s", what, k, article(kind), kind)
		}
	}
}

// optional flags the members of item present with another kind than kinds says.
func (r *run) optional(what string, m map[string]json.RawMessage, kinds map[string]string) {
	for k, kind := range kinds {
		if raw, ok := m[k]; ok && string(raw) != "null" && !isKind(raw, kind) {
			r.find("list-items", Must, r.itemEvs, "%s: %s is not a%s %s: %s", what, k, article(kind), kind, clip(string(raw)))
		}
	}
}

func article(kind string) string {
	if strings.IndexByte("aeiou", kind[0]) >= 0 {
		return "n"
	}
	return ""
}

// clip cuts s to 60 bytes.
func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// eachItem calls fn with each item of a listing (array names the result's array) that is
// a JSON object, with its bytes; an item that is not is a list-items finding.
func (r *run) eachItem(items []json.RawMessage, array string, fn func(item json.RawMessage, m map[string]json.RawMessage)) {
	for i, item := range items {
		m, ok := members(item)
		if !ok {
			r.find("list-items", Must, r.itemEvs, "%s[%d] is not an object", array, i)
			continue
		}
		fn(item, m)
	}
}

func (r *run) checkTools(items []json.RawMessage) {
	r.eachItem(items, "tools", func(item json.RawMessage, m map[string]json.RawMessage) {
		name := str(m, "name")
		what := fmt.Sprintf("tool %q", name)
		r.required(what, m, map[string]string{"name": "string", "inputSchema": "object"})
		r.optional(what, m, map[string]string{"title": "string", "description": "string", "outputSchema": "object", "annotations": "object"})
		if _, isStr := m["name"]; isStr && !toolNameRE.MatchString(name) {
			r.find("tool-names", Should, r.itemEvs, "%s: a tool name is 1-128 characters of A-Z a-z 0-9 _ - .", what)
		}
		for _, s := range []string{"inputSchema", "outputSchema"} {
			r.checkSchema(what, s, m[s])
		}
		if ann, ok := m["annotations"]; ok {
			r.toolAnnotations(what, ann)
		}
		var t mcpclient.Tool
		if json.Unmarshal(item, &t) == nil {
			for _, mt := range findings.ToolTexts(t) {
				r.linted++
				r.steering(what, mt.Findings())
			}
		}
	})
	r.note("tool-names", nil, "%d tool names", len(items))
	r.note("tool-schemas", nil, "%d tools' schemas checked", len(items))
}

// checkSchema checks one tool schema: an object schema (type object at the root) that
// compiles.
func (r *run) checkSchema(what, member string, raw json.RawMessage) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	if msg := findings.SchemaShape(member, "schema.ts Tool."+member, raw); msg != "" {
		r.find("tool-schemas", Must, r.itemEvs, "%s: %s", what, msg)
		return
	}
	if ok, why := schemaform.Compiles(raw); !ok {
		// The pointer is into the schema: the server author fixes that keyword.
		r.find("tool-schemas", Must, r.itemEvs, "%s: %s does not compile as a JSON Schema (2020-12 unless its $schema says otherwise): %s; fix that place of the %s in the server's tool definition",
			what, member, strings.Join(strings.Fields(why), " "), member)
	}
}

// toolAnnotations checks ToolAnnotations' member types.
func (r *run) toolAnnotations(what string, raw json.RawMessage) {
	r.annotated++
	m, ok := members(raw)
	if !ok {
		r.find("annotations", Must, r.itemEvs, "%s: annotations is not an object", what)
		return
	}
	kinds := map[string]string{"title": "string", "readOnlyHint": "boolean", "destructiveHint": "boolean", "idempotentHint": "boolean", "openWorldHint": "boolean"}
	for k, kind := range kinds {
		if v, ok := m[k]; ok && !isKind(v, kind) {
			r.find("annotations", Must, r.itemEvs, "%s: annotations.%s is %s, not a %s", what, k, clip(string(v)), kind)
		}
	}
}

// annotations checks an Annotations object (resources, templates, content).
func (r *run) annotations(what string, raw json.RawMessage) {
	r.annotated++
	m, ok := members(raw)
	if !ok {
		r.find("annotations", Must, r.itemEvs, "%s: annotations is not an object", what)
		return
	}
	if v, ok := m["audience"]; ok {
		var aud []string
		if json.Unmarshal(v, &aud) != nil {
			r.find("annotations", Must, r.itemEvs, "%s: annotations.audience is %s, not an array of roles", what, clip(string(v)))
		}
		for _, a := range aud {
			if a != "user" && a != "assistant" {
				r.find("annotations", Must, r.itemEvs, "%s: annotations.audience holds %q, not user or assistant", what, a)
			}
		}
	}
	if v, ok := m["priority"]; ok {
		var p float64
		if json.Unmarshal(v, &p) != nil || p < 0 || p > 1 {
			r.find("annotations", Must, r.itemEvs, "%s: annotations.priority is %s, not a number from 0 to 1", what, clip(string(v)))
		}
	}
	if v, ok := m["lastModified"]; ok && !isKind(v, "string") {
		r.find("annotations", Must, r.itemEvs, "%s: annotations.lastModified is %s, not an ISO 8601 string", what, clip(string(v)))
	}
}

func (r *run) checkResources(items []json.RawMessage) {
	r.eachItem(items, "resources", func(item json.RawMessage, m map[string]json.RawMessage) {
		what := fmt.Sprintf("resource %q", str(m, "uri"))
		r.required(what, m, map[string]string{"uri": "string", "name": "string"})
		r.optional(what, m, map[string]string{"title": "string", "description": "string", "mimeType": "string", "size": "number", "annotations": "object"})
		if ann, ok := m["annotations"]; ok {
			r.annotations(what, ann)
		}
	})
}

func (r *run) checkTemplates(items []json.RawMessage) {
	r.eachItem(items, "resourceTemplates", func(item json.RawMessage, m map[string]json.RawMessage) {
		what := fmt.Sprintf("resource template %q", str(m, "uriTemplate"))
		r.required(what, m, map[string]string{"uriTemplate": "string", "name": "string"})
		r.optional(what, m, map[string]string{"title": "string", "description": "string", "mimeType": "string", "annotations": "object"})
		if ann, ok := m["annotations"]; ok {
			r.annotations(what, ann)
		}
		if t := str(m, "uriTemplate"); t != "" {
			if err := ValidURITemplate(t); err != nil {
				r.find("uri-templates", Must, r.itemEvs, "%s: %v", what, err)
			}
		}
	})
	r.note("uri-templates", nil, "%d templates parsed as RFC 6570", len(items))
}

func (r *run) checkPrompts(items []json.RawMessage) {
	r.eachItem(items, "prompts", func(item json.RawMessage, m map[string]json.RawMessage) {
		what := fmt.Sprintf("prompt %q", str(m, "name"))
		r.required(what, m, map[string]string{"name": "string"})
		r.optional(what, m, map[string]string{"title": "string", "description": "string", "arguments": "array"})
		var args []map[string]json.RawMessage
		_ = json.Unmarshal(m["arguments"], &args)
		for j, a := range args {
			aw := fmt.Sprintf("%s argument %d", what, j)
			r.required(aw, a, map[string]string{"name": "string"})
			r.optional(aw, a, map[string]string{"description": "string", "required": "boolean"})
		}
		var p mcpclient.Prompt
		if json.Unmarshal(item, &p) == nil {
			for _, mt := range findings.PromptTexts(p) {
				r.linted++
				r.steering(what, mt.Findings())
			}
		}
	})
}

// steering adds the steering lint's findings as warnings.
func (r *run) steering(what string, fs []findings.Finding) {
	for _, f := range fs {
		if f.Code == findings.CodeSteering {
			r.find("steering", Should, r.itemEvs, "%s", f.String())
		}
	}
}
