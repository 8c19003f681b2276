package schemaform

import (
	"encoding/json"
	"slices"
)

// formatHint returns what a value of a JSON Schema `format` looks like
// (2020-12 Validation §7.3), for placeholders; "" for unknown formats.
func formatHint(format string) string {
	switch format {
	case "date-time":
		return "YYYY-MM-DDThh:mm:ssZ"
	case "date":
		return "YYYY-MM-DD"
	case "time":
		return "hh:mm:ssZ"
	case "duration":
		return "P1DT2H30M"
	case "email", "idn-email":
		return "name@example.com"
	case "hostname", "idn-hostname":
		return "host.example.com"
	case "ipv4":
		return "192.0.2.1"
	case "ipv6":
		return "2001:db8::1"
	case "uri", "iri":
		return "https://example.com/path"
	case "uri-reference", "iri-reference":
		return "/path or https://…"
	case "uri-template":
		return "https://example.com/{id}"
	case "uuid":
		return "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
	case "json-pointer":
		return "/a/b/0"
	case "relative-json-pointer":
		return "0/a"
	case "regex":
		return "regular expression"
	}
	return ""
}

// formatExample is a valid example of a format, used in error messages.
func formatExample(format string) string {
	switch format {
	case "date-time":
		return "2025-01-31T09:30:00Z"
	case "date":
		return "2025-01-31"
	case "time":
		return "09:30:00Z"
	case "duration":
		return "P1DT2H30M"
	case "email":
		return "name@example.com"
	case "uri":
		return "https://example.com/path"
	case "uuid":
		return "123e4567-e89b-12d3-a456-426614174000"
	case "ipv4":
		return "192.0.2.1"
	case "ipv6":
		return "2001:db8::1"
	case "hostname":
		return "host.example.com"
	case "uri-reference":
		return "/path"
	}
	return ""
}

// Suggestions are values to offer for the field, as JSON for Set: its
// `examples`, else, for a string with a known `format`, one valid value of
// that format ("2025-01-31" for a date). nil when there is nothing to offer.
func (fl *Field) Suggestions() []json.RawMessage {
	if len(fl.Examples) > 0 {
		return slices.Clone(fl.Examples)
	}
	if fl.Kind == KindString || (fl.Kind == KindUnion && fl.Format != "") {
		if ex := formatExample(fl.Format); ex != "" {
			return []json.RawMessage{toRaw(ex)}
		}
	}
	return nil
}
