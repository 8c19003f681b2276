package mcpclient

import (
	"encoding/json"
	"fmt"
)

// listIdentity is the member that names an item of a list method and that the item's own
// requests address it by: a tool or prompt by name, a resource by uri, a template by
// uriTemplate (MCP 2025-11-25 server/tools "Tool names", server/resources, server/prompts).
// It is "" for other methods.
func listIdentity(method string) (member, addressedBy string) {
	switch method {
	case "tools/list":
		return "name", "tools/call"
	case "prompts/list":
		return "name", "prompts/get"
	case "resources/list":
		return "uri", "resources/read"
	case "resources/templates/list":
		return "uriTemplate", "resources/read"
	}
	return "", ""
}

// DuplicateWarnings names each identity (see listIdentity) that more than one item of a
// complete listing carries, in the order the second one was seen: a host keeps one of them
// and the other can never be reached. Items whose identity is missing or not a string are
// left to the decoders' own warnings. method is a list method (tools/list, prompts/list,
// resources/list, resources/templates/list; nil for any other); items are its entries, raw.
func DuplicateWarnings(method string, items []json.RawMessage) []string {
	key, by := listIdentity(method)
	if key == "" || len(items) < 2 {
		return nil
	}
	counts := make(map[string]int, len(items))
	var dups []string
	for _, it := range items {
		raw, ok := member(it, key)
		if !ok {
			continue
		}
		var id string
		if json.Unmarshal(raw, &id) != nil {
			continue
		}
		counts[id]++
		if counts[id] == 2 {
			dups = append(dups, id)
		}
	}
	var out []string
	for _, id := range dups {
		out = append(out, fmt.Sprintf("%s: %d entries have %s %q; it must be unique per server, and %s can reach only one of them", method, counts[id], key, id, by))
	}
	return out
}
