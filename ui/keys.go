package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// keyMap declares every binding once, grouped by the context it works in (as crush's
// keys.go does). A binding's `in` tag names the panes and dialogs that offer it (tools,
// call, callform, wire, server, resources, prompts, argsform, logs, tasks, sampling,
// elicitURL, elicitForm, roots, rootsEditor, line, json): their help is built from it (offered).
// Bindings are enabled or disabled from state (disabled ones are hidden in help), and the
// README's key table is generated from the groups (keyTable; TestREADMEKeyTable checks it).
type keyMap struct {
	// Global keys work on every pane (unless a text input has focus).
	Global globalKeys
	// List keys move in the list panes (Tools, Wire, Resources, Prompts, Logs, Tasks) and the Server and Call views.
	List listKeys
	// Detail keys scroll and keep the detail beside a list, or a large result.
	Detail detailKeys
	// Tools keys act on the selected tool (1 Tools).
	Tools toolsKeys
	// Form keys edit an argument form (2 Call, templates, prompts, elicitation).
	Form formKeys
	// Input keys edit the text of a form field (the tool form's one-line editor).
	Input inputKeys
	// Call keys work on the calls and their results (2 Call).
	Call callKeys
	// Wire keys work on the frames (3 Wire).
	Wire wireKeys
	// JSON keys explore parsed JSON (the wire detail, a call's result).
	JSON jsonKeys
	// Resources keys work on resources (5 Resources).
	Resources resourceKeys
	// Logs keys work on the log (7 Logs).
	Logs logKeys
	// Tasks keys work on tasks (8 Tasks).
	Tasks taskKeys
	// Dialog keys answer dialogs (server requests, roots editor, save-as and restart prompts, level chooser).
	Dialog dialogKeys
	// Breakpoints keys edit the breakpoints and settle held messages (a tap's, attached, or
	// what the server sends to the TUI's own session).
	Breakpoints breakpointKeys
}

// globalKeys are the keys that work on every pane (unless a text input has focus).
type globalKeys struct {
	NextPane  key.Binding
	PrevPane  key.Binding
	Tools     key.Binding
	Call      key.Binding
	Wire      key.Binding
	Server    key.Binding
	Resources key.Binding
	Prompts   key.Binding
	Logs      key.Binding
	Tasks     key.Binding
	// Ping sends ping and shows the round trip (legacy era); Roots edits the roots offered.
	Ping  key.Binding
	Roots key.Binding
	// SaveSession saves the session recorded so far under a name.
	SaveSession key.Binding
	// Sessions opens the picker of kept sessions; enter there opens one in a new TUI.
	Sessions key.Binding
	// Restart opens the command line prompt; enter stops the server and starts it again.
	// RestartFramed restarts a silent stdio server with --framing content-length;
	// RestartUnbuffered restarts a stdio server with PYTHONUNBUFFERED=1 in its environment.
	Restart           key.Binding
	RestartFramed     key.Binding
	RestartUnbuffered key.Binding
	// Reveal shows the session's secrets on screen as received, or masks them again.
	Reveal key.Binding
	// Breakpoints opens the breakpoints dialog; Held shows the first held message again
	// (after esc hid it). Both only with a holder (Options.Breakpoints).
	Breakpoints key.Binding
	Held        key.Binding
	// Zoom gives the detail beside a list the whole pane, then the list, then both again;
	// SplitLess and SplitMore move the split between them (a smaller or larger list).
	Zoom      key.Binding
	SplitLess key.Binding
	SplitMore key.Binding
	// CancelCall cancels what the focused pane has in flight (an op, a task, the call).
	CancelCall key.Binding `in:"call"`
	Help       key.Binding
	Quit       key.Binding
	ForceQuit  key.Binding
}

// listKeys are the keys that move in the list panes (Tools, Wire, Resources, Prompts, Logs, Tasks) and the Server and Call views.
type listKeys struct {
	Up       key.Binding `in:"tools call wire server resources prompts logs tasks rootsEditor breakpoints"`
	Down     key.Binding `in:"tools call wire server resources prompts logs tasks rootsEditor breakpoints"`
	PageUp   key.Binding `in:"tools call wire server resources prompts logs tasks"`
	PageDown key.Binding `in:"tools call wire server resources prompts logs tasks"`
	Top      key.Binding `in:"tools call wire server resources prompts logs tasks"`
	Bottom   key.Binding `in:"tools call wire server resources prompts logs tasks"`
	// Search, SearchNext and SearchPrev are "/", "n" and "N" in every list and in the JSON
	// explorer, as the wire's search keys are in the wire (issue 27: one meaning per key):
	// type a query, the selection jumps to the first match, n/N step through the matches.
	// Filter ("F") narrows what the list shows instead, as the wire's filter expression does.
	Search     key.Binding `in:"tools call resources prompts logs tasks json"`
	SearchNext key.Binding `in:"tools call resources prompts logs tasks json"`
	SearchPrev key.Binding `in:"tools call resources prompts logs tasks json"`
	Filter     key.Binding `in:"tools resources prompts logs tasks"`
	// Open, OpenPrompt and OpenTask are the same key (enter) doing each pane's own thing.
	Open       key.Binding `in:"resources"`
	OpenPrompt key.Binding `in:"prompts"`
	OpenTask   key.Binding `in:"tasks"`
	Refresh    key.Binding `in:"tools resources prompts tasks"`
	// NextPage steps through a listing one page at a time (the first press lists page 1);
	// "+" (load more), not "n", which is the next match everywhere.
	NextPage key.Binding `in:"tools resources prompts"`
	// FilterUp/FilterDown move the selection while the filter has focus (where k and j
	// are text).
	FilterUp   key.Binding
	FilterDown key.Binding
}

// detailKeys are the keys that scroll and keep the detail beside a list, or a large result.
type detailKeys struct {
	// DetailUp/DetailDown scroll the detail beside a list.
	DetailUp   key.Binding `in:"tools wire resources prompts tasks"`
	DetailDown key.Binding `in:"tools wire resources prompts tasks"`
	// ShowAll draws all of a large frame instead of its preview (Save writes it to a file).
	ShowAll key.Binding `in:"call wire"`
	Save    key.Binding `in:"call wire resources"`
	// SaveRaw writes a frame's exact bytes, secrets included (Save masks them: issue 15).
	SaveRaw key.Binding `in:"call wire"`
	// Copy puts the frame (secrets masked) on the clipboard, in the Call pane the shown
	// result, elsewhere what the pane shows (issue 27: the tool, the read contents, the
	// prompt's messages, the log entry, the initialize result); CopyParsed the parsed
	// message indented; CopyExact the exact bytes, or what the pane shows unmasked;
	// CopyCommand a shell line that repeats the request (issue 16: OSC 52 and a file).
	Copy        key.Binding `in:"call wire tools resources prompts logs server"`
	CopyParsed  key.Binding `in:"call wire"`
	CopyExact   key.Binding `in:"call wire tools resources prompts logs server"`
	CopyCommand key.Binding `in:"call wire"`
	// OpenMedia writes the shown picture to a file and opens it in the system viewer
	// (xdg-open, open, explorer.exe); RawText shows descriptions and markdown resources as the server
	// sent them ⇄ rendered (issue 16).
	OpenMedia key.Binding `in:"call resources"`
	RawText   key.Binding `in:"tools call server resources prompts"`
}

// toolsKeys are the keys that act on the selected tool (1 Tools).
type toolsKeys struct {
	OpenForm   key.Binding `in:"tools"`
	CallByName key.Binding `in:"tools"`
	// NameArgs moves between the name and the arguments of the call-by-name prompt.
	NameArgs key.Binding
}

// formKeys are the keys that edit an argument form (2 Call, templates, prompts, elicitation).
type formKeys struct {
	NextField     key.Binding `in:"callform argsform elicitForm"`
	PrevField     key.Binding `in:"callform argsform elicitForm"`
	Submit        key.Binding `in:"callform argsform"`
	RawJSON       key.Binding `in:"callform argsform"`
	Cancel        key.Binding `in:"callform argsform"`
	Toggle        key.Binding `in:"callform elicitForm"`
	AcceptDefault key.Binding `in:"callform"`
	Example       key.Binding `in:"callform"`
	SetNull       key.Binding `in:"callform"`
	Omit          key.Binding `in:"callform argsform"`
	EmptyString   key.Binding `in:"callform argsform"`
	AddItem       key.Binding `in:"callform"`
	// AddItemRow also adds an item or entry, on a list's or map's own row only (in a
	// text field "+" is text).
	AddItemRow key.Binding
	RemoveItem key.Binding `in:"callform"`
	MoveUp     key.Binding `in:"callform"`
	MoveDown   key.Binding `in:"callform"`
	RenameKey  key.Binding `in:"callform"`
	History    key.Binding `in:"callform"`
	// Describe shows the tool's text for the model in full (description, parameter
	// descriptions, their lengths and steering marks) or folds it to its first line.
	Describe    key.Binding `in:"callform"`
	SuggestNext key.Binding `in:"argsform"`
	SuggestPrev key.Binding `in:"argsform"`
	// OptionPrev/OptionNext move among a multi-select's options, or close/open an
	// object or list row; Check checks or unchecks the option; Clear clears a choice.
	OptionPrev key.Binding
	OptionNext key.Binding
	Check      key.Binding
	Clear      key.Binding
}

// inputKeys are the keys that edit the text of a form field (the tool form's one-line
// editor); other keys with text insert it.
type inputKeys struct {
	DeleteBack    key.Binding
	DeleteForward key.Binding
	Left          key.Binding
	Right         key.Binding
	Home          key.Binding
	End           key.Binding
	// DeleteToStart/DeleteToEnd delete before/after the cursor; DeleteWordBack and
	// DeleteWordForward a word.
	DeleteToStart     key.Binding
	DeleteToEnd       key.Binding
	DeleteWordBack    key.Binding
	DeleteWordForward key.Binding
	WordLeft          key.Binding
	WordRight         key.Binding
}

// callKeys are the keys that work on the calls and their results (2 Call).
type callKeys struct {
	Edit key.Binding `in:"call"`
	// PrevCall and NextCall choose the call shown among this session's calls.
	PrevCall key.Binding `in:"call"`
	NextCall key.Binding `in:"call"`
	// ReadLink sends resources/read for a resource_link block of the shown result (the
	// first unread one on screen, else the next unread one: presses walk through them)
	// and shows the contents under it.
	ReadLink key.Binding `in:"call"`
}

// wireKeys are the keys that work on the frames (3 Wire).
type wireKeys struct {
	Jump       key.Binding `in:"wire"`
	WireFilter key.Binding `in:"wire"`
	// FilterExpr edits the filter expression (the wirefilter language; ↑/↓ recall earlier
	// ones); Search searches the frames' bytes and JSON text as typed, and SearchNext and
	// SearchPrev go to the next and previous match.
	FilterExpr key.Binding `in:"wire"`
	Search     key.Binding `in:"wire"`
	SearchNext key.Binding `in:"wire"`
	SearchPrev key.Binding `in:"wire"`
	// Flow opens or closes the selected HTTP exchange in the flow view (the flows filter).
	Flow key.Binding `in:"wire"`
}

// jsonKeys are the keys that explore parsed JSON: Explore moves the focus into it (the
// list keys then move among its nodes) and Leave back; the rest act on the selected node.
type jsonKeys struct {
	Explore   key.Binding `in:"wire call server logs"`
	Leave     key.Binding `in:"json"`
	Toggle    key.Binding `in:"json"`
	Fold      key.Binding `in:"json"`
	Unfold    key.Binding `in:"json"`
	FoldAll   key.Binding `in:"json"`
	UnfoldAll key.Binding `in:"json"`
	// Expand shows a string cut to its line (long text, base64) whole, or cuts it again.
	Expand key.Binding `in:"json"`
	// CopyValue copies the selected node's value (a string decoded), CopyPath its jq path:
	// y and Y as everywhere (y what is shown, Y its other form).
	CopyPath  key.Binding `in:"json"`
	CopyValue key.Binding `in:"json"`
}

// resourceKeys are the keys that work on resources (5 Resources).
type resourceKeys struct {
	Subscribe key.Binding `in:"resources"`
}

// logKeys are the keys that work on the log (7 Logs).
type logKeys struct {
	LevelFilter key.Binding `in:"logs"`
	SetLevel    key.Binding `in:"logs"`
}

// taskKeys are the keys that work on tasks (8 Tasks).
type taskKeys struct {
	TaskResult key.Binding `in:"tasks"`
	TaskCancel key.Binding `in:"tasks"`
}

// dialogKeys are the keys that answer dialogs (server requests, roots editor, save-as and restart prompts, level chooser).
type dialogKeys struct {
	Confirm    key.Binding `in:"roots line breakpoints"`
	ChoosePrev key.Binding
	ChooseNext key.Binding
	ScrollUp   key.Binding `in:"sampling elicitURL elicitForm"`
	ScrollDown key.Binding `in:"sampling elicitURL elicitForm"`
	Accept     key.Binding `in:"sampling elicitURL elicitForm roots breakpoints"`
	Decline    key.Binding `in:"sampling elicitURL elicitForm roots"`
	Dismiss    key.Binding `in:"sampling elicitURL elicitForm roots rootsEditor line breakpoints"`
	EditRoots  key.Binding `in:"roots"`
	AddRoot    key.Binding `in:"rootsEditor"`
	RemoveRoot key.Binding `in:"rootsEditor"`
}

// breakpointKeys edit the breakpoints (the breakpoints dialog) and settle a held message
// (the hold dialog, whose JSON editor takes every other key as text).
type breakpointKeys struct {
	// Add types a breakpoint (a wire filter, checked as typed); Remove deletes the
	// selected one; Timeout edits how long a message is held before it goes on unchanged.
	Add     key.Binding `in:"breakpoints"`
	Remove  key.Binding `in:"breakpoints"`
	Timeout key.Binding `in:"breakpoints"`
	// Forward sends the held message on (unchanged, or as edited), or sends the answer
	// being edited back to its sender; Drop forwards nothing.
	Forward key.Binding `in:"hold"`
	Drop    key.Binding `in:"hold"`
	// AnswerError and AnswerResult put a JSON-RPC response to the held request in the
	// editor (an error, a result) to edit and send back in the receiver's place; Revert
	// puts the held message back as it came.
	AnswerError  key.Binding `in:"hold"`
	AnswerResult key.Binding `in:"hold"`
	Revert       key.Binding `in:"hold"`
	// Hide closes the dialog without deciding: the message stays held.
	Hide key.Binding `in:"hold"`
}

// defaultKeyMap is the key map the UI starts with.
func defaultKeyMap() keyMap {
	return keyMap{
		Global:    defaultGlobalKeys(),
		List:      defaultListKeys(),
		Detail:    defaultDetailKeys(),
		Tools:     defaultToolsKeys(),
		Form:      defaultFormKeys(),
		Input:     defaultInputKeys(),
		Call:      defaultCallKeys(),
		Wire:      defaultWireKeys(),
		JSON:      defaultJSONKeys(),
		Resources: defaultResourceKeys(),
		Logs:      defaultLogKeys(),
		Tasks:     defaultTaskKeys(),
		Dialog:    defaultDialogKeys(),

		Breakpoints: defaultBreakpointKeys(),
	}
}

func defaultGlobalKeys() globalKeys {
	return globalKeys{
		Quit:              key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit:         key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit (always)")),
		Help:              key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		NextPane:          key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane:          key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Tools:             key.NewBinding(key.WithKeys("1"), key.WithHelp("1", "tools")),
		Call:              key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "call")),
		Wire:              key.NewBinding(key.WithKeys("3"), key.WithHelp("3", "wire")),
		Server:            key.NewBinding(key.WithKeys("4"), key.WithHelp("4", "server")),
		Resources:         key.NewBinding(key.WithKeys("5"), key.WithHelp("5", "resources")),
		Prompts:           key.NewBinding(key.WithKeys("6"), key.WithHelp("6", "prompts")),
		Logs:              key.NewBinding(key.WithKeys("7"), key.WithHelp("7", "logs")),
		Tasks:             key.NewBinding(key.WithKeys("8"), key.WithHelp("8", "tasks")),
		CancelCall:        key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "cancel call")),
		Ping:              key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "ping (round trip)")),
		Roots:             key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "edit roots")),
		SaveSession:       key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "save this session under a name")),
		Sessions:          key.NewBinding(key.WithKeys("K"), key.WithHelp("K", "kept sessions: pick one to open (this TUI ends)")),
		Restart:           key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "edit the command and restart the server")),
		RestartFramed:     key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "restart a silent server with --framing content-length")),
		RestartUnbuffered: key.NewBinding(key.WithKeys("U"), key.WithHelp("U", "restart a server whose stdout is buffered with PYTHONUNBUFFERED=1")),
		Reveal:            key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "show secrets on screen as received ⇄ mask them (as the trace does)")),
		Breakpoints:       key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "breakpoints: hold the messages a wire filter matches")),
		Held:              key.NewBinding(key.WithKeys("B"), key.WithHelp("B", "held messages: show the first one again")),
		Zoom:              key.NewBinding(key.WithKeys("="), key.WithHelp("=", "zoom: the detail takes the pane → the list → both")),
		SplitLess:         key.NewBinding(key.WithKeys("<"), key.WithHelp("<", "move the split: a smaller list, a larger detail")),
		SplitMore:         key.NewBinding(key.WithKeys(">"), key.WithHelp(">", "move the split: a larger list, a smaller detail")),
	}
}

func defaultListKeys() listKeys {
	return listKeys{
		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:     key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "page up")),
		PageDown:   key.NewBinding(key.WithKeys("pgdown", "ctrl+f", "space"), key.WithHelp("pgdn", "page down")),
		Top:        key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "first")),
		Bottom:     key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "last (follow)")),
		Search:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search: jump to the first match")),
		SearchNext: key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next match")),
		SearchPrev: key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match")),
		Filter:     key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "filter: show only what matches")),
		Open:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "read the resource / fill the template")),
		OpenPrompt: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "get (fill its arguments)")),
		OpenTask:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "tasks/get")),
		Refresh:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "list again")),
		NextPage:   key.NewBinding(key.WithKeys("+"), key.WithHelp("+", "list one page at a time: load the next page")),
		FilterUp:   key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "up (while filtering)")),
		FilterDown: key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "down (while filtering)")),
	}
}

func defaultDetailKeys() detailKeys {
	return detailKeys{
		DetailUp:    key.NewBinding(key.WithKeys("["), key.WithHelp("[", "scroll detail up")),
		DetailDown:  key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "scroll detail down")),
		ShowAll:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "show all of a large frame ⇄ preview")),
		Save:        key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "save contents to a file (a frame with its secrets masked)")),
		SaveRaw:     key.NewBinding(key.WithKeys("W"), key.WithHelp("W", "save a frame's exact bytes, secrets included")),
		Copy:        key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy what is shown, secrets masked: the frame, the result, the tool, the entry")),
		CopyParsed:  key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "copy the parsed message, indented")),
		CopyExact:   key.NewBinding(key.WithKeys("alt+y"), key.WithHelp("alt+y", "copy a frame's exact bytes (or what is shown), secrets included")),
		CopyCommand: key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "copy as command: mcp-inspect (and curl) line repeating the request")),
		OpenMedia:   key.NewBinding(key.WithKeys("O"), key.WithHelp("O", "open the picture in the system viewer")),
		RawText:     key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "markdown rendered ⇄ raw text")),
	}
}

func defaultToolsKeys() toolsKeys {
	return toolsKeys{
		OpenForm:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "call tool")),
		CallByName: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "call a tool by name (raw JSON arguments)")),
		NameArgs:   key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "call by name: name ⇄ arguments")),
	}
}

func defaultFormKeys() formKeys {
	return formKeys{
		NextField:     key.NewBinding(key.WithKeys("tab", "down", "enter"), key.WithHelp("tab/↓/enter", "next field")),
		PrevField:     key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous field")),
		Submit:        key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "send")),
		RawJSON:       key.NewBinding(key.WithKeys("ctrl+e"), key.WithHelp("ctrl+e", "form ⇄ raw JSON")),
		Cancel:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close form")),
		Toggle:        key.NewBinding(key.WithKeys("space", "left", "right"), key.WithHelp("space/←/→", "choose, check, open/close")),
		AcceptDefault: key.NewBinding(key.WithKeys("ctrl+y"), key.WithHelp("ctrl+y", "accept default")),
		Example:       key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "next example")),
		SetNull:       key.NewBinding(key.WithKeys("alt+n"), key.WithHelp("alt+n", "null")),
		Omit:          key.NewBinding(key.WithKeys("alt+o"), key.WithHelp("alt+o", "omit (unset)")),
		EmptyString:   key.NewBinding(key.WithKeys("alt+e"), key.WithHelp("alt+e", "empty string")),
		AddItem:       key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "add item/entry")),
		AddItemRow:    key.NewBinding(key.WithKeys("+"), key.WithHelp("+", "add item/entry")),
		RemoveItem:    key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "remove item/entry")),
		MoveUp:        key.NewBinding(key.WithKeys("alt+up"), key.WithHelp("alt+↑", "move item up")),
		MoveDown:      key.NewBinding(key.WithKeys("alt+down"), key.WithHelp("alt+↓", "move item down")),
		RenameKey:     key.NewBinding(key.WithKeys("alt+k"), key.WithHelp("alt+k", "rename entry key")),
		History:       key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "earlier arguments")),
		Describe:      key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "full description ⇄ first line")),
		SuggestNext:   key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "next suggestion")),
		SuggestPrev:   key.NewBinding(key.WithKeys("ctrl+p"), key.WithHelp("ctrl+p", "previous suggestion")),
		OptionPrev:    key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "previous option, close a row")),
		OptionNext:    key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "next option, open a row")),
		Check:         key.NewBinding(key.WithKeys("space", "x"), key.WithHelp("space/x", "check ⇄ uncheck an option")),
		Clear:         key.NewBinding(key.WithKeys("backspace", "delete"), key.WithHelp("backspace", "clear the choice")),
	}
}

func defaultCallKeys() callKeys {
	return callKeys{
		Edit:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit arguments")),
		PrevCall: key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "older call")),
		NextCall: key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "newer call")),
		ReadLink: key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "read the next resource_link not read yet (resources/read)")),
	}
}

func defaultWireKeys() wireKeys {
	return wireKeys{
		Jump:       key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "jump request ⇄ response")),
		WireFilter: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "filter: all/messages/problems/stderr/flows")),
		Flow:       key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "flows: open ⇄ close the HTTP exchange")),
		FilterExpr: key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "filter expression (↑ earlier ones)")),
		Search:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search bytes and JSON")),
		SearchNext: key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next match")),
		SearchPrev: key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match")),
	}
}

func defaultJSONKeys() jsonKeys {
	return jsonKeys{
		Explore:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "explore the parsed JSON: select nodes, fold, copy a path or value")),
		Leave:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leave the JSON (back to the list)")),
		Toggle:    key.NewBinding(key.WithKeys("enter", "space"), key.WithHelp("enter/space", "fold ⇄ unfold the object or array")),
		Fold:      key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "fold, or go to the parent")),
		Unfold:    key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "unfold, or go into it")),
		FoldAll:   key.NewBinding(key.WithKeys("z"), key.WithHelp("z", "fold all below the top")),
		UnfoldAll: key.NewBinding(key.WithKeys("Z"), key.WithHelp("Z", "unfold all")),
		Expand:    key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "show a cut string (long text, base64) whole ⇄ cut")),
		CopyPath:  key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "copy the node's jq path (.result.content[0].text)")),
		CopyValue: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy the node's value (a string as its text)")),
	}
}

func defaultResourceKeys() resourceKeys {
	return resourceKeys{
		Subscribe: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "subscribe ⇄ unsubscribe")),
	}
}

func defaultLogKeys() logKeys {
	return logKeys{
		LevelFilter: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "show levels ≥ …")),
		SetLevel:    key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "set the server's log level")),
	}
}

func defaultTaskKeys() taskKeys {
	return taskKeys{
		TaskResult: key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "tasks/result")),
		TaskCancel: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "tasks/cancel")),
	}
}

func defaultInputKeys() inputKeys {
	return inputKeys{
		DeleteBack:        key.NewBinding(key.WithKeys("backspace", "ctrl+h"), key.WithHelp("backspace", "delete the character before")),
		DeleteForward:     key.NewBinding(key.WithKeys("delete", "ctrl+d"), key.WithHelp("delete/ctrl+d", "delete the character under the cursor")),
		Left:              key.NewBinding(key.WithKeys("left", "ctrl+b"), key.WithHelp("←/ctrl+b", "character left")),
		Right:             key.NewBinding(key.WithKeys("right", "ctrl+f"), key.WithHelp("→/ctrl+f", "character right")),
		Home:              key.NewBinding(key.WithKeys("home", "ctrl+a"), key.WithHelp("home/ctrl+a", "start of the field")),
		End:               key.NewBinding(key.WithKeys("end", "ctrl+e"), key.WithHelp("end", "end of the field")),
		DeleteToStart:     key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "delete to the start")),
		DeleteToEnd:       key.NewBinding(key.WithKeys("ctrl+k"), key.WithHelp("ctrl+k", "delete to the end")),
		DeleteWordBack:    key.NewBinding(key.WithKeys("ctrl+w", "alt+backspace"), key.WithHelp("ctrl+w", "delete the word before")),
		DeleteWordForward: key.NewBinding(key.WithKeys("alt+delete", "alt+d"), key.WithHelp("alt+d", "delete the word after")),
		WordLeft:          key.NewBinding(key.WithKeys("alt+left", "ctrl+left", "alt+b"), key.WithHelp("alt+←", "word left")),
		WordRight:         key.NewBinding(key.WithKeys("alt+right", "ctrl+right", "alt+f"), key.WithHelp("alt+→", "word right")),
	}
}

func defaultDialogKeys() dialogKeys {
	return dialogKeys{
		Confirm:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "confirm")),
		ChoosePrev: key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "previous choice")),
		ChooseNext: key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "next choice")),
		ScrollUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll the request up")),
		ScrollDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll the request down")),
		Accept:     key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "accept / send")),
		Decline:    key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "decline / reject")),
		Dismiss:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		EditRoots:  key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit roots")),
		AddRoot:    key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "add a root")),
		RemoveRoot: key.NewBinding(key.WithKeys("d", "delete"), key.WithHelp("d", "delete the root")),
	}
}

func defaultBreakpointKeys() breakpointKeys {
	return breakpointKeys{
		Add:          key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "add a breakpoint (a wire filter)")),
		Remove:       key.NewBinding(key.WithKeys("d", "delete"), key.WithHelp("d", "remove the breakpoint")),
		Timeout:      key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "hold timeout (then the message goes on unchanged)")),
		Forward:      key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "forward the held message (as edited), or send the answer")),
		Drop:         key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "drop the held message (nothing goes on)")),
		AnswerError:  key.NewBinding(key.WithKeys("alt+e"), key.WithHelp("alt+e", "answer the held request with an error (edit, then ctrl+s)")),
		AnswerResult: key.NewBinding(key.WithKeys("alt+r"), key.WithHelp("alt+r", "answer the held request with a result (edit, then ctrl+s)")),
		Revert:       key.NewBinding(key.WithKeys("alt+z"), key.WithHelp("alt+z", "back to the held message as it came")),
		Hide:         key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "hide: the message stays held (B shows it)")),
	}
}

// scrollStep is how far a list key moves a view or a selection: ±1 for up and down, ±page
// for the page keys, ±all for top and bottom (all at least the number of rows, so the
// caller's clamp lands on the first or last). ok is false for any other key.
func (k listKeys) scrollStep(msg tea.KeyPressMsg, page, all int) (step int, ok bool) {
	switch {
	case key.Matches(msg, k.Up):
		return -1, true
	case key.Matches(msg, k.Down):
		return 1, true
	case key.Matches(msg, k.PageUp):
		return -page, true
	case key.Matches(msg, k.PageDown):
		return page, true
	case key.Matches(msg, k.Top):
		return -all, true
	case key.Matches(msg, k.Bottom):
		return all, true
	}
	return 0, false
}

// pageDetail moves the offset of a detail h rows high by half of it for DetailUp and
// DetailDown (the view keeps it within the lines); false for any other key.
func (k detailKeys) pageDetail(msg tea.KeyPressMsg, off *int, h int) bool {
	switch {
	case key.Matches(msg, k.DetailUp):
		*off = max(*off-max(h/2, 1), 0)
	case key.Matches(msg, k.DetailDown):
		*off += max(h/2, 1)
	default:
		return false
	}
	return true
}
