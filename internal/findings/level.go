package findings

// Level is how strongly the spec states what a finding breaks, for check's rules and
// findings and for this package's advisories alike: a broken MUST fails (check exits 1,
// a --strict run stops), a broken SHOULD is a warning. The text is what the reports
// print and the JSON and JUnit outputs carry: "MUST", "SHOULD".
type Level string

const (
	// Must: the spec (or JSON-RPC 2.0, or the schema) says MUST; breaking it fails the run.
	Must Level = "MUST"
	// Should: the spec says SHOULD (or the rule is advisory); breaking it is a warning.
	Should Level = "SHOULD"
)

// Level is the finding's level: Must when it breaks a MUST of the spec, else Should.
func (f Finding) Level() Level {
	if f.Must {
		return Must
	}
	return Should
}
