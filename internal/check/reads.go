package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// reads sends the requests that change nothing: resources/read, prompts/get, completion,
// logging/setLevel and ping.
func (r *run) reads(ctx context.Context) {
	r.readResources(ctx)
	r.resourceNotFound(ctx)
	r.getPrompts(ctx)
	r.complete(ctx)
	r.setLevel(ctx)
	if ctx.Err() == nil && r.active("ping") {
		switch {
		case r.modern() && r.remote:
			// Over HTTP the refusal is 404 with -32601 (basic/transports/streamable-http).
			a := r.bare(ctx, "mcp-inspect-check-ping", "ping", map[string]any{"_meta": modernMeta(mcpclient.ModernProtocolVersion)}, "ping, which the 2026-07-28 era removed", nil)
			r.refusal("ping", a, http.StatusNotFound, -32601)
		case r.modern():
			r.checkPingRemoved(r.main.request(ctx, "ping", nil, r.opt.Server.Timeout))
		default:
			r.checkPing("ping", r.main.request(ctx, "ping", nil, r.opt.Server.Timeout))
		}
	}
	r.cacheHints()
}

// probeResource is a URI no server has: resource-not-found reads it.
const probeResource = "mcp-inspect-check:///no-such-resource"

// resourceNotFound: resources/read of a URI that does not exist gets an error, -32002 up to
// 2025-11-25 and -32602 in 2026-07-28 (SHOULD), with the uri in its data (SHOULD); an empty
// contents array says nothing of the fault.
func (r *run) resourceNotFound(ctx context.Context) {
	const id = "resource-not-found"
	if ctx.Err() != nil || !r.ready(ctx, id) || !r.active(id) {
		return
	}
	if _, ok := r.caps["resources"]; !ok {
		r.na(id, "the server declares no resources capability")
		return
	}
	want, other := int64(-32002), int64(-32602)
	if r.modern() {
		want, other = other, want
	}
	what := fmt.Sprintf("resources/read %q (no such resource)", probeResource)
	x := r.main.request(ctx, "resources/read", map[string]string{"uri": probeResource}, r.opt.Server.Timeout)
	rpc := x.rpcErr()
	switch {
	case rpc == nil && x.err != nil:
		r.find(id, Should, x.events, "%s: %v", what, x.err)
		return
	case rpc == nil:
		var out struct {
			Contents []json.RawMessage `json:"contents"`
		}
		if json.Unmarshal(x.result(), &out) == nil && len(out.Contents) > 0 {
			r.note(id, x.events, "%s: answered %d contents (a template or catch-all serves any URI): not judged", what, len(out.Contents))
			return
		}
		r.find(id, Should, x.events, "%s: answered a result with no contents; a resource that does not exist gets error %d", what, want)
		return
	case rpc.Code == other && !r.modern():
		// The reference servers answer -32602 in the legacy era too, the code 2026-07-28
		// adopted: taken, and said.
		r.note(id, x.events, "%s: error %d %q (2025-11-25 names -32002; -32602 is 2026-07-28's code, which clients accept)", what, rpc.Code, rpc.Message)
		return
	case rpc.Code == other:
		r.find(id, Should, x.events, "%s: error %d %q; in the 2026-07-28 era resource-not-found is %d", what, rpc.Code, rpc.Message, want)
	case rpc.Code != want:
		r.find(id, Should, x.events, "%s: error %d %q, not %d", what, rpc.Code, rpc.Message, want)
	default:
		r.note(id, x.events, "%s: error %d %q", what, rpc.Code, rpc.Message)
	}
	// The uri in data is a SHOULD of 2026-07-28 (the suite's sep-2164-data-uri); the
	// legacy spec only shows it in an example.
	if u := rawOr(rpc.Data, "uri"); r.modern() && u != strconv.Quote(probeResource) {
		r.find(id, Should, x.events, "%s: error.data.uri is %s; it should carry the uri asked for", what, u)
	}
}

// modern reports whether the main session speaks the 2026-07-28 revision.
func (r *run) modern() bool { return r.init != nil && r.init.Era == mcpclient.EraModern }

// checkPing checks a ping exchange under rule id: the result is an empty object ("The
// receiver MUST respond promptly with an empty response", MCP 2025-11-25
// basic/utilities/ping).
func (r *run) checkPing(id string, x exchange) {
	if x.idMismatch() {
		r.na(id, notJudgedIDs)
		return
	}
	if x.err != nil {
		r.find(id, Must, x.events, "ping: %v", x.err)
		return
	}
	if !isEmptyObject(x.result()) {
		r.find(id, Must, x.events, "ping answered %s, not an empty result {}", clip(string(x.result())))
		return
	}
	r.note(id, x.events, "answered {} in %s", x.resp.Elapsed.Round(10_000))
}

// checkPingRemoved checks ping in the 2026-07-28 era, which removed it: the server refuses
// it as a method it does not have, -32601 (or, over HTTP, 404).
func (r *run) checkPingRemoved(x exchange) {
	rpc := x.rpcErr()
	switch {
	case x.err == nil:
		r.find("ping", Must, x.events, "ping was answered %s in the 2026-07-28 era, which removed it: a removed method gets -32601 Method not found", clip(string(x.result())))
	case rpc != nil && rpc.Code == -32601:
		r.note("ping", x.events, "refused with -32601, as the 2026-07-28 era removed ping")
	case rpc != nil:
		r.find("ping", Should, x.events, "ping (removed in the 2026-07-28 era) got error %d %q, not -32601 Method not found", rpc.Code, rpc.Message)
	default:
		r.find("ping", Must, x.events, "ping (removed in the 2026-07-28 era): %v", x.err)
	}
}

// isEmptyObject reports whether raw is {} (whitespace aside).
func isEmptyObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil && len(m) == 0
}

// alive sends the request that shows the server still answers, with timeout d: ping, or in
// the 2026-07-28 era (which removed ping) server/discover. An error response is an answer
// too (answered).
func (r *run) alive(ctx context.Context, d time.Duration) (x exchange, method string) {
	method = "ping"
	if r.modern() {
		method = "server/discover"
	}
	return r.main.request(ctx, method, nil, d), method
}

// answered reports whether the server answered the exchange, with a result or an error, or
// with its request's id in the wrong JSON type (alive: that fault is the envelope rule's).
func (x exchange) answered() bool { return x.err == nil || x.rpcErr() != nil || x.idMismatch() }

// idMismatch reports whether the answer came with the request id's value in the other JSON
// type ("2" for 2): the envelope rule's finding, which the rules that only needed the
// answer do not count again (one fault, one failure).
func (x exchange) idMismatch() bool {
	var e *mcpclient.IDTypeMismatchError
	return errors.As(x.err, &e)
}

// notJudgedIDs is why a rule that needed an answer's content is not judged when the answer
// came with an id of the wrong type.
const notJudgedIDs = "not judged: the server answers with ids of the wrong JSON type, so no answer pairs with its request (the envelope rule's finding)"

func (r *run) readResources(ctx context.Context) {
	if !r.active("resources-read") {
		return
	}
	if len(r.resources) == 0 {
		r.na("resources-read", "no resources listed")
		return
	}
	n := 0
	for _, item := range r.resources {
		if n == r.opt.MaxReads || ctx.Err() != nil {
			break
		}
		m, _ := members(item)
		uri := str(m, "uri")
		if uri == "" {
			continue
		}
		n++
		x := r.main.request(ctx, "resources/read", map[string]string{"uri": uri}, r.opt.Server.Timeout)
		if rpc := x.rpcErr(); rpc != nil {
			r.find("resources-read", Should, x.events, "resources/read %q (a listed resource) got error %d %q", uri, rpc.Code, rpc.Message)
			continue
		}
		if x.err != nil {
			r.find("resources-read", Must, x.events, "resources/read %q (a listed resource): %v", uri, x.err)
			continue
		}
		res := x.result()
		if len(res) > r.opt.MaxReadBytes {
			r.note("resources-read", x.events, "resources/read %q: %d bytes, over the %d checked", uri, len(res), r.opt.MaxReadBytes)
			continue
		}
		var out struct {
			Contents []map[string]json.RawMessage `json:"contents"`
		}
		if json.Unmarshal(res, &out) != nil || out.Contents == nil {
			r.find("resources-read", Must, x.events, "resources/read %q: the result has no contents array", uri)
			continue
		}
		for i, c := range out.Contents {
			if !isKind(c["uri"], "string") {
				r.find("resources-read", Must, x.events, "resources/read %q: contents[%d] has no uri", uri, i)
			}
			if !isKind(c["text"], "string") && !isKind(c["blob"], "string") {
				r.find("resources-read", Must, x.events, "resources/read %q: contents[%d] has neither text nor blob (a string)", uri, i)
			}
		}
	}
	r.note("resources-read", nil, "%d of %d listed resources read", n, len(r.resources))
}

func (r *run) getPrompts(ctx context.Context) {
	if !r.active("prompts-get") {
		return
	}
	n := 0
	for _, item := range r.prompts {
		if ctx.Err() != nil {
			break
		}
		m, _ := members(item)
		name := str(m, "name")
		var args []struct {
			Required bool `json:"required"`
		}
		_ = json.Unmarshal(m["arguments"], &args)
		needs := false
		for _, a := range args {
			needs = needs || a.Required
		}
		if name == "" || needs {
			continue
		}
		n++
		x := r.main.request(ctx, "prompts/get", map[string]any{"name": name}, r.opt.Server.Timeout)
		if rpc := x.rpcErr(); rpc != nil {
			// An answer, if not the prompt: it may need what the check does not offer (elicitation).
			r.find("prompts-get", Should, x.events, "prompts/get %q (no required argument) got error %d %q", name, rpc.Code, rpc.Message)
			continue
		}
		var ie *mcpclient.InputError
		if errors.As(x.err, &ie) {
			// The server asked the client for input (input_required, MCP 2026-07-28 MRTR):
			// the check declares no elicitation or sampling, so asking is the server's
			// deviation, not a client's failure.
			r.find("prompts-get", Should, x.events, "prompts/get %q (no required argument) asked the client for input (input_required) though the check declares no client capabilities (no elicitation, no sampling): a server asks only for what the client declared", name)
			continue
		}
		if x.err != nil {
			r.find("prompts-get", Must, x.events, "prompts/get %q (no required argument): %v", name, x.err)
			continue
		}
		var out struct {
			Messages []struct {
				Role    string                     `json:"role"`
				Content map[string]json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if json.Unmarshal(x.result(), &out) != nil || out.Messages == nil {
			r.find("prompts-get", Must, x.events, "prompts/get %q: the result has no messages array", name)
			continue
		}
		for i, msg := range out.Messages {
			if msg.Role != "user" && msg.Role != "assistant" {
				r.find("prompts-get", Must, x.events, "prompts/get %q: messages[%d].role is %q, not user or assistant", name, i, msg.Role)
			}
			if !isKind(msg.Content["type"], "string") {
				r.find("prompts-get", Must, x.events, "prompts/get %q: messages[%d].content has no type", name, i)
			}
		}
	}
	if n == 0 {
		r.na("prompts-get", "no prompt without a required argument listed")
		return
	}
	r.note("prompts-get", nil, "%s got", jsontext.Count(n, "prompt", "prompts"))
}

// complete asks completion/complete for the first prompt argument, else the first
// template variable.
func (r *run) complete(ctx context.Context) {
	if !r.active("completion") || ctx.Err() != nil {
		return
	}
	if _, ok := r.caps["completions"]; !ok {
		r.na("completion", "the server declares no completions capability")
		return
	}
	var ref map[string]string
	arg := ""
	for _, item := range r.prompts {
		var p mcpclient.Prompt
		if json.Unmarshal(item, &p) == nil && len(p.Arguments) > 0 {
			ref, arg = map[string]string{"type": "ref/prompt", "name": p.Name}, p.Arguments[0].Name
			break
		}
	}
	if ref == nil {
		for _, item := range r.templates {
			m, _ := members(item)
			if v := firstVariable(str(m, "uriTemplate")); v != "" {
				ref, arg = map[string]string{"type": "ref/resource", "uri": str(m, "uriTemplate")}, v
				break
			}
		}
	}
	if ref == nil {
		r.na("completion", "no prompt argument or template variable to complete")
		return
	}
	params := map[string]any{"ref": ref, "argument": map[string]string{"name": arg, "value": ""}}
	x := r.main.request(ctx, "completion/complete", params, r.opt.Server.Timeout)
	what := fmt.Sprintf("completion/complete %s %s", ref["type"], ref["name"]+ref["uri"])
	if x.err != nil {
		r.find("completion", Must, x.events, "%s argument %q: %v", what, arg, x.err)
		return
	}
	var out struct {
		Completion *struct {
			Values []string `json:"values"`
		} `json:"completion"`
	}
	if json.Unmarshal(x.result(), &out) != nil || out.Completion == nil || out.Completion.Values == nil {
		r.find("completion", Must, x.events, "%s: the result has no completion.values array of strings", what)
		return
	}
	if n := len(out.Completion.Values); n > 100 {
		r.find("completion", Must, x.events, "%s: %d values, more than 100", what, n)
		return
	}
	r.note("completion", x.events, "%s argument %q: %d values", what, arg, len(out.Completion.Values))
}

// firstVariable is the first variable name of a URI template, "" when none.
func firstVariable(t string) string {
	i := strings.IndexByte(t, '{')
	j := strings.IndexByte(t, '}')
	if i < 0 || j < i {
		return ""
	}
	e := strings.TrimLeft(t[i+1:j], "+#./;?&")
	e, _, _ = strings.Cut(e, ",")
	e, _, _ = strings.Cut(e, ":")
	return strings.TrimSuffix(e, "*")
}

func (r *run) setLevel(ctx context.Context) {
	if !r.active("logging") || ctx.Err() != nil {
		return
	}
	if _, ok := r.caps["logging"]; !ok {
		r.na("logging", "the server declares no logging capability")
		return
	}
	if r.init != nil && r.init.Era == mcpclient.EraModern {
		r.na("logging", "the 2026-07-28 era has no logging/setLevel (the level travels in _meta)")
		return
	}
	x := r.main.request(ctx, "logging/setLevel", map[string]string{"level": "info"}, r.opt.Server.Timeout)
	if x.err != nil {
		r.find("logging", Must, x.events, "logging/setLevel info: %v", x.err)
		return
	}
	r.note("logging", x.events, "logging/setLevel info: answered")
}
