package ui

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// paths maps every node's jq path to its source bytes.
func paths(d *jsonDoc) map[string]string {
	out := map[string]string{}
	for i := range d.nodes {
		out[d.path(int32(i))] = string(d.token(int32(i)))
	}
	return out
}

func TestJSONDocPaths(t *testing.T) {
	d := parseJSONDoc([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi \"there\""}],"a b":{"x-y":null,"_ok9":[true,-1.5e3]}}}`))
	if d.errAt != -1 || d.cut {
		t.Fatalf("a whole document: errAt %d cut %v", d.errAt, d.cut)
	}
	got := paths(d)
	for path, tok := range map[string]string{
		".jsonrpc":                `"2.0"`,
		".result.content[0].text": `"hi \"there\""`,
		".result.content[0]":      `{"type":"text","text":"hi \"there\""}`,
		`.result."a b"."x-y"`:     "null",
		`.result."a b"._ok9[0]`:   "true",
		`.result."a b"._ok9[1]`:   "-1.5e3",
		`.result."a b"._ok9`:      "[true,-1.5e3]",
		".result.content[0].type": `"text"`,
		".result.content":         `[{"type":"text","text":"hi \"there\""}]`,
		".id":                     "1",
		`.result."a b"`:           `{"x-y":null,"_ok9":[true,-1.5e3]}`,
	} {
		if got[path] != tok {
			t.Errorf("%s = %q, want %q", path, got[path], tok)
		}
	}
	if _, ok := got["."]; !ok {
		t.Error("the root's path is not .")
	}
	if len(d.nodes) != 13 {
		t.Errorf("%d nodes, want 13", len(d.nodes))
	}
	for i := range d.nodes {
		if !d.nodes[i].complete {
			t.Errorf("node %s is incomplete in a whole document", d.path(int32(i)))
		}
	}
}

// A document cut anywhere keeps what came before the cut, marked incomplete; a syntax
// error ends it where it is; no JSON at all gives no view.
func TestJSONDocCutAndErrors(t *testing.T) {
	d := parseJSONDoc([]byte(`{"a":[1,22,"ab`))
	if !d.cut || d.errAt != -1 || len(d.nodes) != 5 {
		t.Fatalf("cut document: cut %v errAt %d, %d nodes", d.cut, d.errAt, len(d.nodes))
	}
	want := []bool{false, false, true, true, false}
	for i, c := range want {
		if d.nodes[i].complete != c {
			t.Errorf("node %s complete=%v, want %v", d.path(int32(i)), d.nodes[i].complete, c)
		}
	}
	if d.nodes[0].last != 4 || d.nodes[1].last != 4 {
		t.Errorf("open containers end with the cut: last %d %d", d.nodes[0].last, d.nodes[1].last)
	}
	for src, at := range map[string]int{`{"a":1} x`: 8, `[1,]`: 3, `{"a" 1}`: 5, `[tru,1]`: 1, `{"a":1,}`: 7, `[1}`: 2} {
		if d := parseJSONDoc([]byte(src)); d.errAt != at {
			t.Errorf("%s: errAt %d, want %d", src, d.errAt, at)
		}
	}
	if d := parseJSONDoc([]byte(`42`)); len(d.nodes) != 1 || !d.nodes[0].complete || d.cut {
		t.Errorf("a lone number: %+v", d)
	}
	if d := parseJSONDoc([]byte(`[1,2`)); !d.cut || d.nodes[2].complete {
		t.Errorf("a number at the cut may go on: %+v", d.nodes)
	}
	if v := newJSONView([]byte("hello")); v != nil {
		t.Error("a view of text that is not JSON")
	}
	deep := strings.Repeat("[", 200000)
	if d := parseJSONDoc([]byte(deep)); len(d.nodes) != 200000 || !d.cut || d.nodes[199999].depth != 199999 {
		t.Errorf("deep nesting: %d nodes", len(d.nodes))
	}
}

// plainRows lays v out at w and draws every row without styles or cursor.
func plainRows(v *jsonView, w int) string {
	st := themes.Build(themes.Plain())
	v.layout(w)
	var out []string
	for _, l := range v.rowsText(st, 0, v.len(), false) {
		out = append(out, strings.TrimRight(l, " "))
	}
	return strings.Join(out, "\n")
}

// seekPath puts v's cursor on the node at path.
func seekPath(t *testing.T, v *jsonView, path string) {
	t.Helper()
	for i := range v.doc.nodes {
		if v.doc.path(int32(i)) == path {
			v.seek(int32(i))
			if v.node() != int32(i) {
				t.Fatalf("%s is not shown", path)
			}
			return
		}
	}
	t.Fatalf("no node at %s", path)
}

func TestJSONViewFolds(t *testing.T) {
	v := newJSONView([]byte(`{"a":{"b":1,"c":[true,null]},"d":[],"e":"x"}`))
	const open = `{
  "a": {
    "b": 1,
    "c": [
      true,
      null
    ]
  },
  "d": [],
  "e": "x"
}`
	if got := plainRows(v, 40); got != open {
		t.Fatalf("unfolded:\n%s\nwant:\n%s", got, open)
	}
	seekPath(t, v, ".a")
	if !v.toggle() {
		t.Fatal("toggle on an object did nothing")
	}
	if got := plainRows(v, 40); !strings.Contains(got, `  "a": {…}, 2 keys`) || strings.Contains(got, `"b"`) || v.doc.path(v.node()) != ".a" {
		t.Fatalf("folded .a (cursor %s):\n%s", v.doc.path(v.node()), got)
	}
	v.unfold()
	if got := plainRows(v, 40); got != open {
		t.Fatalf("unfolded again:\n%s", got)
	}
	seekPath(t, v, ".a.c[1]")
	v.fold() // on a scalar: to the parent
	if p := v.doc.path(v.node()); p != ".a.c" {
		t.Fatalf("fold on a scalar went to %s, want .a.c", p)
	}
	v.fold()
	if got := plainRows(v, 40); !strings.Contains(got, `    "c": […] 2 items`) {
		t.Fatalf("fold on .a.c:\n%s", got)
	}
	seekPath(t, v, ".a.b")
	v.foldAll()
	const all = `{
  "a": {…}, 2 keys
  "d": [],
  "e": "x"
}`
	if got := plainRows(v, 40); got != all || v.doc.path(v.node()) != ".a" {
		t.Fatalf("fold all (cursor %s):\n%s\nwant:\n%s", v.doc.path(v.node()), got, all)
	}
	seekPath(t, v, ".d")
	if v.toggle() {
		t.Fatal("an empty array folds")
	}
	v.unfoldAll()
	if got := plainRows(v, 40); got != open || v.doc.path(v.node()) != ".d" {
		t.Fatalf("unfold all (cursor %s):\n%s", v.doc.path(v.node()), got)
	}
	// The cursor moves over rows, closing brackets included, and stops at the ends.
	v.move(-100)
	if v.cur != 0 {
		t.Fatalf("cursor %d after moving past the top", v.cur)
	}
	v.move(6)
	if v.rows[v.cur].part != -1 || v.doc.path(v.node()) != ".a.c" {
		t.Fatalf("row 6 is %+v (%s), want .a.c's closing bracket", v.rows[v.cur], v.doc.path(v.node()))
	}
	v.move(100)
	if v.cur != v.len()-1 {
		t.Fatalf("cursor %d of %d rows after moving past the end", v.cur, v.len())
	}
}

// A long string and base64 are cut to their line with their size; x shows one whole
// (wrapped, every byte there) and cuts it again. A string of a few lines is whole already.
func TestJSONViewCutStrings(t *testing.T) {
	b64 := strings.Repeat("iVBORw0KGgoAAAANSUhEUgAA", 100)
	long := strings.Repeat("lorem ipsum ", 200)
	mid := strings.Repeat("abcdefghij", 15)
	v := newJSONView([]byte(`{"data":"` + b64 + `","text":"` + long + `","mid":"` + mid + `"}`))
	got := plainRows(v, 60)
	lines := strings.Split(got, "\n")
	if len(lines) != 7 {
		t.Fatalf("%d rows, want the two cut strings on one each and the 150-byte one on 3:\n%s", len(lines), got)
	}
	if !strings.HasPrefix(lines[1], `  "data": "iVBORw0KGgo`) || !strings.HasSuffix(lines[1], "…, (base64, 2.3K)") {
		t.Fatalf("base64 row: %q", lines[1])
	}
	if !strings.HasSuffix(lines[2], "…, (2.3K)") {
		t.Fatalf("long text row: %q", lines[2])
	}
	if joined := strings.Join(lines[3:6], ""); !strings.Contains(strings.ReplaceAll(joined, " ", ""), mid) {
		t.Fatalf("the 150-byte string is not whole over 3 rows:\n%s", got)
	}
	for _, l := range lines {
		if w := len([]rune(l)); w > 60 {
			t.Fatalf("a row of %d cells at width 60: %q", w, l)
		}
	}
	seekPath(t, v, ".data")
	if !v.expand() {
		t.Fatal("x on a cut string did nothing")
	}
	got = plainRows(v, 60)
	if n := strings.Count(got, "\n") + 1; n < 40 {
		t.Fatalf("the expanded base64 takes %d rows", n)
	}
	if !strings.Contains(strings.ReplaceAll(strings.ReplaceAll(got, "\n", ""), " ", ""), `"data":"`+b64+`",`) {
		t.Fatal("the expanded string does not hold every byte")
	}
	if v.doc.path(v.node()) != ".data" {
		t.Fatalf("cursor on %s after expanding", v.doc.path(v.node()))
	}
	v.expand()
	if again := plainRows(v, 60); strings.Count(again, "\n")+1 != 7 {
		t.Fatalf("x again did not cut it:\n%s", again)
	}
	seekPath(t, v, ".mid")
	if !v.expand() || strings.Count(plainRows(v, 60), "\n")+1 != 5 {
		t.Fatalf("x on a whole string did not cut it:\n%s", plainRows(v, 60))
	}
}

// Server text in keys and strings is drawn through the sanitizer: no terminal control,
// no bidi override reaches the screen, in any theme.
func TestJSONViewSanitizes(t *testing.T) {
	src := "{\"k\u202e\":\"a\u009b2Jb\",\"esc\":\"\\u001b[2J\"}"
	for _, p := range []themes.Palette{themes.Plain(), themes.ANSI16()} {
		v := newJSONView([]byte(src))
		v.layout(80)
		st := themes.Build(p)
		out := strings.Join(v.rowsText(st, 0, v.len(), true), "\n")
		if strings.ContainsRune(out, '\u202e') || strings.ContainsRune(out, '\u009b') {
			t.Fatalf("a control reached the screen: %q", out)
		}
		if !strings.Contains(out, `\u001b[2J`) {
			t.Fatalf("a JSON escape is not shown as written: %q", out)
		}
		if p.NoAttrs && strings.ContainsRune(out, 0x1b) {
			t.Fatalf("plain JSON has an escape sequence: %q", out)
		}
	}
}

func TestJSONMime(t *testing.T) {
	for mime, want := range map[string]bool{"application/json": true, "Application/JSON; charset=utf-8": true, "application/schema+json": true,
		"text/json": true, "text/plain": false, "": false, "application/jsonl": false} {
		if jsonMime(mime) != want {
			t.Errorf("jsonMime(%q) = %v", mime, !want)
		}
	}
}

// The node list is sized once: the estimate is never below the count (strings with
// commas, colons and escaped quotes inside included).
func TestJSONNodeEstimate(t *testing.T) {
	for _, src := range []string{`1`, `[]`, `{"a,b:c[":"x\",[:"}`, `[[1,2],{"k":[3,{"z":null}]},"\\",true]`, `{"a":[1,2`} {
		d := parseJSONDoc([]byte(src))
		if est := nodeEstimate([]byte(src)); est < len(d.nodes) || est > 2*len(d.nodes)+1 {
			t.Errorf("%s: estimate %d for %d nodes", src, est, len(d.nodes))
		}
	}
}

// Every prefix of a document (a frame cut anywhere) parses, lays out and draws; what the
// prefix holds whole is marked complete, and drawn rows never pass the width.
func TestJSONViewEveryPrefix(t *testing.T) {
	src := `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"a \"quoted\" \u00e9 line"},{"type":"image","data":"` + strings.Repeat("iVBORw0KGgo0", 8) + `"}],"isError":false,"n":[-1.5e3,0,null,true,{}]}}`
	for i := 0; i <= len(src); i++ {
		v := newJSONView([]byte(src[:i]))
		if v == nil {
			if strings.TrimSpace(src[:i]) != "" {
				t.Fatalf("prefix %d: no view", i)
			}
			continue
		}
		if v.doc.errAt >= 0 {
			t.Fatalf("prefix %d: an error at %d in a cut document", i, v.doc.errAt)
		}
		if i < len(src) && v.doc.nodes[0].complete {
			t.Fatalf("prefix %d: the root is complete", i)
		}
		rows := plainRows(v, 30)
		for _, l := range strings.Split(rows, "\n") {
			if n := len([]rune(l)); n > 30 {
				t.Fatalf("prefix %d: a row of %d cells: %q", i, n, l)
			}
		}
		v.foldAll()
		v.move(3)
		v.expand()
		v.unfoldAll()
		_ = v.doc.path(v.node())
	}
}

// FuzzJSONView: whatever the bytes, the view parses, folds and draws them without a
// panic, and the plain drawing holds no control character (the sanitizer's promise).
func FuzzJSONView(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `[`, `{"k":"\u001b[2J"}`, "{\"x\":\"\x1b]0;t\x07\"}", `"` + strings.Repeat("A1b", 40), `{"a" 1}`, "[1,\"\u202e\"]"} {
		f.Add([]byte(s))
	}
	st := themes.Build(themes.Plain())
	f.Fuzz(func(t *testing.T, src []byte) {
		v := newJSONView(src)
		if v == nil {
			return
		}
		v.layout(24)
		v.foldAll()
		v.unfold()
		v.move(2)
		v.expand()
		for _, l := range v.rowsText(st, 0, v.len(), true) {
			if !utf8.ValidString(l) {
				t.Fatalf("bytes that are not UTF-8 drawn: %q", l)
			}
			for _, r := range l {
				if r < 0x20 || r == 0x7f || sanitize.Dangerous(r) {
					t.Fatalf("control %U drawn: %q", r, l)
				}
			}
		}
		_ = v.pathLine(st, &keyMap{}, 40)
	})
}

// Key override names: an initialism is one word (the settings file says json.copy_path,
// form.raw_json).
func TestSnakeInitialisms(t *testing.T) {
	for in, want := range map[string]string{"SaveSession": "save_session", "JSON": "json", "RawJSON": "raw_json", "JSONKey": "json_key", "Up": "up", "CopyPath": "copy_path"} {
		if got := snake(in); got != want {
			t.Errorf("snake(%s) = %s, want %s", in, got, want)
		}
	}
}
