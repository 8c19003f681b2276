package findings

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// steering are the phrases Lint marks, each with what it says about the text. They are
// the forms tool-poisoning write-ups show (orders to the model, hiding from the user,
// pointers at keys and secrets, requests for secrets by name); matching is case-insensitive and whitespace-tolerant.
var steering = []struct {
	re   *regexp.Regexp
	says string
}{
	{regexp.MustCompile(`(?i)\b(ignore|disregard|forget)\s+(all\s+|any\s+)?(the\s+)?(previous|prior|above|earlier|other)\s+(instructions|prompts?|rules|directions)`), "tells the model to ignore its instructions"},
	{regexp.MustCompile(`(?i)\b(do\s+not|don'?t|never)\s+(tell|inform|mention\s+(this\s+)?to|reveal\s+(this\s+)?to|show\s+(this\s+)?to|let)\s+the\s+user`), "tells the model to hide something from the user"},
	{regexp.MustCompile(`(?i)\bwithout\s+(telling|informing|notifying|asking)\s+the\s+user`), "tells the model to act without the user knowing"},
	{regexp.MustCompile(`(?i)\b(do\s+not|don'?t|never)\s+(mention|reveal|disclose)\b`), "tells the model to keep something secret"},
	{regexp.MustCompile(`(?i)<\s*/?\s*(important|system|instructions?)\s*>`), "carries a tag addressed to the model (<IMPORTANT>, <system>)"},
	{regexp.MustCompile(`(?i)\b(before|after)\s+(using|calling|running)\s+(this|any|every)\s+(other\s+)?tool\b`), "orders the model to act around other tools"},
	{regexp.MustCompile(`(?i)\b(you\s+(must|are\s+required\s+to)\s+(first\s+|also\s+|always\s+)?(call|use|run|read|send|include|pass|add|fetch|open)|you\s+are\s+now|always\s+(call|use|run|read|send|include))\b`), "gives the model orders"},
	{regexp.MustCompile(`(?i)\bsystem\s+prompt\b`), "mentions the system prompt"},
	{regexp.MustCompile(`(?i)(~|\$HOME|%USERPROFILE%)?[/\\]?\.ssh\b|\bid_(rsa|dsa|ecdsa|ed25519)\b`), "names SSH keys"},
	{regexp.MustCompile(`(?i)(^|[\s"'/\\(\x60])\.env(\.[a-z]+)?\b`), "names a .env file"},
	{regexp.MustCompile(`(?i)\.aws[/\\]credentials|\.netrc\b|\.npmrc\b|\.pgpass\b|\.git-credentials\b|\.docker[/\\]config\.json|\.kube[/\\]config|/etc/(passwd|shadow)\b`), "names a credentials file"},
	// A verb of taking or sending, then within six words a secret by name; bare "token" and
	// "password" are left out ("returns a token", "sends a password reset email").
	{regexp.MustCompile(`(?i)\b(include|send|read|pass|attach|collect|forward|share|upload|post|provide|give|copy|paste|append|output|print|reveal|leak|exfiltrate|extract|dump|gather|grab|steal)\b(\s+\S+){0,6}?\s+(api[\s_-]?keys?|secret\s+keys?|secrets|private\s+keys?|access\s+tokens?|auth(entication)?\s+tokens?|bearer\s+tokens?|tokens|passwords|passphrases?|(user'?s|your|their)\s+password|credentials|session\s+cookies|cookies|environment\s+variables|env\s+vars)\b`), "asks for secrets by name"},
	{regexp.MustCompile(`(?s)<!--.*?(-->|$)`), "holds a hidden HTML comment"},
}

// Lint marks what in text, written by a server for a model, reads as steering the model or
// hiding from the user, one line per kind: the phrases above (quoting the first match) and
// invisible characters (zero-width, bidi controls, tag characters, other Unicode format
// characters). It is for a person's review: a mark is not proof, and nothing acts on it.
func Lint(text string) []string {
	var out []string
	for _, s := range steering {
		if m := s.re.FindString(text); m != "" {
			out = append(out, fmt.Sprintf("%s: %q", s.says, quote(m)))
		}
	}
	out = append(out, invisible(text)...)
	return out
}

// quote trims a match to at most 60 characters, spaces collapsed.
func quote(m string) string {
	m = strings.Join(strings.Fields(m), " ")
	if r := []rune(m); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return m
}

// invisible counts the characters a reader cannot see, by kind.
func invisible(text string) []string {
	var zw, bidi, tag, other int
	var tagText []rune
	for _, r := range text {
		switch {
		case r >= 0xE0000 && r <= 0xE007F:
			tag++
			if r >= 0xE0020 && r <= 0xE007E {
				tagText = append(tagText, r-0xE0000)
			}
		case r == 0x200B || r == 0x200C || r == 0x200D || r == 0x2060 || r == 0xFEFF:
			zw++
		case r == 0x200E || r == 0x200F || r == 0x061C || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069):
			bidi++
		case unicode.Is(unicode.Cf, r) && r != 0x00AD:
			other++
		}
	}
	var out []string
	if zw > 0 {
		out = append(out, fmt.Sprintf("holds %d zero-width character(s)", zw))
	}
	if bidi > 0 {
		out = append(out, fmt.Sprintf("holds %d bidi control character(s), which can reorder what is shown", bidi))
	}
	if tag > 0 {
		s := fmt.Sprintf("holds %d Unicode tag character(s), invisible text a model reads", tag)
		if len(tagText) > 0 {
			s += fmt.Sprintf(": %q", quote(string(tagText)))
		}
		out = append(out, s)
	}
	if other > 0 {
		out = append(out, fmt.Sprintf("holds %d other invisible format character(s)", other))
	}
	return out
}
