package check

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// junitSuite is the JUnit XML the CI systems read (the Ant/Jenkins schema's common part).
type junitSuite struct {
	XMLName  xml.Name    `xml:"testsuite"`
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// JUnit writes the report as JUnit XML: one test case per rule (classname
// mcp-inspect.check.GROUP), a MUST failure as <failure>, a rule skipped or not applicable
// as <skipped>, SHOULD warnings and notes in <system-out> of a passing case.
func (r *Report) JUnit(w io.Writer) error {
	s := junitSuite{Name: "mcp-inspect check " + r.Server.Target, Time: fmt.Sprintf("%.3f", r.TotalMs/1000)}
	for _, res := range r.Results {
		c := junitCase{Name: res.ID + ": " + res.Title, ClassName: "mcp-inspect.check." + string(res.Group)}
		var lines []string
		for _, f := range res.Findings {
			lines = append(lines, string(f.Level)+": "+f.Text+eventsText(f.Events))
		}
		for _, n := range res.Notes {
			lines = append(lines, n.Text+eventsText(n.Events))
		}
		body := strings.Join(lines, "\n")
		switch res.Status {
		case StatusFail:
			s.Failures++
			// The message attribute is the body's first line exactly (no trimming, no " …"
			// as jsontext.FirstLine writes for listings): the JUnit output stays as it was.
			msg, _, _ := strings.Cut(body, "\n")
			c.Failure = &junitMessage{Message: msg, Type: string(res.Level) + " " + res.Source, Text: body}
		case StatusSkip, StatusNA:
			s.Skipped++
			c.Skipped = &junitMessage{Message: res.Reason}
		default:
			c.SystemOut = body
		}
		s.Cases = append(s.Cases, c)
	}
	s.Tests = len(s.Cases)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(s); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
