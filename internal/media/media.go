// Package media describes the image and audio content blocks of MCP results (MCP
// 2025-11-25 schema ImageContent, AudioContent: base64 data and a mimeType) for both views:
// type, decoded size, pixel dimensions of an image, and the file name extension to save
// the decoded bytes under. UI-free.
package media

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/gif"  // DecodeConfig for GIF
	_ "image/jpeg" // DecodeConfig for JPEG
	_ "image/png"  // DecodeConfig for PNG
	"mime"
	"strings"

	_ "golang.org/x/image/webp" // DecodeConfig for WebP
)

// Info describes one image or audio block.
type Info struct {
	// Type is the block's type, "image" or "audio".
	Type string
	// MimeType is as the server sent it.
	MimeType string
	// Data is the decoded bytes; nil when Err is set.
	Data []byte
	// Err says why the base64 data does not decode.
	Err error
	// Width and Height are an image's pixel dimensions, 0 when unknown; Format is the
	// decoder's name ("png", "jpeg", "gif", "webp"), "" when none read it.
	Width, Height int
	Format        string
}

// Describe decodes a block's base64 data and, for an image, reads its dimensions.
func Describe(typ, mimeType, data string) Info {
	in := Info{Type: typ, MimeType: mimeType}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		in.Err = err
		return in
	}
	in.Data = b
	if typ == "image" {
		if cfg, format, err := image.DecodeConfig(bytes.NewReader(b)); err == nil {
			in.Width, in.Height, in.Format = cfg.Width, cfg.Height, format
		}
	}
	return in
}

// Summary is one line for people: "image/png, 1.2 KiB (1234 bytes), 3×2 px".
func (in Info) Summary() string {
	if in.Err != nil {
		return fmt.Sprintf("%s, base64 that does not decode: %v", in.MimeType, in.Err)
	}
	s := fmt.Sprintf("%s, %d bytes", in.MimeType, len(in.Data))
	if in.Width > 0 || in.Height > 0 {
		s += fmt.Sprintf(", %d×%d px", in.Width, in.Height)
	} else if in.Type == "image" {
		s += ", dimensions unknown (not PNG, JPEG, GIF or WebP)"
	}
	if in.Format != "" && !strings.Contains(in.MimeType, in.Format) {
		s += fmt.Sprintf(" (the bytes are %s)", in.Format)
	}
	return s
}

// Ext is the file name extension for the decoded bytes, with its dot: from the image
// format the bytes have, else from the MIME type (".wav" for audio/wav), else ".bin".
func (in Info) Ext() string {
	if in.Format != "" {
		if in.Format == "jpeg" {
			return ".jpg"
		}
		return "." + in.Format
	}
	mt, _, _ := mime.ParseMediaType(in.MimeType)
	if e, ok := knownExt(mt); ok {
		return e
	}
	return ".bin"
}

// knownExt is the extension of a MIME type MCP servers send for audio and images, so the
// name does not depend on the system's MIME tables.
func knownExt(mt string) (string, bool) {
	switch mt {
	case "image/png":
		return ".png", true
	case "image/jpeg":
		return ".jpg", true
	case "image/gif":
		return ".gif", true
	case "image/webp":
		return ".webp", true
	case "image/svg+xml":
		return ".svg", true
	case "audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave":
		return ".wav", true
	case "audio/mpeg", "audio/mp3":
		return ".mp3", true
	case "audio/ogg":
		return ".ogg", true
	case "audio/webm":
		return ".webm", true
	case "audio/flac":
		return ".flac", true
	case "audio/aac":
		return ".aac", true
	case "audio/mp4":
		return ".m4a", true
	}
	return "", false
}
