package check

import (
	"fmt"

	"github.com/yosida95/uritemplate/v3"
)

// ValidURITemplate reports whether t is a URI Template of RFC 6570 (any level), parsed by
// github.com/yosida95/uritemplate, the parser the TUI's resources pane expands templates
// with, so check and the TUI cannot disagree about a template. A nil error means valid;
// otherwise the error quotes t and says what the parser refused, with the template up to
// the refused byte ("uriTemplate \"{x-y}\": unacceptable variable name: {x_").
func ValidURITemplate(t string) error {
	if _, err := uritemplate.New(t); err != nil {
		return fmt.Errorf("uriTemplate %q: %v", t, err)
	}
	return nil
}
