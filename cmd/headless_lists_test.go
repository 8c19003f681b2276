package cmd

import (
	"encoding/json"
	"strings"
	"testing"
)

// Pages that repeat items (issue #14 §2): the listing holds each item once, the human
// output flags it with its pages, --json names the repeats and the warnings say so.
func TestHeadlessPagingRepeat(t *testing.T) {
	t.Parallel()
	r := inspect(t, nil, cmdline([]string{"tools"}, fakeArgv(t, "paging-repeat"))...)
	wantCode(t, r, 0)
	if n := strings.Count(r.stdout, "echo("); n != 1 {
		t.Errorf("echo listed %d times, want once (merged):\n%s", n, r.stdout)
	}
	for _, want := range []string{"⚠ on pages 1 and 3, merged (copies differ; page 1's shown)", "⚠ on pages 1 and 2, merged\n", "upper(", "lower("} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, `tools/list: pages 1 and 3 each carry the item with name "echo"`) {
		t.Errorf("stderr does not warn of echo's repeat:\n%s", r.stderr)
	}

	r = inspect(t, nil, cmdline([]string{"resources", "--json"}, fakeArgv(t, "paging-repeat"))...)
	wantCode(t, r, 0)
	var doc struct {
		Result struct {
			Resources []struct{ URI string } `json:"resources"`
		} `json:"result"`
		Pages struct {
			Count   int `json:"count"`
			Repeats []struct {
				ID     string `json:"id"`
				Pages  []int  `json:"pages"`
				Differ bool   `json:"differ"`
			} `json:"repeats"`
		} `json:"pages"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(oneDocument(t, r)), &doc); err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, res := range doc.Result.Resources {
		uris = append(uris, res.URI)
	}
	if strings.Join(uris, " ") != "mem://a mem://b mem://c" {
		t.Errorf("resources = %v, want mem://a mem://b mem://c once each", uris)
	}
	if doc.Pages.Count != 3 || len(doc.Pages.Repeats) != 2 || doc.Pages.Repeats[0].ID != "mem://b" || doc.Pages.Repeats[1].ID != "mem://a" ||
		len(doc.Pages.Repeats[1].Pages) != 2 || doc.Pages.Repeats[1].Pages[1] != 3 {
		t.Errorf("pages = %+v, want 3 pages, repeats mem://b (1, 2) then mem://a (1, 3)", doc.Pages)
	}
	if len(doc.Warnings) != 2 {
		t.Errorf("warnings = %q, want one per repeated resource", doc.Warnings)
	}

	r = inspect(t, nil, cmdline([]string{"prompts"}, fakeArgv(t, "paging-repeat"))...)
	wantCode(t, r, 0)
	if strings.Count(r.stdout, "p2()") != 1 || !strings.Contains(r.stdout, "p2()\n    ⚠ on pages 1 and 2, merged") {
		t.Errorf("prompts output does not list p2 once, flagged:\n%s", r.stdout)
	}
}

// An empty-string nextCursor is said, not taken as the end in silence.
func TestHeadlessEmptyCursor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ cmd, method string }{{"tools", "tools/list"}, {"resources", "resources/list"}, {"templates", "resources/templates/list"}, {"prompts", "prompts/list"}} {
		r := inspect(t, nil, cmdline([]string{c.cmd}, fakeArgv(t, "paging-empty-cursor"))...)
		wantCode(t, r, 0)
		if want := c.method + ` page 1: "nextCursor": "" (an empty string, not an absent member): taken as the last page`; !strings.Contains(r.stderr, want) {
			t.Errorf("%s: stderr lacks %q:\n%s", c.cmd, want, r.stderr)
		}
	}
}

// Ids (issue #14 §2): the timeout names the response with id 0 that came meanwhile; a
// string id of the pending value is a type mismatch; --first-id 0 starts at 0.
func TestHeadlessIDs(t *testing.T) {
	t.Parallel()
	r := inspect(t, nil, cmdline([]string{"tools", "--timeout", "300ms"}, fakeArgv(t, "id-zero-answer"))...)
	wantCode(t, r, exitTimeout)
	if !strings.Contains(r.stderr, "request id 2 (tools/list): no response after 300ms (timeout; --timeout changes it); meanwhile a response with id 0 arrived") {
		t.Errorf("stderr does not name the response with id 0:\n%s", r.stderr)
	}
	// A type mismatch ends the wait at once, as a protocol error (the timeout is long).
	r = inspect(t, nil, cmdline([]string{"tools", "--timeout", "5m", "--json"}, fakeArgv(t, "id-stringly"))...)
	wantCode(t, r, exitProtocol)
	if doc := oneDocument(t, r); !strings.Contains(doc, `request id 2 (tools/list): the server answered with id \"2\" (a string`) {
		t.Errorf("--json error does not name the mismatch:\n%s", doc)
	}
	if doc := oneDocument(t, r); !strings.Contains(doc, `id type mismatch: response id \"2\" (a string) has the value of pending request id 2 (a number)`) {
		t.Errorf("--json does not name the id type mismatch:\n%s", doc)
	}
	r = inspect(t, nil, cmdline([]string{"tools", "--first-id", "0", "--timeout", "300ms"}, fakeArgv(t, "drop-id-0"))...)
	wantCode(t, r, exitTimeout)
	if !strings.Contains(r.stderr, "request id 0 (initialize)") {
		t.Errorf("--first-id 0 did not start at id 0:\n%s", r.stderr)
	}
	r = inspect(t, nil, cmdline([]string{"tools"}, fakeArgv(t, "drop-id-0"))...)
	wantCode(t, r, 0)
	r = inspect(t, nil, cmdline([]string{"tools", "--first-id", "2"}, fakeArgv(t, "minimal"))...)
	wantCode(t, r, exitUsage)
	if !strings.Contains(r.stderr, "--first-id 2: give 0 or 1") {
		t.Errorf("stderr = %q, want the --first-id usage error", r.stderr)
	}
}

// Protocol versions (issue #14 §2): an older known one is a note and shown beside the
// requested one; a missing or unknown one stops --strict.
func TestHeadlessProtocolVersions(t *testing.T) {
	t.Parallel()
	r := inspect(t, nil, cmdline([]string{"tools", "--json"}, fakeArgv(t, "version-old"))...)
	wantCode(t, r, 0)
	doc := oneDocument(t, r)
	if !strings.Contains(doc, `"protocolVersion": "2025-03-26"`) || !strings.Contains(doc, `"requestedProtocolVersion": "2025-11-25"`) || !strings.Contains(doc, `"warnings": []`) {
		t.Errorf("--json does not show both versions without a warning:\n%s", doc)
	}
	if !strings.Contains(r.stderr, "mcp-inspect: note: server negotiated protocol version 2025-03-26 (requested 2025-11-25)") {
		t.Errorf("stderr lacks the negotiation note:\n%s", r.stderr)
	}
	r = inspect(t, nil, cmdline([]string{"discover", "--era", "auto"}, fakeArgv(t, "version-old"))...)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, "protocol:  2025-03-26 (requested 2025-11-25)") {
		t.Errorf("discover does not show both versions:\n%s", r.stdout)
	}
	for _, c := range []struct{ scenario, want string }{
		{"version-unknown", `strict mode: stopped at the first protocol violation (event #3): server answered protocol version "2099-01-01"`},
		{"version-missing", "strict mode: stopped at the first protocol violation (event #3): server answered no protocolVersion"},
	} {
		r = inspect(t, nil, cmdline([]string{"tools", "--strict"}, fakeArgv(t, c.scenario))...)
		wantCode(t, r, exitProtocol)
		if !strings.Contains(r.stderr, c.want) {
			t.Errorf("%s --strict: stderr lacks %q:\n%s", c.scenario, c.want, r.stderr)
		}
		if strings.Contains(r.stderr, "continuing") {
			t.Errorf("%s --strict: stderr says it continues, yet it stopped:\n%s", c.scenario, r.stderr)
		}
		r = inspect(t, nil, cmdline([]string{"tools"}, fakeArgv(t, c.scenario))...)
		wantCode(t, r, 0)
	}
}
