package session

import (
	"context"
	"encoding/json"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// pagedLister is a Conn that lists page by page with a Pager (the live client): a
// listing then says which items its pages repeated. Conns without it list with
// ListTools and the like.
type pagedLister interface {
	ListPaged(ctx context.Context, method, key string) (*mcpclient.Pager, error)
}

// listPaged fetches one whole list method through pl and decodes its items.
func listPaged[T any](ctx context.Context, pl pagedLister, method, key string) ([]T, []string, []mcpclient.Repeat, error) {
	pg, err := pl.ListPaged(ctx, method, key)
	items, warns := mcpclient.DecodeList[T](pg.Items, method, pg.Warnings)
	return items, warns, pg.Repeats, err
}

// listByPages is List through a pagedLister.
func listByPages(ctx context.Context, pl pagedLister, l List) Listing {
	out := Listing{List: l}
	switch l {
	case Tools:
		out.Tools, out.Warnings, out.Repeats, out.Err = listPaged[mcpclient.Tool](ctx, pl, "tools/list", "tools")
	case Resources:
		var w2 []string
		var r2 []mcpclient.Repeat
		out.Resources, out.Warnings, out.Repeats, out.Err = listPaged[mcpclient.Resource](ctx, pl, "resources/list", "resources")
		out.Templates, w2, r2, out.TemplatesErr = listPaged[mcpclient.ResourceTemplate](ctx, pl, "resources/templates/list", "resourceTemplates")
		out.Warnings, out.Repeats = append(out.Warnings, w2...), append(out.Repeats, r2...)
	case Prompts:
		out.Prompts, out.Warnings, out.Repeats, out.Err = listPaged[mcpclient.Prompt](ctx, pl, "prompts/list", "prompts")
	}
	return out
}

// ListMethods are the list methods of l and the arrays their pages carry: one for tools
// and prompts, resources/list then resources/templates/list for resources.
func ListMethods(l List) (methods, keys []string) {
	switch l {
	case Tools:
		return []string{"tools/list"}, []string{"tools"}
	case Resources:
		return []string{"resources/list", "resources/templates/list"}, []string{"resources", "resourceTemplates"}
	case Prompts:
		return []string{"prompts/list"}, []string{"prompts"}
	}
	return nil, nil
}

// FetchPage sends one page request of a list method (cursor "" for the first page) for
// stepping through a listing by hand; feed the result to the listing's Pager. It does I/O.
func (s *Live) FetchPage(ctx context.Context, method, cursor string) (json.RawMessage, error) {
	var params any
	if cursor != "" {
		params = map[string]string{"cursor": cursor}
	}
	resp, err := s.Request(ctx, method, params, nil)
	if err != nil {
		return nil, err
	}
	return resp.Msg.Result, nil
}
