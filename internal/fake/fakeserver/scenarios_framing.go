package main

import (
	"bufio"
	"bytes"
	"encoding/json"

	"io"
	"strconv"
	"strings"
)

// Framings a scenario may use instead of MCP's newline-delimited JSON (issue #14).
const (
	// framingLSP reads and writes LSP-style frames: "Content-Length: N\r\n\r\n" and N bytes.
	// A message that does not start with a Content-Length header is answered -32700 (so
	// framed) and skipped, as servers written after the MCP courses do.
	framingLSP = "lsp"
	// framingLSPSilent reads and writes LSP-style frames as a course's first server does: a
	// line that is not a header it knows (the client's newline JSON) is skipped, and it
	// waits, silently, for the blank line and a Content-Length (issue 24).
	framingLSPSilent = "lsp-silent"
	// framingLSPOut reads newline JSON but writes LSP-style frames.
	framingLSPOut = "lsp-out"
	// framingPretty reads newline JSON and writes each message pretty-printed (two-space
	// indent, as json.dumps(indent=2) and JSON.stringify(v, null, 2) do), then "\n".
	framingPretty = "pretty"
)

// framingScenarios are the well-behaved default server in a framing MCP does not allow.
func framingScenarios() map[string]*scenario {
	return map[string]*scenario{
		"lsp": {
			summary: "Content-Length framing both ways (LSP style); a first line that is not a Content-Length header is answered -32700, so framed",
			framing: framingLSP,
		},
		"lsp-silent": {
			summary: "Content-Length framing both ways, and newline JSON is read as headers it does not know: it says nothing and waits (the course's first server)",
			framing: framingLSPSilent,
		},
		"lsp-out": {
			summary: "reads newline JSON, answers with Content-Length framing",
			framing: framingLSPOut,
		},
		"pretty": {
			summary: "reads newline JSON, writes every message pretty-printed over several lines",
			framing: framingPretty,
		},
	}
}

// frameOut turns a newline-terminated JSON frame into the scenario's framing.
func (s *server) frameOut(frame string) string {
	switch s.sc.framing {
	case framingLSP, framingLSPOut, framingLSPSilent:
		body := strings.TrimSuffix(frame, "\n")
		return "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
	case framingPretty:
		var b bytes.Buffer
		if json.Indent(&b, []byte(strings.TrimSuffix(frame, "\n")), "", "  ") != nil {
			return frame
		}
		return b.String() + "\n"
	}
	return frame
}

// readLSP reads one LSP-style message body. A message whose first line is not a header is
// consumed up to its line end and returned as nil with notLSP set.
func readLSP(r *bufio.Reader) (body []byte, notLSP bool, err error) {
	length := -1
	for first := true; ; first = false {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, false, err
		}
		t := strings.TrimRight(line, "\r\n")
		if t == "" {
			if first {
				continue
			}
			break
		}
		name, value, ok := strings.Cut(t, ":")
		if !ok || (first && !strings.EqualFold(strings.TrimSpace(name), "content-length")) {
			return nil, true, nil
		}
		if strings.EqualFold(strings.TrimSpace(name), "content-length") {
			if n, err := strconv.Atoi(strings.TrimSpace(value)); err == nil && n >= 0 {
				length = n
			}
		}
	}
	if length < 0 {
		return nil, true, nil
	}
	body = make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, false, err
	}
	return body, false, nil
}

// serveLSP is the read loop of a framingLSP server.
func (s *server) serveLSP(r *bufio.Reader) int {
	for {
		body, notLSP, err := readLSP(r)
		if err != nil {
			return 0
		}
		if notLSP {
			s.logf("fakeserver: expected a Content-Length header")
			s.write(errLine(nil, -32700, "Parse error: expected a Content-Length header"))
			continue
		}
		s.handleLine(body)
	}
}

// serveLSPSilent is the read loop of a framingLSPSilent server: headers until a blank line,
// unknown lines skipped, the body read once a Content-Length was given; nothing is ever
// said about what it could not read.
func (s *server) serveLSPSilent(r *bufio.Reader) int {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return 0
		}
		t := strings.TrimRight(line, "\r\n")
		if name, value, ok := strings.Cut(t, ":"); ok && strings.EqualFold(strings.TrimSpace(name), "content-length") {
			if n, err := strconv.Atoi(strings.TrimSpace(value)); err == nil && n >= 0 {
				length = n
			}
			continue
		}
		if t != "" || length < 0 {
			continue
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			return 0
		}
		length = -1
		s.handleLine(body)
	}
}
