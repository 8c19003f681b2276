package ui

import "charm.land/bubbles/v2/key"

// KeyMap declares every binding once; help is generated from it and bindings are enabled
// or disabled from state (disabled ones are hidden in help).
type KeyMap struct {
	// Global.
	Quit      key.Binding
	ForceQuit key.Binding
	Help      key.Binding
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
	// Restart opens the command line prompt; enter stops the server and starts it again.
	Restart key.Binding

	// Lists (tools, wire).
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
	// DetailUp/DetailDown scroll the detail beside a list.
	DetailUp   key.Binding
	DetailDown key.Binding

	// Tools pane.
	Filter   key.Binding
	OpenForm key.Binding

	// Form.
	NextField key.Binding
	PrevField key.Binding
	Submit    key.Binding
	RawJSON   key.Binding
	Cancel    key.Binding
	Toggle    key.Binding
	// Form field actions.
	AcceptDefault key.Binding
	Example       key.Binding
	SetNull       key.Binding
	Omit          key.Binding
	EmptyString   key.Binding
	AddItem       key.Binding
	RemoveItem    key.Binding
	MoveUp        key.Binding
	MoveDown      key.Binding
	RenameKey     key.Binding
	History       key.Binding
	// AddItemRow also adds an item or entry, on a list's or map's own row only (in a
	// text field "+" is text).
	AddItemRow key.Binding

	// Call / result.
	CancelCall key.Binding
	Edit       key.Binding
	// PrevCall and NextCall choose the call shown among this session's calls.
	PrevCall key.Binding
	NextCall key.Binding
	// ReadLink sends resources/read for a resource_link block of the shown result (the
	// first unread one on screen, else the next unread one: presses walk through them)
	// and shows the contents under it.
	ReadLink key.Binding

	// Tools pane: CallByName calls any tool, listed or not, with raw JSON arguments.
	CallByName key.Binding

	// Wire pane.
	Jump       key.Binding
	WireFilter key.Binding
	// ShowAll draws all of a large frame instead of its preview (Save writes it to a file).
	ShowAll key.Binding

	// Resources, prompts, tasks: open (read, fill a template, get, tasks/get), subscribe,
	// save contents, list again.
	Open      key.Binding
	Subscribe key.Binding
	Save      key.Binding
	Refresh   key.Binding
	// Completion suggestions in argument forms.
	SuggestNext key.Binding
	SuggestPrev key.Binding
	// Logs pane.
	LevelFilter key.Binding
	SetLevel    key.Binding
	// Tasks pane.
	TaskResult key.Binding
	TaskCancel key.Binding

	// Server-request dialogs and the roots editor; Confirm, ChoosePrev/ChooseNext and
	// ScrollUp/ScrollDown serve the small inputs (level chooser, save prompt, dialogs).
	Confirm    key.Binding
	ChoosePrev key.Binding
	ChooseNext key.Binding
	ScrollUp   key.Binding
	ScrollDown key.Binding
	Accept     key.Binding
	Decline    key.Binding
	Dismiss    key.Binding
	EditRoots  key.Binding
	AddRoot    key.Binding
	RemoveRoot key.Binding
}

// DefaultKeyMap is the key map the UI starts with.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Quit:        key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit:   key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit (always)")),
		Help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		NextPane:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane:    key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Tools:       key.NewBinding(key.WithKeys("1"), key.WithHelp("1", "tools")),
		Call:        key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "call")),
		Wire:        key.NewBinding(key.WithKeys("3"), key.WithHelp("3", "wire")),
		Server:      key.NewBinding(key.WithKeys("4"), key.WithHelp("4", "server")),
		Resources:   key.NewBinding(key.WithKeys("5"), key.WithHelp("5", "resources")),
		Prompts:     key.NewBinding(key.WithKeys("6"), key.WithHelp("6", "prompts")),
		Logs:        key.NewBinding(key.WithKeys("7"), key.WithHelp("7", "logs")),
		Tasks:       key.NewBinding(key.WithKeys("8"), key.WithHelp("8", "tasks")),
		Ping:        key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "ping (round trip)")),
		Roots:       key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "edit roots")),
		SaveSession: key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "save this session under a name")),
		Restart:     key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "edit the command and restart the server")),

		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:     key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "page up")),
		PageDown:   key.NewBinding(key.WithKeys("pgdown", "ctrl+f", "space"), key.WithHelp("pgdn", "page down")),
		Top:        key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "first")),
		Bottom:     key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "last (follow)")),
		DetailUp:   key.NewBinding(key.WithKeys("["), key.WithHelp("[", "scroll detail up")),
		DetailDown: key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "scroll detail down")),

		Filter:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		OpenForm: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "call tool")),

		NextField: key.NewBinding(key.WithKeys("tab", "down", "enter"), key.WithHelp("tab/↓/enter", "next field")),
		PrevField: key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous field")),
		Submit:    key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "send")),
		RawJSON:   key.NewBinding(key.WithKeys("ctrl+e"), key.WithHelp("ctrl+e", "form ⇄ raw JSON")),
		Cancel:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close form")),
		Toggle:    key.NewBinding(key.WithKeys("space", "left", "right"), key.WithHelp("space/←/→", "choose, check, open/close")),

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

		CancelCall: key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "cancel call")),
		Edit:       key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit arguments")),
		PrevCall:   key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "older call")),
		NextCall:   key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "newer call")),
		ReadLink:   key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "read the next resource_link not read yet (resources/read)")),
		CallByName: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "call a tool by name (raw JSON arguments)")),

		Jump:       key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "jump request ⇄ response")),
		WireFilter: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "filter: all/messages/problems/stderr")),
		ShowAll:    key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "show all of a large frame ⇄ preview")),

		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "read / fill template / get")),
		Subscribe:   key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "subscribe ⇄ unsubscribe")),
		Save:        key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "save contents to a file")),
		Refresh:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "list again")),
		SuggestNext: key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "next suggestion")),
		SuggestPrev: key.NewBinding(key.WithKeys("ctrl+p"), key.WithHelp("ctrl+p", "previous suggestion")),
		LevelFilter: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "show levels ≥ …")),
		SetLevel:    key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "set the server's log level")),
		TaskResult:  key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "tasks/result")),
		TaskCancel:  key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "tasks/cancel")),

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
