// Package findings computes the advisories about what a server sent that the TUI and the
// headless commands both show: a tool result's structuredContent against the tool's
// outputSchema, schemas whose root is not an object, and a lint of the text a server writes
// for a model (descriptions, instructions) that marks steering text for a person's review.
//
// It is UI-free (no bubbletea, lipgloss or ui import),
// so both views call the same code and say the same words. Nothing here acts on a finding:
// the views show them, and --strict stops on those that break a MUST of the spec.
package findings
