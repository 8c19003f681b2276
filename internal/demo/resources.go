package demo

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strconv"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/stdioserver"
)

const readme = `# mcp-inspect demo server

This server ships inside mcp-inspect so you can learn the inspector (and MCP) without
installing anything. It speaks MCP over stdio, newline-delimited JSON-RPC 2.0.

## Tools

| Tool | Shows |
|---|---|
| echo | a required string and an optional boolean |
| add | numbers, structuredContent and an outputSchema |
| repeat | an integer with minimum, maximum and default |
| weather | an enum with a default, structured output |
| create_issue | arrays, enums, a nested object, a resource_link |
| fail | a tool error: isError true, not a JSON-RPC error |
| image | an image content block |
| slow | notifications/progress and cancellation |
| log | notifications/message and logging/setLevel |

## Resources

- demo://readme: this page (text/markdown)
- demo://logo.png: a binary resource (a base64 blob)
- demo://status: live server state as JSON
- demo://issues/{number}: issues made with create_issue (a resource template)

## Prompts

- review_code: takes code (required) and language (optional)
- tour: no arguments; embeds this page as a resource
`

// resource is a static resource (MCP 2025-11-25 server/resources, Resource).
type resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
}

func (s *server) resourceList() []resource {
	list := []resource{
		{URI: "demo://readme", Name: "readme", Title: "Demo server README", Description: "What the demo server offers", MimeType: "text/markdown"},
		{URI: "demo://logo.png", Name: "logo.png", Title: "Logo", Description: "A 64x64 PNG, served as a base64 blob", MimeType: "image/png"},
		{URI: "demo://status", Name: "status", Title: "Server status", Description: "Live state: negotiated version, log level, requests in progress, issues filed", MimeType: "application/json"},
	}
	if !s.atLeast("2025-06-18") {
		for i := range list {
			list[i].Title = ""
		}
	}
	return list
}

// resourceTemplate is a ResourceTemplate with an RFC 6570 URI template.
type resourceTemplate struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
}

func resourceTemplates() []resourceTemplate {
	return []resourceTemplate{{
		URITemplate: "demo://issues/{number}",
		Name:        "issue",
		Description: "An issue filed with the create_issue tool, as JSON. Numbers start at 1.",
		MimeType:    "application/json",
	}}
}

// contents is TextResourceContents or BlobResourceContents: exactly one of Text and Blob is set.
type contents struct {
	URI      string  `json:"uri"`
	MimeType string  `json:"mimeType"`
	Text     *string `json:"text,omitempty"`
	Blob     string  `json:"blob,omitempty"`
}

func textContents(uri, mime, text string) contents {
	return contents{URI: uri, MimeType: mime, Text: &text}
}

func issueContents(is issue) (contents, error) {
	b, err := json.MarshalIndent(is, "", "  ")
	if err != nil {
		return contents{}, err
	}
	return textContents(issueURI(is.Number), "application/json", string(b)), nil
}

func (s *server) readResource(req *request) (any, error) {
	var p struct {
		URI string `json:"uri"`
	}
	if err := decodeParams(req.params, &p); err != nil {
		return nil, err
	}
	c, err := s.resourceContents(p.URI)
	if err != nil {
		return nil, err
	}
	return map[string]any{"contents": []contents{c}}, nil
}

func notFound(uri string) error {
	data, _ := json.Marshal(map[string]string{"uri": uri})
	return &stdioserver.Error{Code: stdioserver.CodeResourceNotFound, Message: "Resource not found: " + uri, Data: data}
}

func (s *server) resourceContents(uri string) (contents, error) {
	switch uri {
	case "demo://readme":
		return textContents(uri, "text/markdown", readme), nil
	case "demo://logo.png":
		b, err := logoPNG()
		if err != nil {
			return contents{}, err
		}
		return contents{URI: uri, MimeType: "image/png", Blob: base64.StdEncoding.EncodeToString(b)}, nil
	case "demo://status":
		s.mu.Lock()
		st := map[string]any{
			"protocolVersion": s.protocolVersion,
			"initialized":     s.initialized,
			"logLevel":        logLevels()[s.logLevel],
			"inFlight":        len(s.inflight),
			"issues":          len(s.issues),
		}
		s.mu.Unlock()
		b, err := json.MarshalIndent(st, "", "  ")
		if err != nil {
			return contents{}, err
		}
		return textContents(uri, "application/json", string(b)), nil
	}
	if rest, ok := strings.CutPrefix(uri, "demo://issues/"); ok {
		n, err := strconv.Atoi(rest)
		s.mu.Lock()
		var is *issue
		if err == nil && n >= 1 && n <= len(s.issues) {
			is = &s.issues[n-1]
		}
		s.mu.Unlock()
		if is == nil {
			return contents{}, notFound(uri)
		}
		return issueContents(*is)
	}
	return contents{}, notFound(uri)
}

// prompt is a Prompt (MCP 2025-11-25 server/prompts).
type prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []promptArgument `json:"arguments,omitempty"`
}

type promptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

func prompts() []prompt {
	return []prompt{
		{
			Name:        "review_code",
			Title:       "Review code",
			Description: "Asks for a careful review of a piece of code",
			Arguments: []promptArgument{
				{Name: "code", Description: "The code to review", Required: true},
				{Name: "language", Description: "Programming language, e.g. Go"},
			},
		},
		{
			Name:        "tour",
			Title:       "Tour of the demo server",
			Description: "A first message that embeds the demo://readme resource; takes no arguments",
		},
	}
}

func (s *server) promptList() []prompt {
	list := prompts()
	if !s.atLeast("2025-06-18") {
		for i := range list {
			list[i].Title = ""
		}
	}
	return list
}

// getPromptResult is a GetPromptResult (MCP 2025-11-25 server/prompts).
type getPromptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []promptMessage `json:"messages"`
}

type promptMessage struct {
	Role    string `json:"role"`
	Content block  `json:"content"`
}

func (s *server) getPrompt(req *request) (any, error) {
	var p struct {
		Name      string            `json:"name"`
		Arguments map[string]string `json:"arguments"`
	}
	if err := decodeParams(req.params, &p); err != nil {
		return nil, err
	}
	for _, pr := range prompts() {
		if pr.Name != p.Name {
			continue
		}
		for _, a := range pr.Arguments {
			if a.Required && p.Arguments[a.Name] == "" {
				return nil, invalidParams("Missing required argument %q for prompt %q", a.Name, p.Name)
			}
		}
	}
	switch p.Name {
	case "review_code":
		lang := p.Arguments["language"]
		what := "this code"
		if lang != "" {
			what = "this " + lang + " code"
		}
		text := fmt.Sprintf("Please review %s. Point out bugs, unclear names and missing error handling, "+
			"most important first.\n\n```%s\n%s\n```", what, strings.ToLower(lang), p.Arguments["code"])
		return getPromptResult{
			Description: "Code review request",
			Messages:    []promptMessage{{Role: "user", Content: textBlock(text)}},
		}, nil
	case "tour":
		return getPromptResult{
			Description: "A tour of the demo server",
			Messages: []promptMessage{
				{Role: "user", Content: textBlock("Here is the README of an MCP server. Suggest three things to try with it, in order.")},
				{Role: "user", Content: block{Type: "resource", Resource: new(textContents("demo://readme", "text/markdown", readme))}},
			},
		}, nil
	}
	return nil, invalidParams("Unknown prompt: %q", p.Name)
}

// logoPNG draws the demo logo: a ring on a diagonal gradient, 64x64, as PNG bytes.
func logoPNG() ([]byte, error) {
	const size = 64
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for y := range size {
		for x := range size {
			c := color.NRGBA{R: uint8(40 + 2*x), G: uint8(60 + y), B: 200, A: 255}
			dx, dy := x-size/2, y-size/2
			if d := dx*dx + dy*dy; d >= 18*18 && d <= 26*26 {
				c = color.NRGBA{R: 250, G: 250, B: 250, A: 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
