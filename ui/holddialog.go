package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/mcp-inspect/mcp-inspect/internal/jsontext"
	"github.com/mcp-inspect/mcp-inspect/internal/sanitize"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/session"
)

// maxEditorLines is how many lines of an indented held message the editor takes (the
// textarea holds at most 10000); a longer message is edited compacted on one line.
const maxEditorLines = 9000

// maxEditBytes is the largest held message the editor takes: past it every key costs
// seconds (the textarea lays the whole text out again), so a larger one is shown read-only,
// its start only; it can still be forwarded, dropped or answered.
const maxEditBytes = 256 << 10

// heldPreviewBytes is how much of a read-only message's indented text is shown.
const heldPreviewBytes = 32 << 10

// Acts of the breakpoint dialogs, carried out by holdActs.
type (
	// holdDecideAct settles hold id as d says.
	holdDecideAct struct {
		id int64
		d  session.HoldDecision
	}
	// holdHideAct closes the hold dialog without deciding (the message stays held).
	holdHideAct struct{}
	// setBreakpointsAct asks the holder for set.
	setBreakpointsAct struct{ set session.BreakpointSet }
)

// holdMode is what the hold dialog's editor holds: the message, or an answer to it.
type holdMode int

const (
	holdMessage holdMode = iota
	holdAnswerError
	holdAnswerResult
)

// holdDialog shows one held message in a JSON editor, checked as JSON-RPC as it is typed:
// forward it (unchanged or edited), drop it, or answer a held request in the receiver's
// place.
type holdDialog struct {
	c    *common
	hold session.Hold
	// orig is the message as the editor first held it (indented): forwarding it unchanged
	// sends HoldForward, not a copy.
	orig string
	mode holdMode
	ed   textarea.Model
	// problem is what is wrong with the text now ("" when it is a JSON-RPC message of
	// kind); refusal says why the last send was refused ("" when none).
	problem, refusal string
	// caution is what sending the text would do that the user may not mean (the held
	// request's id changed or gone: its sender gets no answer); "" when nothing.
	caution string
	kind    mcpclient.Kind
	// keysFrom ignores keys before it (the dialog may open under typing fingers).
	keysFrom time.Time
	// readOnly: the message is too large to edit (maxEditBytes); the editor shows its
	// start and takes no keys until an answer is put in it.
	readOnly    bool
	readOnlyWhy string // what the footer says of it
	// heldID is the held message's id, compact ("" for none).
	heldID string
	w, h   int
}

// newHoldDialog is the dialog on hold, taking keys from keysFrom on.
func newHoldDialog(c *common, hold session.Hold, keysFrom time.Time) *holdDialog {
	text, ok := jsontext.Indent(hold.Raw)
	readOnly := len(hold.Raw) > maxEditBytes
	why := humanSize(int64(len(hold.Raw))) + " is too large to edit here"
	if ok {
		text = escapeJSONText(text) // the form's JSON editor's escaping (case B24)
	} else if sanitize.HasControls(hold.Raw) {
		// Not JSON, with controls in it: shown with visible escapes, and so not editable
		// (the escapes are not the bytes); it can be forwarded, dropped or answered.
		text, readOnly = block(string(hold.Raw)), true
		why = "not JSON, and its control characters are shown escaped"
	}
	switch {
	case readOnly:
		if len(text) > heldPreviewBytes {
			cut := strings.LastIndexByte(text[:heldPreviewBytes], '\n')
			text = text[:max(cut, 0)] + "\n… (the rest of " + humanSize(int64(len(hold.Raw))) + ": too large to edit here)"
		}
	case !ok || strings.Count(text, "\n") > maxEditorLines:
		text = jsontext.Compact(hold.Raw)
	}
	ta := textarea.New()
	ta.ShowLineNumbers = true
	// MaxHeight bounds the lines one can type, and its digits size the line-number gutter.
	ta.MaxHeight = 999
	if strings.Count(text, "\n") > 900 {
		ta.MaxHeight = maxEditorLines + 999
	}
	ta.SetStyles(areaStyles(c.st))
	ta.SetValue(text)
	ta.MoveToBegin()
	d := &holdDialog{c: c, hold: hold, orig: ta.Value(), ed: ta, keysFrom: keysFrom, readOnly: readOnly, readOnlyWhy: why, heldID: messageID(hold.Raw)}
	d.check()
	return d
}

// frozen reports whether the editor shows the read-only message (no keys go to it).
func (d *holdDialog) frozen() bool { return d.readOnly && d.mode == holdMessage }

// check validates the editor's text as the message to send.
func (d *holdDialog) check() {
	d.kind, d.problem, d.caution = 0, "", ""
	if d.frozen() {
		d.kind, _, _ = mcpclient.Classify(d.hold.Raw) // the editor holds only its start
		return
	}
	kind, err := session.CheckHeldMessage([]byte(d.ed.Value()))
	d.kind = kind
	switch {
	case err != nil:
		d.problem = err.Error()
	case d.mode != holdMessage && kind != mcpclient.KindResponse && kind != mcpclient.KindErrorResponse:
		d.problem = "an answer is a JSON-RPC response (an id and a result or an error), not a " + kindWord(kind)
	}
	d.caution = ""
	if d.problem == "" && d.hold.Request {
		d.caution = idCaution(d.heldID, []byte(d.ed.Value()), d.mode != holdMessage)
	}
}

// idCaution says what an edit of a held request whose id was (or an answer to it) does to
// the request's id, when its sender would then wait for an answer that never comes.
func idCaution(was string, text []byte, answer bool) string {
	now := messageID(text)
	switch {
	case was == "" || was == now:
		return ""
	case now == "" && !answer:
		return "no id now (a notification): request id " + was + " will get no answer"
	case answer:
		return "the answer's id " + now + " is not the held request's " + was + ": its sender will not take it as the answer"
	}
	return "id " + was + " is now " + now + ": the answer will have id " + now + ", and the sender's request " + was + " none"
}

// messageID is the compact id of a JSON-RPC message ("" when none, or null).
func messageID(raw []byte) string {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(raw, &m) != nil || len(m.ID) == 0 || string(m.ID) == "null" {
		return ""
	}
	return jsontext.Compact(m.ID)
}

// edited reports whether the text differs from the message as it came.
func (d *holdDialog) edited() bool { return d.mode != holdMessage || d.ed.Value() != d.orig }

func (d *holdDialog) handleKey(msg tea.KeyPressMsg) (tea.Msg, tea.Cmd) {
	if d.c.now().Before(d.keysFrom) {
		return nil, nil
	}
	k := d.c.keys.Breakpoints
	switch {
	case key.Matches(msg, k.Hide):
		return holdHideAct{}, nil
	case key.Matches(msg, k.Drop):
		return holdDecideAct{d.hold.ID, session.HoldDecision{Kind: session.HoldDrop}}, nil
	case key.Matches(msg, k.Forward):
		return d.send(), nil
	case key.Matches(msg, k.AnswerError, k.AnswerResult):
		d.answerWith(key.Matches(msg, k.AnswerError))
		return nil, nil
	case key.Matches(msg, k.Revert):
		d.mode, d.refusal = holdMessage, ""
		d.ed.SetValue(d.orig)
		d.ed.MoveToBegin()
		d.check()
		return nil, nil
	}
	if d.frozen() {
		return nil, nil
	}
	var cmd tea.Cmd
	d.ed, cmd = d.ed.Update(msg)
	d.check()
	return nil, cmd
}

// send is the decision the forward key makes: the message unchanged, as edited, or the
// answer; nil (with the refusal said) while the text is not one to send.
func (d *holdDialog) send() tea.Msg {
	if !d.edited() {
		return holdDecideAct{d.hold.ID, session.HoldDecision{Kind: session.HoldForward}}
	}
	if d.problem != "" {
		d.refusal = "not sent: " + d.problem
		return nil
	}
	kind := session.HoldSend
	if d.mode != holdMessage {
		kind = session.HoldAnswer
	}
	// Compacted here as the holder would: what the dialog sends is the line that goes on.
	return holdDecideAct{d.hold.ID, session.HoldDecision{Kind: kind, Message: []byte(jsontext.Compact([]byte(d.ed.Value())))}}
}

// answerWith puts a response to the held request in the editor: an error or a result.
func (d *holdDialog) answerWith(isError bool) {
	if !d.hold.Request {
		d.refusal = "only a held request can be answered (this is not one)"
		return
	}
	text, ok := session.AnswerTemplate(d.hold.Raw, isError)
	if !ok {
		d.refusal = "the held request has no id to answer"
		return
	}
	d.mode, d.refusal = holdAnswerResult, ""
	if isError {
		d.mode = holdAnswerError
	}
	d.ed.SetValue(text)
	d.ed.MoveToBegin()
	d.check()
}

func (d *holdDialog) setSize(w, h int) {
	d.w, d.h = w, h
	d.ed.SetWidth(max(w-2, 10))
	d.ed.SetHeight(max(h-len(d.headLines())-len(d.footLines()), 1))
}

func (d *holdDialog) focus() tea.Cmd { return d.ed.Focus() }

func (d *holdDialog) updateInput(msg tea.Msg) (tea.Cmd, bool) {
	if d.frozen() {
		return nil, true // a paste does not reach the read-only message
	}
	var cmd tea.Cmd
	d.ed, cmd = d.ed.Update(msg)
	return cmd, true
}

func (d *holdDialog) bindings(k *keyMap) []key.Binding { return k.offered("hold") }

// direction says where the held message was going.
func (d *holdDialog) direction() string {
	if d.hold.Dir == mcpclient.ServerToClient {
		return "server → host"
	}
	return "host → server"
}

// headLines are the dialog's title: what is held, where it was going, the breakpoint, and
// the time left before it goes on unchanged.
func (d *holdDialog) headLines() []string {
	st := d.c.st
	left := d.hold.Deadline.Sub(d.c.now()).Round(time.Second)
	wait := fmt.Sprintf("goes on unchanged in %s", max(left, 0))
	if d.hold.Deadline.IsZero() {
		wait = "no timeout"
	}
	return []string{
		fit(st.Title.Render("held at a breakpoint: ")+st.Accent.Render(clean(d.hold.What)), d.w),
		fit(st.Warning.Render(wait)+st.Muted.Render(" · "+d.direction()+" · breakpoint ")+clean(d.hold.Breakpoint), d.w),
		st.Border.Render(strings.Repeat("─", max(d.w, 0))),
	}
}

// footLines are what the editor's text is (or what is wrong with it), what sending it
// does, and the keys.
func (d *holdDialog) footLines() []string {
	st := d.c.st
	k := d.c.keys.Breakpoints
	var state string
	switch {
	case d.frozen():
		state = st.Warning.Render("read-only: "+d.readOnlyWhy) +
			st.Muted.Render("; "+k.Forward.Help().Key+" forwards it unchanged")
	case d.problem != "":
		state = st.Error.Render("✗ " + clean(d.problem))
	case d.mode == holdAnswerError, d.mode == holdAnswerResult:
		state = st.Success.Render("✓ JSON-RPC "+kindWord(d.kind)) + st.Muted.Render(": "+k.Forward.Help().Key+" sends it back to the sender; nothing is forwarded")
	case d.edited():
		state = st.Success.Render("✓ JSON-RPC "+kindWord(d.kind)) + st.Muted.Render(": edited, "+k.Forward.Help().Key+" forwards it as edited")
	default:
		state = st.Success.Render("✓ JSON-RPC "+kindWord(d.kind)) + st.Muted.Render(": unchanged")
	}
	out := []string{st.Border.Render(strings.Repeat("─", max(d.w, 0))), fit(state, d.w)}
	if d.caution != "" {
		out = append(out, fit(st.Warning.Render("⚠ "+clean(d.caution)), d.w))
	}
	if d.refusal != "" {
		out = append(out, fit(st.Warning.Render(clean(d.refusal)), d.w))
	}
	keys := []string{k.Forward.Help().Key + " forward", k.Drop.Help().Key + " drop"}
	if d.hold.Request {
		keys = append(keys, k.AnswerError.Help().Key+" answer error", k.AnswerResult.Help().Key+" answer result")
	}
	keys = append(keys, k.Revert.Help().Key+" as it came", k.Hide.Help().Key+" hide (stays held)")
	return append(out, wrapStyled(st.Muted, strings.Join(keys, " · "), max(d.w, 10))...)
}

// view draws the dialog: its title, the editor, the check and the keys.
func (d *holdDialog) view() string {
	head, foot := d.headLines(), d.footLines()
	lines := append(head, strings.Split(d.ed.View(), "\n")...)
	if room := d.h - len(foot); len(lines) > room {
		lines = lines[:max(room, 0)]
	}
	lines = append(lines, foot...)
	return strings.Join(window(lines, 0, d.h, d.w), "\n")
}

// kindWord names a JSON-RPC message's kind.
func kindWord(k mcpclient.Kind) string {
	if k == mcpclient.KindErrorResponse {
		return "error response"
	}
	return k.String()
}
