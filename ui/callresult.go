package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/progress"
	"charm.land/bubbles/v2/spinner"
	"charm.land/lipgloss/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/findings"
	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/internal/media"
	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// callRun is one tools/call: in flight (spinner, elapsed, progress) or finished (result).
type callRun struct {
	id      int
	tool    string
	args    json.RawMessage
	started time.Time
	cancel  context.CancelFunc
	// reqSeq is the Seq of our request on the wire, learned from the timeline; progress
	// notifications paired to it drive the bar.
	reqSeq   uint64
	progress float64
	total    float64
	progMsg  string

	// invalid lists the validation problems the user sent the arguments despite.
	invalid []string
	// resent marks a call sent again after its session was dropped: it is not sent a
	// third time.
	resent bool
	// outSchema is the tool's outputSchema: structuredContent is checked against it.
	outSchema json.RawMessage
	// advice caches the outputSchema check of the result (adviceDone once computed).
	advice     findings.Output
	adviceDone bool

	done bool
	res  *mcpclient.CallToolResult
	resp *mcpclient.Response
	// resOfResp says res is decoded from resp's result (callDoneMsg.resOfResp).
	resOfResp bool
	err       error
	elapsed   time.Duration
	// rounds counts the tools/call requests the call sent (more than one after
	// input_required answers, MCP 2026-07-28 basic/patterns/mrtr); firstSeq is the first.
	rounds   int
	firstSeq uint64

	// viaTask is set for a call sent as a task (its request Seq is found by name).
	viaTask bool
	// task is the task the call runs as (nil for a plain call).
	task *mcpclient.Task
	// late is a response that came after the call was cancelled or timed out.
	late *mcpclient.Event
	// respProblems are the problems of the response frame (invalid UTF-8, an unpaired
	// surrogate …), from its timeline event; respSeen once that event was found.
	respProblems []mcpclient.Problem
	respSeen     bool
	// full draws content beyond the preview (previewBytes per text); cut is set by
	// resultLines when something was left out of the preview. keysHint, when set, says
	// near the top of a large result how to see all of it.
	full     bool
	cut      bool
	keysHint string

	// linkAt are the resource_link blocks of the rendered result (set by resultLines);
	// links are their resources/read by block index (links.go); linkKey, when set, names
	// the key that reads one.
	linkAt  []linkPos
	links   map[int]*linkRead
	linkKey string

	// js is structuredContent's JSON view (calljson.go).
	js callJSON

	// pics are the decoded pictures of the result and where their previews sit
	// (imagepreview.go); set by callPane.render, nil draws no preview.
	pics *resultPics

	// screen masks the result's secrets while the panes do (screenmask.go; set by the
	// pane that draws it, nil: as received); masked is res so masked, maskedOf the res
	// it was made from.
	screen   *common
	masked   *mcpclient.CallToolResult
	maskedOf *mcpclient.CallToolResult
}

// shownRes is the result as the pane draws it: its secrets masked while the panes mask them.
func (r *callRun) shownRes() *mcpclient.CallToolResult {
	if r.screen == nil || !r.screen.masking() || r.res == nil {
		return r.res
	}
	if r.maskedOf != r.res {
		r.masked, r.maskedOf = r.res, r.res
		// A response frame the redactor leaves as it is (the trace then holds it so) has no
		// secret in any form, so neither has its decoded text: masking that text would
		// first copy it whole (a 100 MB result: 100 MB).
		if !r.resOfResp || r.resp == nil || r.resp.Msg == nil || !bytes.Equal(r.screen.redact(r.resp.Msg.Result), r.resp.Msg.Result) {
			r.masked = maskResult(r.res, r.screen.redact)
		}
	}
	return r.masked
}

// running reports whether the call waits for its answer.
func (r *callRun) running() bool { return r != nil && !r.done }

// newSpinner and newBar build the in-flight widgets from theme colors.
func newSpinner(st *themes.Styles) spinner.Model {
	return spinner.New(spinner.WithSpinner(spinner.Line), spinner.WithStyle(st.Accent))
}

func newBar(st *themes.Styles) progress.Model {
	b := progress.New(progress.WithWidth(30))
	if st.Palette.Accent != nil {
		b.FullColor, b.EmptyColor = st.Palette.Accent, st.Palette.Muted
	} else {
		// Without colors the bar is drawn with distinct runes and no color at all.
		b.Full, b.Empty = '#', '.'
		b.FullColor, b.EmptyColor = lipgloss.NoColor{}, lipgloss.NoColor{}
	}
	return b
}

// observe watches the timeline for our request and its progress notifications.
func (r *callRun) observe(ev *mcpclient.Event) bool {
	if r == nil || r.done || ev.Msg == nil {
		return false
	}
	// A plain call learns its request's Seq from OnSent; a task call (sent by
	// CallToolAsTask, without one) still finds it by tool name.
	if r.viaTask && r.reqSeq == 0 && ev.Dir == mcpclient.ClientToServer && ev.Kind == mcpclient.KindRequest && ev.Msg.Method == "tools/call" {
		var p struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(ev.Msg.Params, &p) == nil && p.Name == r.tool {
			r.reqSeq = ev.Seq
		}
		return false
	}
	if r.reqSeq != 0 && ev.Kind == mcpclient.KindNotification && ev.Pair == r.reqSeq && ev.Msg.Method == "notifications/progress" {
		var p session.ProgressParams
		if json.Unmarshal(ev.Msg.Params, &p) == nil {
			r.progress, r.total, r.progMsg = p.Progress, p.Total, p.Message
			return true
		}
	}
	return false
}

// resultLines renders a finished call: status, error or each content block in full,
// structuredContent, timing. All server text is sanitized.
func resultLines(st *themes.Styles, r *callRun, w int) []string {
	var out []string
	add := func(l ...string) { out = append(out, l...) }
	head := fmt.Sprintf("tools/call %s", clean(r.tool))
	add(wrapStyled(st.Title, head, w)...)
	took := "took " + r.elapsed.Round(time.Millisecond).String()
	if r.rounds > 1 {
		took += fmt.Sprintf(" over %d rounds", r.rounds)
	}
	facts := []string{took}
	if notSent(r.err) {
		facts = []string{"not sent"}
	}
	switch {
	case notSent(r.err):
	case r.resp != nil && r.rounds > 1 && r.firstSeq != 0:
		facts = append(facts, fmt.Sprintf("request #%d → response #%d", r.firstSeq, r.resp.Seq))
	case r.resp != nil:
		facts = append(facts, fmt.Sprintf("request #%d → response #%d", r.resp.RequestSeq, r.resp.Seq))
	case r.reqSeq != 0 && r.late != nil && diedPending(r.err):
		facts = append(facts, fmt.Sprintf("request #%d, no response before the server died (one came after: #%d)", r.reqSeq, r.late.Seq))
	case r.reqSeq != 0:
		facts = append(facts, fmt.Sprintf("request #%d, no response", r.reqSeq))
	}
	add(st.Muted.Render(strings.Join(facts, " · ")))
	if r.keysHint != "" && largeResult(r.res) {
		add(wrapStyled(st.Warning, r.keysHint, w)...)
	}
	add(responseProblemLines(st, r.respProblems, w)...)
	add(wrapStyled(st.Muted, "arguments: "+clean(string(r.args)), w)...)
	add(invalidLines(st, r.invalid, w)...)
	add("")
	if r.err != nil {
		add(errorLines(st, r.err, w)...)
		return out
	}
	res := r.shownRes()
	if res == nil {
		add(st.Muted.Render("(no result)"))
		return out
	}
	if res.IsError {
		add(st.Error.Render("tool returned an error (isError)"))
	} else {
		add(st.Success.Render(fmt.Sprintf("ok · %d content block(s)", len(res.Content))))
	}
	r.cut = false
	r.linkAt = r.linkAt[:0]
	if r.pics != nil {
		r.pics.at = r.pics.at[:0]
	}
	limit := previewBytes
	if r.full {
		limit = showAllBytes
	}
	for i, b := range res.Content {
		add("")
		b, cut := previewBlock(b, limit)
		if b.Type == "resource_link" {
			r.linkAt = append(r.linkAt, linkPos{block: i, line: len(out), hint: -1, uri: b.URI})
		}
		add(blockLines(st, i, b, res.IsError, w)...)
		add(r.pics.blockPreview(st, i, b, len(out), w)...)
		if b.Type == "resource_link" {
			switch lr := r.links[i]; {
			case lr != nil:
				add(linkReadLines(st, lr, w)...)
			case r.linkKey != "":
				// The view marks the one the read key reads (callPane.linkHints).
				r.linkAt[len(r.linkAt)-1].hint = len(out)
				add(st.Muted.Render("  not read yet (" + r.linkKey + " reads the links one by one)"))
			}
		}
		if cut > 0 {
			r.cut = true
			add(st.Warning.Render(fmt.Sprintf("… %s more not shown (block %d is %s)", humanSize(int64(cut)), i+1, humanSize(int64(cut+previewLen(b))))))
		}
	}
	if len(res.StructuredContent) > 0 || len(r.outSchema) > 0 {
		add(outputAdvice(st, r, w)...)
	}
	if sc := res.StructuredContent; len(sc) > 0 {
		add("", st.Title.Render("structuredContent"))
		if lines, ok := r.structuredLines(st, sc, limit, w, len(out)); ok {
			add(lines...)
		} else if len(sc) > limit {
			text, used := jsontext.IndentPrefix(sc[:runeCut(sc, limit)], previewLines)
			add(wrap(block(text), w)...)
			r.cut = true
			add(st.Warning.Render(fmt.Sprintf("… structuredContent shown up to byte %d of %d", used, len(sc))))
		} else if pretty, ok := jsontext.Indent(sc); ok {
			add(wrap(block(pretty), w)...)
		} else {
			add(wrap(block(string(sc)), w)...)
		}
	}
	return out
}

// largeResult reports whether a result holds more than the preview draws at once.
func largeResult(res *mcpclient.CallToolResult) bool {
	if res == nil {
		return false
	}
	for _, b := range res.Content {
		if len(b.Text) > previewBytes || b.Resource != nil && len(b.Resource.Text) > previewBytes {
			return true
		}
	}
	return len(res.StructuredContent) > previewBytes
}

// previewBlock cuts a content block's text (or embedded resource text) to limit bytes
// for display; cut is how many bytes were left out.
func previewBlock(b mcpclient.ContentBlock, limit int) (mcpclient.ContentBlock, int) {
	if n := len(b.Text); n > limit {
		b.Text = b.Text[:runeCut(b.Text, limit)]
		return b, n - len(b.Text)
	}
	if b.Resource != nil && len(b.Resource.Text) > limit {
		res := *b.Resource
		n := len(res.Text)
		res.Text = res.Text[:runeCut(res.Text, limit)]
		b.Resource = &res
		return b, n - len(res.Text)
	}
	return b, 0
}

// previewLen is the length of the text previewBlock kept.
func previewLen(b mcpclient.ContentBlock) int {
	if b.Resource != nil && b.Text == "" {
		return len(b.Resource.Text)
	}
	return len(b.Text)
}

// responseProblemLines says what was wrong with the response frame itself, which the
// decoded result no longer shows: invalid UTF-8 became replacement characters, an
// unpaired surrogate escape became one (case B05). Other warnings are named briefly.
func responseProblemLines(st *themes.Styles, probs []mcpclient.Problem, w int) []string {
	var out []string
	for _, pr := range probs {
		if pr.Severity < mcpclient.Warning {
			continue
		}
		var text string
		at := ""
		if n, ok := problemByte(pr.Text); ok {
			at = fmt.Sprintf(" at byte %d", n)
		}
		switch pr.Code {
		case mcpclient.CodeInvalidUTF8:
			text = "⚠ invalid UTF-8" + at + " in the response (replacement characters shown)"
		case mcpclient.CodeUnpairedSurrogate:
			text = "⚠ unpaired surrogate" + at + " in the response (shown as a replacement character)"
		case mcpclient.CodeAfterCancel, mcpclient.CodeAfterTimeout:
			continue // said below, with the late response
		default:
			text = "⚠ the response frame: " + clean(pr.Text)
		}
		out = append(out, wrapStyled(st.Warning, text, w)...)
	}
	return out
}

// problemByte reads the offset from a problem text that says "at byte N".
func problemByte(text string) (int, bool) {
	const marker = "at byte "
	i := strings.Index(text, marker)
	if i < 0 {
		return 0, false
	}
	n, ok := 0, false
	for _, c := range text[i+len(marker):] {
		if c < '0' || c > '9' {
			break
		}
		n, ok = n*10+int(c-'0'), true
	}
	return n, ok
}

// blockLines renders one content block (MCP 2025-11-25 schema ContentBlock).
func blockLines(st *themes.Styles, i int, b mcpclient.ContentBlock, isErr bool, w int) []string {
	var out []string
	label := func(s string) string { return st.Accent.Render(fmt.Sprintf("[%d] %s", i+1, s)) }
	textSt := st.Base
	if isErr {
		textSt = st.Error
	}
	if hasControls(b) {
		out = append(out, st.Warning.Render(fmt.Sprintf("⚠ block %d holds terminal control or invisible characters; shown escaped", i+1)))
	}
	switch b.Type {
	case "text":
		out = append(out, label("text"))
		out = append(out, wrapStyled(textSt, block(b.Text), w)...)
	case "image", "audio":
		out = append(out, label(b.Type))
		out = append(out, "  mime: "+clean(b.MimeType))
		in := media.Describe(b.Type, b.MimeType, b.Data)
		switch {
		case in.Err != nil:
			out = append(out, st.Warning.Render(fmt.Sprintf("  data: %d bytes of base64 that do not decode: %s", len(b.Data), clean(in.Err.Error()))))
		default:
			out = append(out, fmt.Sprintf("  size: %s decoded (%d bytes)", humanSize(int64(len(in.Data))), len(in.Data)))
			if in.Width > 0 || in.Height > 0 {
				out = append(out, fmt.Sprintf("  pixels: %d×%d (%s)", in.Width, in.Height, in.Format))
			} else if b.Type == "image" {
				out = append(out, st.Muted.Render("  pixels: unknown (not PNG, JPEG, GIF or WebP)"))
			}
		}
	case "resource_link":
		out = append(out, label("resource_link"))
		out = append(out, wrap("  uri:  "+clean(b.URI), w)...)
		if b.Name != "" {
			out = append(out, wrap("  name: "+clean(b.Name), w)...)
		}
		if b.MimeType != "" {
			out = append(out, "  mime: "+clean(b.MimeType))
		}
		if b.Description != "" {
			out = append(out, wrap("  "+clean(b.Description), w)...)
		}
	case "resource":
		out = append(out, label("resource"))
		if b.Resource == nil {
			out = append(out, st.Warning.Render("  (no resource object)"))
			break
		}
		out = append(out, wrap("  uri:  "+clean(b.Resource.URI), w)...)
		if b.Resource.MimeType != "" {
			out = append(out, "  mime: "+clean(b.Resource.MimeType))
		}
		switch {
		case b.Resource.Text != "":
			out = append(out, wrapStyled(textSt, block(b.Resource.Text), w)...)
		case b.Resource.Blob != "":
			out = append(out, fmt.Sprintf("  blob: %d bytes of base64", len(b.Resource.Blob)))
		}
	default:
		note := fmt.Sprintf("unknown content type '%s'", clean(b.Type))
		if b.Type == "" {
			note = "content block without a type"
		}
		out = append(out, label(note))
		out = append(out, jsonOrText(st, b.Raw, w)...)
	}
	return out
}

// notSent reports whether err says a request was refused before it was written because
// the server was already gone (mcpclient.ExitError.NotSent).
func notSent(err error) bool {
	var exit *mcpclient.ExitError
	return errors.As(err, &exit) && exit.NotSent
}

// errorLines says in words why a call has no result.
func errorLines(st *themes.Styles, err error, w int) []string {
	var out []string
	var rpc *mcpclient.RPCError
	var exit *mcpclient.ExitError
	var tmo *mcpclient.TimeoutError
	switch {
	case errors.As(err, &rpc):
		name := mcpclient.ErrorCodeName(rpc.Code)
		if name == "" {
			name = "server-defined error"
		}
		out = append(out, st.Error.Render(fmt.Sprintf("JSON-RPC error %d (%s)", rpc.Code, name)))
		out = append(out, wrapStyled(st.Error, block(rpc.Message), w)...)
		if len(rpc.Data) > 0 {
			out = append(out, "", st.Title.Render("data"))
			out = append(out, jsonOrText(st, rpc.Data, w)...)
		}
	case errors.As(err, &exit) && exit.NotSent:
		// Refused before it was written: the server was already gone (not a request that
		// was pending when it died).
		out = append(out, wrapStyled(st.Error, "not sent: the server is not running (it "+exit.How()+")", w)...)
		if exit.Pending != "" {
			out = append(out, wrap(clean(exit.Pending)+" was refused before it was written; nothing reached the server", w)...)
		}
	case errors.As(err, &exit):
		out = append(out, wrapStyled(st.Error, "server "+exit.How(), w)...)
		if exit.Pending != "" {
			// A task call has no request pending: its task was running (taskDiedError).
			var died *session.TaskDiedError
			state := "pending"
			if errors.As(err, &died) {
				state = "running"
			}
			out = append(out, wrap("while "+clean(exit.Pending)+" was "+state, w)...)
		}
		if len(exit.Stderr) > 0 {
			out = append(out, "", st.Title.Render("last stderr lines"))
			for _, l := range exit.Stderr {
				out = append(out, wrapStyled(st.Stderr, clean(l), w)...)
			}
		}
	case errors.As(err, &tmo):
		out = append(out, wrapStyled(st.Error, clean(tmo.Error()), w)...)
	case errors.Is(err, context.Canceled):
		out = append(out, st.Warning.Render("cancelled by you (notifications/cancelled sent)"))
	case taskCancelled(err):
		out = append(out, wrapStyled(st.Warning, clean(err.Error())+" (the task reached the cancelled status)", w)...)
	default:
		out = append(out, wrapStyled(st.Error, block(err.Error()), w)...)
	}
	return out
}

// hasControls reports whether a block's text carries characters the sanitizer escapes
// (case B23 asks for a warning, not just the escaping).
func hasControls(b mcpclient.ContentBlock) bool {
	for _, s := range []string{b.Text, b.URI, b.Name, b.MimeType, b.Description, b.Type} {
		if sanitize.Contains(s, sanitize.Text) {
			return true
		}
	}
	return b.Resource != nil && (sanitize.Contains(b.Resource.Text, sanitize.Text) || sanitize.Contains(b.Resource.URI, sanitize.Text))
}

// invalidLines marks a call whose arguments were sent despite validation problems. The
// wire shows the exact bytes; this says the user chose to send them.
func invalidLines(st *themes.Styles, problems []string, w int) []string {
	if len(problems) == 0 {
		return nil
	}
	out := wrapStyled(st.Warning, fmt.Sprintf("⚠ sent despite validation errors (%d):", len(problems)), w)
	for i, p := range problems {
		if i == 5 {
			out = append(out, st.Warning.Render(fmt.Sprintf("  … and %d more", len(problems)-5)))
			break
		}
		out = append(out, wrapStyled(st.Warning, "  "+clean(p), w)...)
	}
	return out
}

// outputAdvice checks structuredContent against the tool's outputSchema (MCP 2025-11-25
// server/tools: servers MUST provide structured results that conform to it). A mismatch
// is advisory: it is shown beside the result, which is always shown in full.
func outputAdvice(st *themes.Styles, r *callRun, w int) []string {
	if !r.adviceDone {
		r.advice = findings.CheckOutput(r.outSchema, r.res)
		r.adviceDone = true
	}
	a := r.advice
	switch {
	case !a.Checked:
		return nil
	case a.Missing:
		return append([]string{""}, wrapStyled(st.Warning, "⚠ "+findings.MissingText+" (advisory)", w)...)
	case len(a.Problems) == 0:
		return []string{"", st.Success.Render("✓ structuredContent matches the tool's outputSchema")}
	}
	out := append([]string{""}, wrapStyled(st.Warning, fmt.Sprintf("⚠ %s (%d problem(s); advisory, the result is shown as received):", findings.MismatchText, len(a.Problems)), w)...)
	for _, p := range a.Problems {
		out = append(out, wrapStyled(st.Warning, "  "+clean(p), w)...)
	}
	return out
}
