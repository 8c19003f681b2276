package check

// The protocol revisions each rule judges (issue 25). Most hold in every revision; the
// initialize handshake's rules and logging/setLevel are the legacy eras' (2024-11-05 to
// 2025-11-25: the 2026-07-28 revision removed them), server/discover is 2026-07-28's, and
// ping is judged in both: answered {} in the legacy eras, refused in 2026-07-28, which
// removed it. A rule outside the session's era is not applicable, with the reason.

// Era names for Rule.Eras, as docs/check.md's rule tables print them.
const (
	ErasAll    = "all"
	ErasLegacy = "up to 2025-11-25"
	ErasModern = "2026-07-28"
	ErasPing   = "all (2026-07-28: refused)"
)
