package ui

import (
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/cursor"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// lineInput is the tool form's one-line text editor. Unlike bubbles' textinput, whose
// every key measures the whole value's width, a key here costs the same whatever the
// value's length (bar one copy of the value's bytes when inserting in the middle), and
// the view draws only the window of cells around the cursor: a long value typed or
// pasted key by key does not slow down with each character.
type lineInput struct {
	value string
	// pos is the cursor's byte offset in value; off is the byte offset of the first
	// cell shown (the window slides only as far as the cursor needs).
	pos, off int
	width    int
	focus    bool
	// Placeholder is shown, muted, when the value is empty.
	Placeholder string
	styles      textinput.Styles
	// cur draws the cursor; it is static to bubbles, and lineInput blinks it on the
	// model's clock (c.tick), so that a test's clock stops the blink.
	cur  cursor.Model
	keys *inputKeys
	c    *common
	// blinkID tells this input's blinks from another's; blinkTag, the current blink
	// chain's (a new focus starts another, and the old one's ticks are dropped).
	blinkID, blinkTag int
}

// blinkSpeed is how long the cursor stays shown, then hidden (bubbles' cursor's speed).
const blinkSpeed = 530 * time.Millisecond

// lineBlinkMsg is a blink tick of lineInput blinkID's chain blinkTag.
type lineBlinkMsg struct{ id, tag int }

var lineBlinkIDs atomic.Int64

// newLineInput builds an editor drawn in c's theme that edits with c's keys (the key
// map's Input group) and blinks on c's clock.
func newLineInput(c *common) lineInput {
	s := inputStyles(c.st)
	cur := cursor.New()
	cur.Style = lipgloss.NewStyle().Foreground(s.Cursor.Color)
	cur.SetMode(cursor.CursorStatic)
	return lineInput{styles: s, cur: cur, keys: &c.keys.Input, c: c, blinkID: int(lineBlinkIDs.Add(1))}
}

// blink starts the wait before the cursor's next blink.
func (l *lineInput) blink() tea.Cmd {
	id, tag := l.blinkID, l.blinkTag
	return l.c.tick(blinkSpeed, func(time.Time) tea.Msg { return lineBlinkMsg{id: id, tag: tag} })
}

// SetWidth sets the cells the view takes.
func (l *lineInput) SetWidth(w int) { l.width = w; l.slide() }

// Value is the text.
func (l lineInput) Value() string { return l.value }

// SetValue replaces the text, keeping the cursor inside it.
func (l *lineInput) SetValue(s string) {
	l.value = sanitizeLine(s)
	l.pos = min(l.pos, len(l.value))
	for l.pos > 0 && l.pos < len(l.value) && !utf8.RuneStart(l.value[l.pos]) {
		l.pos--
	}
	l.off = min(l.off, l.pos)
	l.slide()
}

// CursorEnd puts the cursor after the last character.
func (l *lineInput) CursorEnd() { l.pos = len(l.value); l.slide() }

// CursorStart puts the cursor before the first character.
func (l *lineInput) CursorStart() { l.pos, l.off = 0, 0; l.slide() }

// Focus shows the cursor and takes keys; the command starts the blink.
func (l *lineInput) Focus() tea.Cmd {
	l.focus = true
	l.cur.Focus()
	l.blinkTag++
	return l.blink()
}

// Blur hides the cursor.
func (l *lineInput) Blur() { l.focus = false; l.cur.Blur() }

// Focused reports whether the input takes keys.
func (l lineInput) Focused() bool { return l.focus }

// sanitizeLine keeps the value on one line: tabs and line breaks become spaces, other
// control characters are dropped.
func sanitizeLine(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, s)
}

func (l *lineInput) insert(s string) {
	s = sanitizeLine(s)
	if l.pos == len(l.value) {
		l.value += s // amortized: Go grows the backing array when it can
	} else {
		l.value = l.value[:l.pos] + s + l.value[l.pos:]
	}
	l.pos += len(s)
}

func (l *lineInput) left() int {
	_, n := utf8.DecodeLastRuneInString(l.value[:l.pos])
	return l.pos - n
}

func (l *lineInput) right() int {
	_, n := utf8.DecodeRuneInString(l.value[l.pos:])
	return l.pos + n
}

// wordLeft is the start of the word before the cursor.
func (l *lineInput) wordLeft() int {
	i := l.pos
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(l.value[:i])
		if !unicode.IsSpace(r) {
			break
		}
		i -= n
	}
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(l.value[:i])
		if unicode.IsSpace(r) {
			break
		}
		i -= n
	}
	return i
}

// wordRight is the end of the word after the cursor.
func (l *lineInput) wordRight() int {
	i := l.pos
	for i < len(l.value) {
		r, n := utf8.DecodeRuneInString(l.value[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	for i < len(l.value) {
		r, n := utf8.DecodeRuneInString(l.value[i:])
		if unicode.IsSpace(r) {
			break
		}
		i += n
	}
	return i
}

// Update edits on key presses and pastes, and blinks the cursor.
func (l lineInput) Update(msg tea.Msg) (lineInput, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		if l.focus {
			l.insert(msg.Content)
			l.slide()
		}
		return l, nil
	case tea.KeyPressMsg:
		if !l.focus {
			return l, nil
		}
		k := l.keys
		switch {
		case key.Matches(msg, k.DeleteBack):
			if l.pos > 0 {
				i := l.left()
				l.value = l.value[:i] + l.value[l.pos:]
				l.pos = i
			}
		case key.Matches(msg, k.DeleteForward):
			if l.pos < len(l.value) {
				l.value = l.value[:l.pos] + l.value[l.right():]
			}
		case key.Matches(msg, k.Left):
			l.pos = l.left()
		case key.Matches(msg, k.Right):
			l.pos = l.right()
		case key.Matches(msg, k.Home):
			l.pos = 0
		case key.Matches(msg, k.End):
			l.pos = len(l.value)
		case key.Matches(msg, k.DeleteToStart):
			l.value = l.value[l.pos:]
			l.pos, l.off = 0, 0
		case key.Matches(msg, k.DeleteToEnd):
			l.value = l.value[:l.pos]
		case key.Matches(msg, k.DeleteWordBack):
			i := l.wordLeft()
			l.value = l.value[:i] + l.value[l.pos:]
			l.pos = i
		case key.Matches(msg, k.DeleteWordForward):
			l.value = l.value[:l.pos] + l.value[l.wordRight():]
		case key.Matches(msg, k.WordLeft):
			l.pos = l.wordLeft()
		case key.Matches(msg, k.WordRight):
			l.pos = l.wordRight()
		default:
			if msg.Text != "" && msg.Mod&(tea.ModCtrl|tea.ModAlt) == 0 {
				l.insert(msg.Text)
			}
		}
		l.off = min(l.off, l.pos)
		l.slide()
		l.cur.IsBlinked = false
		return l, nil
	}
	switch msg := msg.(type) {
	case lineBlinkMsg:
		if msg.id == l.blinkID && msg.tag == l.blinkTag && l.focus {
			l.cur.IsBlinked = !l.cur.IsBlinked
			return l, l.blink()
		}
	case tea.FocusMsg: // the terminal's: show the cursor and blink again
		l.cur, _ = l.cur.Update(msg)
		l.blinkTag++
		return l, l.blink()
	case tea.BlurMsg: // hide the cursor and stop the blink
		l.cur, _ = l.cur.Update(msg)
		l.blinkTag++
	}
	return l, nil
}

// slide moves the window so the cursor is in it; it walks at most a window's width of
// characters.
func (l *lineInput) slide() {
	if l.width <= 0 {
		l.off = 0
		return
	}
	if l.pos < l.off {
		l.off = l.pos
		return
	}
	// The cursor needs a cell of its own after the text before it.
	room := l.width - 1
	w, i := 0, l.pos
	for i > l.off {
		r, n := utf8.DecodeLastRuneInString(l.value[:i])
		rw := ansi.StringWidth(string(r))
		if w+rw > room {
			l.off = i
			return
		}
		w += rw
		i -= n
	}
}

// View draws the window of the value around the cursor, in exactly width cells.
func (l lineInput) View() string {
	st := l.styles.Blurred
	if l.focus {
		st = l.styles.Focused
	}
	if l.value == "" && l.Placeholder != "" {
		ph := []rune(l.Placeholder)
		l.cur.TextStyle = st.Placeholder
		l.cur.SetChar(string(ph[:1]))
		rest := ansi.Truncate(string(ph[1:]), max(l.width-1, 0), "")
		pad := max(l.width-1-ansi.StringWidth(rest), 0)
		return l.cur.View() + st.Placeholder.Render(rest+strings.Repeat(" ", pad))
	}
	text := st.Text.Inline(true).Render
	before := l.value[l.off:l.pos]
	used := ansi.StringWidth(before)
	var b strings.Builder
	b.WriteString(text(before))
	l.cur.TextStyle = st.Text
	if l.pos < len(l.value) {
		r, n := utf8.DecodeRuneInString(l.value[l.pos:])
		l.cur.SetChar(string(r))
		b.WriteString(l.cur.View())
		used += ansi.StringWidth(string(r))
		after := l.value[l.pos+n:]
		if l.width > 0 {
			// Take only what fits: the bytes looked at are bounded by the width.
			k := min(len(after), 4*(l.width+1))
			for k < len(after) && k > 0 && !utf8.RuneStart(after[k]) {
				k--
			}
			after = ansi.Truncate(after[:k], max(l.width-used, 0), "")
		}
		b.WriteString(text(after))
		used += ansi.StringWidth(after)
	} else {
		l.cur.SetChar(" ")
		b.WriteString(l.cur.View())
		used++
	}
	if l.width > used {
		b.WriteString(text(strings.Repeat(" ", l.width-used)))
	}
	return b.String()
}
