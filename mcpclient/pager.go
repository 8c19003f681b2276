package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Repeat is an item that more than one page of a listing carried (MCP
// server/utilities/pagination: pages split one list; an item belongs on one page). The
// listing keeps one entry, the first copy.
type Repeat struct {
	// Method is the list method (tools/list, resources/list, …).
	Method string
	// ID is the item's identity: a tool or prompt name, a resource uri, a template's
	// uriTemplate (see listIdentity).
	ID string
	// Pages are the 1-based pages a copy came on, in order; Pages[0] is the kept copy's.
	Pages []int
	// Differ is set when a later copy is not byte-identical to the kept one.
	Differ bool
}

// PagesText is "1 and 3", "1, 2 and 3"; more than six pages are shortened
// ("1, 2, 3, 4, … and 1000 (1000 pages)").
func (r Repeat) PagesText() string {
	s := make([]string, len(r.Pages))
	for i, p := range r.Pages {
		s[i] = strconv.Itoa(p)
	}
	switch {
	case len(s) < 2:
		return strings.Join(s, "")
	case len(s) > 6:
		return strings.Join(s[:4], ", ") + ", … and " + s[len(s)-1] + " (" + strconv.Itoa(len(s)) + " pages)"
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// Warning is the repeat as a listing warning.
func (r Repeat) Warning() string {
	key, _ := listIdentity(r.Method)
	kept := "identical copies"
	if r.Differ {
		kept = fmt.Sprintf("the copies differ; page %d's is shown", r.Pages[0])
	}
	return fmt.Sprintf("%s: pages %s each carry the item with %s %q (%s): merged into one entry; the server's pages repeat items", r.Method, r.PagesText(), key, r.ID, kept)
}

// Pager gathers a paginated listing one page at a time (MCP server/utilities/pagination),
// live or recorded: it merges items that a later page repeats (Repeats), notes an
// empty-string nextCursor, and stops at a repeated cursor or after MaxPages pages. It does
// no I/O; the caller sends each request with the cursor Add returns.
type Pager struct {
	Method, Key string
	// Items are the listing's entries so far, raw, merged; Page[i] is Items[i]'s page.
	Items []json.RawMessage
	Page  []int
	// Pages counts the pages added; More is set while the server offers another (Next).
	Pages int
	More  bool
	Next  string
	// Warnings are the notes so far (a page without its array, an empty-string cursor, a
	// stop); Finish adds the repeats and duplicates.
	Warnings []string
	// Repeats are the items more than one page carried, in order of the second copy.
	Repeats []Repeat

	byID    map[string]int // identity → index in Items
	repeatI map[string]int // identity → index in Repeats
	cursors map[string]bool
}

// NewPager starts a listing of method whose items are the array under key.
func NewPager(method, key string) *Pager {
	return &Pager{Method: method, Key: key, byID: map[string]int{}, repeatI: map[string]int{}, cursors: map[string]bool{}}
}

// Add takes one page's result. It reports the cursor to ask for next and whether the
// listing goes on (more); a result that is not a page is an error (the items so far stay).
// An empty-string nextCursor ends the listing with a warning that says so; a cursor seen
// before, or MaxPages pages, stops it with a warning.
func (p *Pager) Add(result json.RawMessage) (next string, more bool, err error) {
	items, next, warning, err := DecodePage(p.Method, p.Key, result)
	if err != nil {
		p.More, p.Next = false, ""
		return "", false, err
	}
	p.Pages++
	if warning != "" {
		p.Warnings = append(p.Warnings, warning)
	}
	p.merge(items)
	switch {
	case next == "" && emptyCursor(result):
		p.Warnings = append(p.Warnings, fmt.Sprintf(`%s page %d: "nextCursor": "" (an empty string, not an absent member): taken as the last page; a server leaves nextCursor out on the last page (MCP server/utilities/pagination), so there may be pages this listing did not get`, p.Method, p.Pages))
	case next == "":
	case p.cursors[next]:
		p.Warnings = append(p.Warnings, fmt.Sprintf("stopped paging %s: cursor %q repeated", p.Method, next))
		next = ""
	case p.Pages >= MaxPages:
		p.Warnings = append(p.Warnings, fmt.Sprintf("stopped after %d pages of %s: the server keeps returning a nextCursor", MaxPages, p.Method))
		next = ""
	default:
		p.cursors[next] = true
	}
	p.Next, p.More = next, next != ""
	return next, p.More, nil
}

// merge appends a page's items, leaving out (and recording) a copy of an item an earlier
// page carried. Items repeated within one page are kept: DuplicateWarnings names them.
func (p *Pager) merge(items []json.RawMessage) {
	key, _ := listIdentity(p.Method)
	for _, it := range items {
		id, ok := identity(it, key)
		if !ok {
			p.Items, p.Page = append(p.Items, it), append(p.Page, p.Pages)
			continue
		}
		first, seen := p.byID[id]
		if !seen || p.Page[first] == p.Pages {
			if !seen {
				p.byID[id] = len(p.Items)
			}
			p.Items, p.Page = append(p.Items, it), append(p.Page, p.Pages)
			continue
		}
		ri, had := p.repeatI[id]
		if !had {
			ri = len(p.Repeats)
			p.repeatI[id] = ri
			p.Repeats = append(p.Repeats, Repeat{Method: p.Method, ID: id, Pages: []int{p.Page[first]}})
		}
		r := &p.Repeats[ri]
		r.Pages = append(r.Pages, p.Pages)
		if !bytes.Equal(compact(it), compact(p.Items[first])) {
			r.Differ = true
		}
	}
}

// Finish is the listing's warnings once complete: those of the pages, each repeat, and
// the entries one page gave twice (DuplicateWarnings).
func (p *Pager) Finish() []string {
	out := append([]string(nil), p.Warnings...)
	for _, r := range p.Repeats {
		out = append(out, r.Warning())
	}
	return append(out, DuplicateWarnings(p.Method, p.Items)...)
}

// RepeatOf is the repeat of the item with identity id, if pages repeated it.
func (p *Pager) RepeatOf(id string) (Repeat, bool) {
	if i, ok := p.repeatI[id]; ok {
		return p.Repeats[i], true
	}
	return Repeat{}, false
}

// ItemIdentity is a list item's identity (see Repeat.ID) for method's items; ok is false
// for another method or an item without a string identity.
func ItemIdentity(method string, item json.RawMessage) (string, bool) {
	key, _ := listIdentity(method)
	return identity(item, key)
}

// identity is an item's identity member (key) as a string.
func identity(item json.RawMessage, key string) (string, bool) {
	if key == "" {
		return "", false
	}
	raw, ok := member(item, key)
	if !ok {
		return "", false
	}
	var id string
	if json.Unmarshal(raw, &id) != nil {
		return "", false
	}
	return id, true
}

func compact(b json.RawMessage) []byte {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return b
	}
	return out.Bytes()
}

// emptyCursor reports whether a page result carries "nextCursor": "".
func emptyCursor(result json.RawMessage) bool {
	raw, ok := member(result, "nextCursor")
	return ok && string(bytes.TrimSpace(raw)) == `""`
}

// ListPaged fetches every page of a list method with a Pager (see ListAll) and returns it
// finished: Items merged, Repeats, and Warnings including Finish's. On an error the pages
// before it stay in the Pager.
func (c *Client) ListPaged(ctx context.Context, method, key string) (*Pager, error) {
	p := NewPager(method, key)
	cursor := ""
	for {
		var params any
		if cursor != "" {
			params = map[string]string{"cursor": cursor}
		}
		resp, err := c.Request(ctx, method, params, nil)
		if err != nil {
			p.Warnings = p.Finish()
			return p, err
		}
		next, more, err := p.Add(resp.Msg.Result)
		if err != nil || !more {
			p.Warnings = p.Finish()
			return p, err
		}
		cursor = next
	}
}
