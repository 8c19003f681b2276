package session

// Level is how a Note reads: "info", "warning" or "error" (the UI's log levels).
type Level string

// Note levels.
const (
	Info    Level = "info"
	Warning Level = "warning"
	Error   Level = "error"
)

// Note is something the session tells the user: the UI shows it in its status line and
// logs it. The text is final English, already worded for a person.
type Note struct {
	Level Level
	Text  string
}
