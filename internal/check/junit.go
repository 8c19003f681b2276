package check

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// junitSuite is the JUnit XML the CI systems read (the Ant/Jenkins schema's common part).
type junitSuite struct {
	XMLName    xml.Name        `xml:"testsuite"`
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitCase struct {
	Name       string          `xml:"name,attr"`
	ClassName  string          `xml:"classname,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Failure    *junitMessage   `xml:"failure,omitempty"`
	Skipped    *junitMessage   `xml:"skipped,omitempty"`
	SystemOut  string          `xml:"system-out,omitempty"`
}

// junitProperty is a name/value pair of a suite or case (GitLab, Jenkins and the common
// viewers list them).
type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// JUnitOptions shape the JUnit XML.
type JUnitOptions struct {
	// WarningsFail writes a rule with SHOULD warnings as a <failure> (type "SHOULD …") as
	// well, for a CI that must stop on them (--junit-warnings-fail).
	WarningsFail bool
}

// JUnit writes the report as JUnit XML: one test case per rule (classname
// mcp-inspect.check.GROUP), a MUST failure as <failure>, a rule skipped or not applicable
// as <skipped>. A rule with SHOULD warnings is a passing case named "WARNING: …" with the
// property level=SHOULD and its findings in <system-out> (a <failure> with
// opt.WarningsFail); the suite's properties count the warnings, which JUnit has no
// attribute for.
func (r *Report) JUnit(w io.Writer, opt JUnitOptions) error {
	s := junitSuite{Name: "mcp-inspect check " + r.Server.Target, Time: fmt.Sprintf("%.3f", r.TotalMs/1000),
		Properties: []junitProperty{{"warnings", fmt.Sprint(r.Counts.Warn)}, {"must-failures", fmt.Sprint(r.Counts.Fail)}}}
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
		case StatusWarn:
			c.Name = "WARNING: " + c.Name
			c.Properties = []junitProperty{{"level", "SHOULD"}}
			c.SystemOut = body
			if opt.WarningsFail {
				s.Failures++
				msg, _, _ := strings.Cut(body, "\n")
				c.Failure = &junitMessage{Message: msg, Type: "SHOULD " + res.Source, Text: body}
			}
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
