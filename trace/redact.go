package trace

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"math/bits"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/mcp-inspect/mcp-inspect/mcpclient"
)

// Mask replaces every scrubbed value (case B25: "values masked (***)").
const Mask = "***"

// MinScrubLen is the shortest secret value scrubbed from the byte stream. Shorter values
// ("1", "true", "dev") would turn every occurrence of a common string into *** and wreck
// the trace; they are still masked in the header.
const MinScrubLen = 6

// secretKey matches environment variable names that hold secrets (case B25's heuristic:
// TOKEN|KEY|SECRET|PASSWORD|PAT|AUTH). Short words match only as a whole _-separated part,
// so PATH, PWD and KEYBOARD_LAYOUT are not secrets.
var secretKey = regexp.MustCompile(`(?i)(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|APIKEY|API_KEY|PRIVATE|CREDENTIAL|COOKIE)|(^|_)(KEY|PAT|AUTH|PASS|PW)S?($|_)`)

// tokenShape matches well-known credential formats wherever they appear in the stream,
// even when no environment variable gave them away (GitHub, GitLab, OpenAI and Anthropic,
// Slack, AWS access key ids, Google API keys, Stripe, JWTs).
var tokenShape = regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9_]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_\-]{20,}|sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}|xox[abprs]-[A-Za-z0-9\-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_\-]{35}|[rs]k_live_[0-9A-Za-z]{20,}|eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,})`)

// tokenPrefixes are the literal starts of tokenShape's formats: the regular expression runs
// only on frames holding one of them (most frames hold none, and the scan is the cost).
var tokenPrefixes = [][]byte{
	[]byte("ghp_"), []byte("gho_"), []byte("ghu_"), []byte("ghs_"), []byte("ghr_"), []byte("github_pat_"),
	[]byte("glpat-"), []byte("sk-"), []byte("xox"), []byte("AKIA"), []byte("AIza"), []byte("k_live_"), []byte("eyJ"),
}

// userinfo matches credentials in a URL: scheme://user:password@ (the userinfo part).
var userinfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://)([^/\s:@"'\\]+):([^/\s@"'\\]+)@`)

// secretFlag reports whether a command-line flag takes a secret (--token X, --api-key=X,
// --github-pat X): one of its -/_-separated words names a credential. --path does not.
func secretFlag(flag string) bool {
	if !strings.HasPrefix(flag, "-") {
		return false
	}
	words := strings.FieldsFunc(strings.ToLower(flag), func(r rune) bool { return r == '-' || r == '_' })
	for _, w := range words {
		switch w {
		case "token", "tokens", "secret", "password", "passwd", "passphrase", "apikey", "key", "auth",
			"credential", "credentials", "pat", "bearer", "pw":
			return true
		}
	}
	return false
}

// RedactConfig says what a Redactor scrubs.
type RedactConfig struct {
	// Env are KEY=VALUE entries given with -e: every value is secret.
	Env []string
	// Inherited is the inherited environment (os.Environ()): values of keys that look
	// secret (see secretKey) are scrubbed.
	Inherited []string
	// Argv is the server's command line: values that look like tokens, values after a
	// secret-looking flag and URL passwords are scrubbed.
	Argv []string
	// Patterns are --redact regular expressions (RE2 syntax) applied to raw bytes.
	Patterns []string
	// Headers are "Name: value" HTTP headers given for a remote server (-H, --bearer-env):
	// the values of credential headers (see CredentialHeader), and a bearer token alone,
	// are scrubbed from the stream.
	Headers []string
}

// CredentialHeader reports whether an HTTP header carries a credential: Authorization,
// Cookie and the like, or a name whose words look secret (X-Github-Token, X-Api-Key).
// Mcp-Session-Id is not one: it is shown, so a session can be followed.
func CredentialHeader(name string) bool { return credentialHeader(name) }

// credentialHeader is CredentialHeader for a name as a string or as bytes. An ASCII name
// (every HTTP header name) is lower-cased on the stack and checked against the words the
// secretKey regexp needs before the regexp runs: this runs for every header line of every
// HTTP event recorded, and allocating and matching there cost the HTTP tap.
func credentialHeader[T string | []byte](name T) bool {
	var buf [64]byte
	lower, ok := lowerASCII(name, buf[:0])
	if !ok {
		n := strings.ToLower(strings.TrimSpace(string(name)))
		return knownCredentialHeader(n) || secretKey.MatchString(strings.ReplaceAll(strings.ToUpper(n), "-", "_"))
	}
	if knownCredentialHeader(string(lower)) {
		return true
	}
	for _, w := range secretWords {
		if containsString(lower, w) {
			return secretKey.Match(bytes.ReplaceAll(bytes.ToUpper(lower), []byte("-"), []byte("_")))
		}
	}
	return false
}

// knownCredentialHeader reports the credential headers named outright (lower case).
func knownCredentialHeader(lower string) bool {
	switch lower {
	case "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token", "x-access-token":
		return true
	}
	return false
}

// secretWords are what secretKey needs to find in a lower-cased name before it can match
// (API_KEY is found as KEY: the name keeps its '-').
var secretWords = [...]string{"token", "secret", "pass", "apikey", "private", "credential", "cookie", "key", "pat", "auth", "pw"}

// lowerASCII appends name to dst with ASCII blanks trimmed and lower-cased. ok is false for
// a name that is not ASCII or longer than dst's capacity.
func lowerASCII[T string | []byte](name T, dst []byte) (lower []byte, ok bool) {
	i, j := 0, len(name)
	for i < j && asciiSpace(name[i]) {
		i++
	}
	for j > i && asciiSpace(name[j-1]) {
		j--
	}
	if j-i > cap(dst) {
		return nil, false
	}
	for k := i; k < j; k++ {
		c := name[k]
		switch {
		case c >= 0x80:
			return nil, false
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst, true
}

// containsString is bytes.Contains(b, []byte(s)) without converting s.
func containsString(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s {
			return true
		}
	}
	return false
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

type secret struct {
	name  string
	value []byte
	// escaped is the value as it appears inside a JSON string, when that differs.
	escaped []byte
	// forms are the written forms of the value (itself, %-encoded, hex, base64 cores),
	// matched inside JSON strings at any depth up to maxDepth with any mix of \uXXXX and
	// short escapes (redactenc.go); starts says where one can begin; loose is set
	// when the value holds a '"' or a backslash, which plain text writes differently from
	// JSON. b64 are its base64 cores.
	forms  []form
	starts *startSet
	loose  bool
	b64    [][]byte
}

type pattern struct {
	name string
	re   *regexp.Regexp
}

// Redactor scrubs secrets from raw bytes and describes what it scrubs. A nil *Redactor
// scrubs nothing (--no-redact). It is safe for concurrent use.
type Redactor struct {
	secrets  []secret
	patterns []pattern
	items    []RedactedItem
	argv     []string // argv with secrets masked
	envMask  map[string]bool
	// userPatterns is set when --redact patterns were given: they can match anything, so
	// Bytes always runs them.
	userPatterns bool
	// clues is what the built-in rules need to find before they can change anything (what
	// a secret's forms hold, see secret.clues; the token prefixes, "://"), for a one-pass
	// prefilter: most frames hold none of them and cost one scan.
	clues clueSet
	// mu guards secrets, clues, items and learned against Learn, which adds credentials
	// while frames are scrubbed; learned are the values Learn added.
	mu      sync.RWMutex
	learned map[string]bool
}

// NewRedactor builds a redactor from cfg. It fails only on an invalid --redact pattern.
func NewRedactor(cfg RedactConfig) (*Redactor, error) {
	r := &Redactor{envMask: map[string]bool{}}
	seen := map[string]bool{}
	add := func(kind, name, value string) {
		if value == "" || seen[value] {
			return
		}
		seen[value] = true
		if len(value) < MinScrubLen {
			r.items = append(r.items, RedactedItem{Kind: kind, Name: name, Note: fmt.Sprintf("masked in the header only: shorter than %d bytes, too short to scrub from the stream", MinScrubLen)})
			return
		}
		r.items = append(r.items, RedactedItem{Kind: kind, Name: name})
		r.addSecret(name, value)
	}
	for _, kv := range cfg.Env {
		k, v, _ := strings.Cut(kv, "=")
		r.envMask[k] = true
		add("env", k, v)
		r.addURLPassword("url-userinfo", k, v)
		r.addURLQuery("url-query", k, v)
	}
	for _, kv := range cfg.Inherited {
		k, v, _ := strings.Cut(kv, "=")
		if r.envMask[k] {
			continue // given with -e: that value wins and is already scrubbed
		}
		if secretKey.MatchString(k) {
			add("env-inherited", k, v)
		}
		r.addURLPassword("url-userinfo", k, v)
		r.addURLQuery("url-query", k, v)
	}
	r.argv = make([]string, len(cfg.Argv))
	for i, a := range cfg.Argv {
		r.argv[i] = a
		name := fmt.Sprintf("argv[%d]", i)
		flagValue := i > 0 && secretFlag(cfg.Argv[i-1]) && !strings.HasPrefix(a, "-")
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") && secretFlag(k) && v != "" {
			add("argv", name, v)
			r.argv[i] = k + "=" + Mask
			continue
		}
		if i > 0 && (flagValue || looksLikeToken(a)) {
			add("argv", name, a)
			r.argv[i] = Mask
			continue
		}
		if r.addURLPassword("url-userinfo", name, a) {
			r.argv[i] = userinfo.ReplaceAllString(a, "${1}"+Mask+"@")
		}
		if masked, ok := r.addURLQuery("url-query", name, r.argv[i]); ok {
			r.argv[i] = masked
		}
	}
	for _, h := range cfg.Headers {
		name, value, ok := strings.Cut(h, ":")
		if !ok || !CredentialHeader(name) {
			continue
		}
		value = strings.TrimSpace(value)
		add("header", strings.TrimSpace(name), value)
		if scheme, tok, ok := strings.Cut(value, " "); ok && tok != "" && !strings.ContainsAny(scheme, "=,") {
			add("header", strings.TrimSpace(name)+" token", strings.TrimSpace(tok))
		}
	}
	for i, p := range cfg.Patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("--redact %q: %w", p, err)
		}
		name := fmt.Sprintf("--redact #%d", i+1)
		r.patterns = append(r.patterns, pattern{name, re})
		r.userPatterns = true
		r.items = append(r.items, RedactedItem{Kind: "regex", Name: name})
	}
	r.patterns = append(r.patterns, pattern{"token-format", tokenShape}, pattern{"url-userinfo", userinfo})
	r.items = append(r.items, RedactedItem{Kind: "token-format", Name: "token-format"}, RedactedItem{Kind: "url-userinfo", Name: "url-userinfo"})
	// Longest first, so a secret that contains another is scrubbed whole.
	sort.SliceStable(r.secrets, func(i, j int) bool { return len(r.secrets[i].value) > len(r.secrets[j].value) })
	for _, p := range tokenPrefixes {
		r.clues.addRule(p)
	}
	r.clues.addRule([]byte("://"))
	r.clues.build()
	return r, nil
}

func (r *Redactor) addSecret(name, value string) {
	s := secret{name: name, value: []byte(value), b64: base64Cores([]byte(value))}
	s.forms = secretForms(s.value, s.b64)
	s.starts = newStartSet(s.forms)
	s.loose = strings.ContainsAny(value, "\"\\")
	if js, err := json.Marshal(value); err == nil {
		if esc := js[1 : len(js)-1]; !bytes.Equal(esc, s.value) {
			s.escaped = esc
		}
	}
	for _, c := range s.clues() {
		r.clues.add(c)
	}
	r.secrets = append(r.secrets, s)
}

// addURLPassword scrubs the passwords of URLs held in value (anywhere in it, so
// --url=https://u:p@host counts); it reports whether there was one.
func (r *Redactor) addURLPassword(kind, name, value string) bool {
	if !strings.Contains(value, "://") {
		return false
	}
	found := false
	for _, m := range userinfo.FindAllStringSubmatch(value, -1) {
		pw := m[3]
		if u, err := url.PathUnescape(pw); err == nil {
			pw = u
		}
		if !found {
			r.items = append(r.items, RedactedItem{Kind: kind, Name: name})
			found = true
		}
		if len(m[3]) >= MinScrubLen {
			r.addSecret(name, m[3])
		}
		if pw != m[3] && len(pw) >= MinScrubLen {
			r.addSecret(name, pw)
		}
	}
	return found
}

// looksLikeToken reports whether a command-line value looks like a credential: a known
// token shape, or a long run of letters and digits with high entropy (not a path, not a
// URL, not a flag).
func looksLikeToken(s string) bool {
	if tokenShape.MatchString(s) {
		return true
	}
	if len(s) < 20 || strings.ContainsAny(s, "/.:@ =") || strings.HasPrefix(s, "-") {
		return false
	}
	var lower, upper, digit int
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z':
			lower++
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= '0' && c <= '9':
			digit++
		case c == '_' || c == '-' || c == '+':
		default:
			return false
		}
	}
	if digit == 0 || (lower == 0 && upper == 0) {
		return false
	}
	return entropy(s) >= 3.5
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	var h float64
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / float64(len(s))
			h -= p * math.Log2(p)
		}
	}
	return h
}

// Bytes returns b with every secret replaced by Mask, and the names of the rules that
// changed it (nil when nothing changed; then the result is b itself).
func (r *Redactor) Bytes(b []byte) ([]byte, []string) {
	if r == nil || len(b) == 0 {
		return b, nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	// A backslash may start an escaped form of a secret (redactenc.go): such a frame is
	// scanned for every secret. Other frames first go through the clues in one pass.
	escapes := len(r.secrets) > 0 && bytes.IndexByte(b, '\\') >= 0
	found := clueSecret | clueRule
	if !escapes {
		if found = r.clues.kinds(b); found == 0 && !r.userPatterns {
			return b, nil // no rule can match: spare the per-rule passes
		}
	}
	var hits []string
	out := b
	jsonText := -1 // not known yet
	for _, s := range r.secrets {
		if found&clueSecret == 0 {
			break // nothing in b can be a secret's form
		}
		// One escape-aware pass finds every form at every depth, and never leaves part of
		// an escape sequence (which would break the JSON).
		if o, ok := s.scrub(out, &jsonText); ok {
			out = o
			hits = appendOnce(hits, s.name)
		}
	}
	for _, p := range r.patterns {
		if p.name == "url-userinfo" {
			if !bytes.Contains(out, []byte("://")) {
				continue
			}
			if loc := p.re.FindIndex(out); loc != nil {
				out = p.re.ReplaceAll(out, []byte("${1}"+Mask+"@"))
				hits = appendOnce(hits, p.name)
			}
			continue
		}
		if p.name == "token-format" && !containsAny(out, tokenPrefixes) {
			continue
		}
		if p.re.Match(out) {
			out = p.re.ReplaceAll(out, []byte(Mask))
			hits = appendOnce(hits, p.name)
		}
	}
	if hits != nil {
		out = refitContentLength(b, out)
	}
	return out, hits
}

// refitContentLength keeps a masked Content-Length frame's header true: the length is
// changed by as much as masking changed the body (so a frame cut short when it was
// recorded stays cut short by the same amount). out is returned as it is when it is no
// such frame.
func refitContentLength(orig, out []byte) []byte {
	_, ob, ok1 := mcpclient.SplitHeader(orig)
	nh, nb, ok2 := mcpclient.SplitHeader(out)
	if !ok1 || !ok2 || len(ob) == len(nb) {
		return out
	}
	var fixed []byte
	for _, line := range bytes.SplitAfter(nh, []byte("\n")) {
		name, value, found := bytes.Cut(line, []byte(":"))
		if found && bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")) {
			n, err := strconv.Atoi(string(bytes.TrimSpace(value)))
			if err != nil || n+len(nb)-len(ob) < 0 {
				return out
			}
			end := line[len(bytes.TrimRight(line, "\r\n")):]
			line = append(append(append([]byte(nil), name...), ": "+strconv.Itoa(n+len(nb)-len(ob))...), end...)
		}
		fixed = append(fixed, line...)
	}
	return append(fixed, nb...)
}

// String is Bytes for text (lifecycle messages, log lines).
func (r *Redactor) String(s string) string {
	if r == nil {
		return s
	}
	b, hits := r.Bytes([]byte(s))
	if hits == nil {
		return s
	}
	return string(b)
}

// Argv returns the command line with secrets masked (the argv given to NewRedactor);
// argv itself when r is nil.
func (r *Redactor) Argv(argv []string) []string {
	if r == nil {
		return argv
	}
	if len(r.argv) == len(argv) {
		return append([]string(nil), r.argv...)
	}
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = r.String(a)
	}
	return out
}

// Env returns KEY=VALUE entries as KEY=*** (KEY=VALUE unchanged when r is nil).
func (r *Redactor) Env(env []string) []string {
	out := make([]string, len(env))
	for i, kv := range env {
		if r == nil {
			out[i] = kv
			continue
		}
		k, _, _ := strings.Cut(kv, "=")
		out[i] = k + "=" + Mask
	}
	return out
}

// Items describes what r scrubs, for the trace header (names, never values).
func (r *Redactor) Items() []RedactedItem {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]RedactedItem(nil), r.items...)
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func containsAny(b []byte, subs [][]byte) bool {
	for _, s := range subs {
		if bytes.Contains(b, s) {
			return true
		}
	}
	return false
}

// Handler wraps a slog.Handler so every record's message and attribute values pass through
// r first: a log line that quotes an error holding the server's stderr, or a config, cannot
// carry a secret (case B25: the leak was a log site that skipped the redaction helper, so
// redaction belongs below every log site). A nil r returns inner.
func (r *Redactor) Handler(inner slog.Handler) slog.Handler {
	if r == nil {
		return inner
	}
	return &redactHandler{inner: inner, r: r}
}

type redactHandler struct {
	inner slog.Handler
	r     *Redactor
}

func (h *redactHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.inner.Enabled(ctx, l)
}

func (h *redactHandler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.String(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.inner.Handle(ctx, out)
}

func (h *redactHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindGroup:
		attrs := v.Group()
		red := make([]slog.Attr, len(attrs))
		for i, x := range attrs {
			red[i] = h.attr(x)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(red...)}
	case slog.KindString:
		return slog.String(a.Key, h.r.String(v.String()))
	case slog.KindAny:
		// Errors, slices, structs: as the text handler would print them, scrubbed.
		s := fmt.Sprint(v.Any())
		if r := h.r.String(s); r != s {
			return slog.String(a.Key, r)
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

func (h *redactHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		red[i] = h.attr(a)
	}
	return &redactHandler{inner: h.inner.WithAttrs(red), r: h.r}
}

func (h *redactHandler) WithGroup(name string) slog.Handler {
	return &redactHandler{inner: h.inner.WithGroup(name), r: h.r}
}

// clueSet finds, in one pass, which kinds of a set of byte strings (each at least two bytes
// long) a text holds. A bitmap of byte pairs picks the candidate positions; only there are
// the strings compared. The pass looks at every step-th position only, step being one less
// than the shortest clue (every clue starts with three or more bytes by default, so half the
// positions): any place a clue starts, one of the next step positions is looked at, and the
// pair there is one of the clue's first step pairs, each of which is in the bitmap.
type clueSet struct {
	pairs [1 << 16 / 64]uint64 // bit a<<8|b: a clue has the bytes a, b at an offset below step
	// rank[w] counts the bits set in pairs[:w]; byRank holds, for the n-th bit set, the
	// clues with that pair (and the offset): a hit costs a popcount, not a map lookup.
	rank       [1 << 16 / 64]uint16
	byRank     [][]clueAt
	all        []clue           // every clue added, to build the tables from
	seen       map[clueKey]bool // the clues added, by kind and bytes
	step       int              // positions between two looked at (0 until a clue is added)
	kindsAdded uint8            // the kinds of the clues added, for kinds to stop early
	stale      bool             // clues were added since the last build
}

// clueKey is a clue as a map key.
type clueKey struct {
	s    string
	kind uint8
}

// The kinds of clue: what a secret's forms hold, and what a built-in rule needs.
const (
	clueSecret uint8 = 1 << iota
	clueRule
)

// clue is one byte string of a clueSet and its kind.
type clue struct {
	s    []byte
	kind uint8
}

// clueAt is a clue found by the pair at offset off of it.
type clueAt struct {
	clue
	off int
}

// add adds a clue of a secret.
func (c *clueSet) add(s []byte) { c.addKind(s, clueSecret) }

// addRule adds a clue of a built-in rule.
func (c *clueSet) addRule(s []byte) { c.addKind(s, clueRule) }

func (c *clueSet) addKind(s []byte, kind uint8) {
	if len(s) < 2 {
		return // secrets are at least MinScrubLen bytes; an empty escaped form is absent
	}
	key := clueKey{string(s), kind}
	if c.seen[key] {
		return
	}
	if c.seen == nil {
		c.seen = map[clueKey]bool{}
	}
	c.seen[key] = true
	c.all = append(c.all, clue{s, kind})
	c.kindsAdded |= kind
	if c.step == 0 || len(s)-1 < c.step {
		c.step = len(s) - 1 // a shorter clue: look at more positions, each clue by more pairs
	}
	c.stale = true
}

// build makes the tables from all, once after a run of adds (the end of NewRedactor, a
// credential Learn found): kinds sees only the clues added before the last build. Building
// after each add made a Redactor of 1 500 secrets take 9 s instead of 50 ms.
func (c *clueSet) build() {
	if !c.stale {
		return
	}
	c.stale = false
	c.pairs = [len(c.pairs)]uint64{}
	for _, x := range c.all {
		for off := range c.step {
			k := uint16(x.s[off])<<8 | uint16(x.s[off+1])
			c.pairs[k>>6] |= 1 << (k & 63)
		}
	}
	n := 0
	for w, word := range c.pairs {
		c.rank[w] = uint16(n)
		n += bits.OnesCount64(word)
	}
	c.byRank = make([][]clueAt, n)
	for _, x := range c.all {
		for off := range c.step {
			at := c.at(uint16(x.s[off])<<8 | uint16(x.s[off+1]))
			c.byRank[at] = append(c.byRank[at], clueAt{x, off})
		}
	}
}

// at is the index in byRank of pair k, whose bit is set.
func (c *clueSet) at(k uint16) int {
	return int(c.rank[k>>6]) + bits.OnesCount64(c.pairs[k>>6]&(1<<(k&63)-1))
}

// kinds reports the kinds of the clues b holds; the pass stops once it found every kind.
func (c *clueSet) kinds(b []byte) uint8 {
	var found uint8
	if c.step == 0 {
		return 0
	}
	for i := 0; i+1 < len(b); i += c.step {
		k := uint16(b[i])<<8 | uint16(b[i+1])
		if c.pairs[k>>6]&(1<<(k&63)) == 0 {
			continue
		}
		for _, x := range c.byRank[c.at(k)] {
			if at := i - x.off; found&x.kind == 0 && at >= 0 && bytes.HasPrefix(b[at:], x.s) {
				if found |= x.kind; found == c.kindsAdded {
					return found
				}
			}
		}
	}
	return found
}

// oauthParam matches an OAuth credential in a query string, a form body or a Location
// header: the authorization code, the PKCE verifier, tokens, a client secret or assertion.
var oauthParam = regexp.MustCompile(`((?:^|[?&\s])(?:code|code_verifier|access_token|refresh_token|id_token|client_secret|client_assertion|assertion|subject_token|actor_token)=)([^&\s"]+)`)

// oauthJSON matches a token or client secret as a JSON member (a token response, a
// registration response).
var oauthJSON = regexp.MustCompile(`("(?:access_token|refresh_token|id_token|client_secret|registration_access_token)"[ \t]*:[ \t]*")((?:[^"\\]|\\.)+)`)

// OAuthCredentials masks OAuth credentials in an HTTP event (direction HTTPOut or HTTPIn):
// the code and tokens in a request line, a Location header or a form body, and token or
// secret members of a JSON body. It reports whether it changed something.
func OAuthCredentials(b []byte) ([]byte, bool) {
	if !bytes.Contains(b, []byte("=")) && !bytes.Contains(b, []byte(`_token"`)) && !bytes.Contains(b, []byte(`client_secret"`)) {
		return b, false
	}
	changed := false
	mask := func(re *regexp.Regexp, in []byte) []byte {
		if !re.Match(in) {
			return in
		}
		changed = true
		return re.ReplaceAll(in, []byte("${1}"+Mask))
	}
	out := mask(oauthParam, b)
	out = mask(oauthJSON, out)
	return out, changed
}

// encodedSecret reports whether the content-encoded body of r (a KindHTTPEncoded record)
// holds something the redactor masks once decoded: a secret, or what a credential rule
// catches. A body that does not decode is checked as it is.
func (r *Redactor) encodedSecret(rec *Record) bool {
	coding := ""
	if rec.Encoding != nil {
		coding = rec.Encoding.Coding
	}
	plain, err := mcpclient.DecodeBytes(coding, rec.Raw, 64<<20)
	if err != nil && len(plain) == 0 {
		plain = rec.Raw
	}
	_, hits := r.Bytes(plain)
	if len(hits) > 0 {
		return true
	}
	_, ok := OAuthCredentials(plain)
	return ok
}
