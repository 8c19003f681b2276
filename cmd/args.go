package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mcp-inspect/mcp-inspect/internal/boundedfile"
	"github.com/mcp-inspect/mcp-inspect/internal/schemaform"
)

// argFlags are --args and -a of call, prompt and bench call.
type argFlags struct {
	raw   string
	pairs []string
}

func (a *argFlags) register(fl *pflag.FlagSet, typed bool) {
	fl.StringVar(&a.raw, "args", "", "arguments as a JSON object, or @FILE to read them from a file (@- for stdin); sent as given")
	how := "the value is a string"
	if typed {
		how = "the value is converted by the tool's inputSchema: a number or integer field gets a number, a boolean true/false, an object, array or untyped field parses JSON, a string stays a string"
	}
	fl.StringArrayVarP(&a.pairs, "arg", "a", nil, "set one argument as `KEY=VALUE` (repeatable; over --args); "+how+"; KEY:=JSON sends JSON as written; a.b=V sets a nested field")
}

// pair is one -a argument.
type pair struct {
	key   string
	value string
	json  bool // KEY:=JSON
}

func (a *argFlags) parsePairs() ([]pair, error) {
	var out []pair
	for _, s := range a.pairs {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" || k == ":" {
			return nil, fmt.Errorf("-a %q: want KEY=VALUE or KEY:=JSON", s)
		}
		p := pair{key: k, value: v}
		if strings.HasSuffix(k, ":") {
			p.key, p.json = strings.TrimSuffix(k, ":"), true
			if !json.Valid([]byte(v)) {
				return nil, fmt.Errorf("-a %s:=%s: not valid JSON", p.key, v)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// maxArgsFile bounds --args @FILE and @- (64 MiB): more is refused, not read whole.
const maxArgsFile = 64 << 20

// base reads --args: literal JSON, @FILE or @- (stdin). nil when not given.
func (a *argFlags) base(stdin io.Reader) (json.RawMessage, error) {
	if a.raw == "" {
		return nil, nil
	}
	data := []byte(a.raw)
	if strings.HasPrefix(a.raw, "@") {
		var err error
		if a.raw == "@-" {
			data, err = boundedfile.ReadAll(stdin, maxArgsFile)
		} else {
			data, err = boundedfile.Read(a.raw[1:], maxArgsFile)
		}
		if err != nil {
			return nil, fmt.Errorf("--args %s: %w", a.raw, err)
		}
	}
	data = bytes.TrimSpace(data)
	if !json.Valid(data) {
		return nil, fmt.Errorf("--args: not valid JSON: %s", abbreviate(string(data), 80))
	}
	return json.RawMessage(data), nil
}

func abbreviate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// kv is one member to set in an object, in order.
type kv struct {
	key string
	val json.RawMessage
}

// mergeObject sets members over a JSON object, keeping its member order: a key already
// there is replaced in place, a new one goes last. base nil means {}.
func mergeObject(base json.RawMessage, set []kv) (json.RawMessage, error) {
	if len(set) == 0 && base != nil {
		return base, nil
	}
	var keys []string
	vals := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(base)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(base))
		tok, err := dec.Token()
		if d, ok := tok.(json.Delim); err != nil || !ok || d != '{' {
			return nil, fmt.Errorf("--args must be a JSON object to add -a arguments to it")
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k := tok.(string)
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return nil, err
			}
			if _, dup := vals[k]; !dup {
				keys = append(keys, k)
			}
			vals[k] = v
		}
	}
	for _, m := range set {
		if _, ok := vals[m.key]; !ok {
			keys = append(keys, m.key)
		}
		vals[m.key] = m.val
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		var c bytes.Buffer
		if json.Compact(&c, vals[k]) == nil {
			b.Write(c.Bytes())
		} else {
			b.Write(vals[k])
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// guessJSON is how a value is sent when there is no schema for its key: as JSON when it
// parses (42, true, null, {"a":1}), else as a string (what the official inspector CLI does).
func guessJSON(p pair) json.RawMessage {
	if p.json || json.Valid([]byte(p.value)) && strings.TrimSpace(p.value) != "" {
		return json.RawMessage(p.value)
	}
	return quoteJSON(p.value)
}

func quoteJSON(s string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// stringArgs builds prompt arguments: -a values are strings (KEY:=JSON as written), over
// the --args object.
func stringArgs(base json.RawMessage, pairs []pair) (json.RawMessage, error) {
	var set []kv
	for _, p := range pairs {
		v := quoteJSON(p.value)
		if p.json {
			v = json.RawMessage(p.value)
		}
		set = append(set, kv{p.key, v})
	}
	if base == nil && len(set) == 0 {
		return nil, nil
	}
	return mergeObject(base, set)
}

// toolArguments builds tools/call arguments: --args as given (validated) when there is no -a; else the
// -a values converted by the tool's inputSchema (through the form engine, so a value means
// what it would mean typed into the TUI's form) over the --args object. Keys the schema does
// not know are guessed (guessJSON). problems are schema validation findings about the
// result, to show as warnings: the arguments are sent anyway, since a debugger sends what it
// is asked to. A value that does not fit its field (a word for a number) is an error.
func toolArguments(base json.RawMessage, pairs []pair, schema json.RawMessage) (args json.RawMessage, problems []string, err error) {
	if len(pairs) == 0 {
		if len(schema) > 0 && len(base) > 0 {
			for _, fe := range schemaform.ValidateValue(schema, base) {
				problems = append(problems, fe.Error())
			}
		}
		return base, problems, nil
	}
	var form *schemaform.Form
	if len(schema) > 0 {
		form, err = schemaform.New(schema)
		if err != nil || form.Root().Kind != schemaform.KindObject {
			form = nil
		}
	}
	if form == nil {
		var set []kv
		for _, p := range pairs {
			set = append(set, kv{p.key, guessJSON(p)})
		}
		args, err = mergeObject(base, set)
		return args, nil, err
	}
	start := base
	if start == nil {
		start = json.RawMessage(`{}`)
	}
	if err := form.SetValue(start); err != nil {
		return nil, nil, fmt.Errorf("--args: %w", err)
	}
	var extras []kv
	for _, p := range pairs {
		fl := lookupField(form, p.key)
		if fl == nil {
			extras = append(extras, kv{p.key, guessJSON(p)})
			continue
		}
		if err := setField(fl, p); err != nil {
			return nil, nil, usageErr("-a %s: %v", p.key, err)
		}
	}
	args, err = form.Value()
	if err != nil {
		return nil, nil, usageErr("%v", err)
	}
	for _, fe := range form.Validate() {
		problems = append(problems, fe.Error())
	}
	if len(extras) > 0 {
		for _, e := range extras {
			problems = append(problems, fmt.Sprintf("%q is not a property of the tool's inputSchema; sent as %s", e.key, e.val))
		}
		args, err = mergeObject(args, extras)
	}
	return args, problems, err
}

// lookupField finds the field for KEY: a top-level property of that exact name, else a dotted
// path into nested objects.
func lookupField(form *schemaform.Form, key string) *schemaform.Field {
	if fl := form.Field(key); fl != nil {
		return fl
	}
	if strings.Contains(key, ".") {
		return form.Field(strings.Split(key, ".")...)
	}
	return nil
}

// setField puts one -a value into its field, converted by the field's kind.
func setField(fl *schemaform.Field, p pair) error {
	v := p.value
	if p.json {
		return fl.Set(json.RawMessage(v))
	}
	if v == "null" && fl.Nullable {
		return fl.SetNull()
	}
	isJSON := json.Valid([]byte(v)) && strings.TrimSpace(v) != ""
	switch fl.Kind {
	case schemaform.KindString:
		return fl.Set(quoteJSON(v))
	case schemaform.KindNumber, schemaform.KindInteger:
		return fl.SetText(v)
	case schemaform.KindBoolean:
		if v != "true" && v != "false" {
			return fmt.Errorf("must be true or false, got %q", v)
		}
		return fl.Set(json.RawMessage(v))
	case schemaform.KindEnum:
		var choices []string
		for i, o := range fl.Options {
			if o.Omit || o.Null {
				continue
			}
			var s string
			if string(o.Value) == v || json.Unmarshal(o.Value, &s) == nil && s == v || o.Label == v {
				return fl.Select(i)
			}
			choices = append(choices, string(o.Value))
		}
		return fmt.Errorf("must be one of %s (KEY:=JSON sends another value anyway)", strings.Join(choices, ", "))
	case schemaform.KindRaw:
		if isJSON {
			return fl.Set(json.RawMessage(v))
		}
		if fl.Expect == "" || fl.Expect == "string" {
			return fl.Set(quoteJSON(v))
		}
		return fmt.Errorf("must be JSON (%s), e.g. -a '%s=%s'", fl.Expect, p.key, exampleOf(fl.Expect))
	case schemaform.KindObject, schemaform.KindArray, schemaform.KindMultiSelect:
		if !isJSON {
			want := "object"
			if fl.Kind != schemaform.KindObject {
				want = "array"
			}
			return fmt.Errorf("must be JSON (%s), e.g. -a '%s=%s'", want, p.key, exampleOf(want))
		}
		return fl.Set(json.RawMessage(v))
	case schemaform.KindUnion:
		if isJSON {
			return fl.Set(json.RawMessage(v))
		}
		return fl.Set(quoteJSON(v))
	}
	return fl.Set(guessJSON(p))
}

func exampleOf(kind string) string {
	switch kind {
	case "object":
		return `{"k":"v"}`
	case "array":
		return `["a","b"]`
	}
	return "…"
}
