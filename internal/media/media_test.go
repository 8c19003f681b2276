package media

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
)

func encoded(t *testing.T, enc func(*bytes.Buffer, image.Image) error, w, h int) string {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.Black, color.White})
	var b bytes.Buffer
	if err := enc(&b, img); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// webpLossless is a 1x1 lossless WebP (RIFF, VP8L).
const webpLossless = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="

func TestDescribe(t *testing.T) {
	pngData := encoded(t, func(b *bytes.Buffer, i image.Image) error { return png.Encode(b, i) }, 3, 2)
	jpgData := encoded(t, func(b *bytes.Buffer, i image.Image) error { return jpeg.Encode(b, i, nil) }, 5, 4)
	gifData := encoded(t, func(b *bytes.Buffer, i image.Image) error { return gif.Encode(b, i, nil) }, 7, 6)
	for _, c := range []struct {
		name, typ, mime, data string
		w, h                  int
		ext, summary          string
	}{
		{"png", "image", "image/png", pngData, 3, 2, ".png", "image/png, "},
		{"jpeg", "image", "image/jpeg", jpgData, 5, 4, ".jpg", ", 5×4 px"},
		{"gif", "image", "image/gif", gifData, 7, 6, ".gif", ", 7×6 px"},
		{"webp", "image", "image/webp", webpLossless, 1, 1, ".webp", ", 1×1 px"},
		{"png sent as jpeg", "image", "image/jpeg", pngData, 3, 2, ".png", "(the bytes are png)"},
		{"svg", "image", "image/svg+xml", base64.StdEncoding.EncodeToString([]byte("<svg/>")), 0, 0, ".svg", "dimensions unknown"},
		{"wav", "audio", "audio/wav", base64.StdEncoding.EncodeToString([]byte("RIFF....WAVE")), 0, 0, ".wav", "audio/wav, 12 bytes"},
		{"odd mime", "audio", "audio/x-thing", "AAAA", 0, 0, ".bin", "3 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := Describe(c.typ, c.mime, c.data)
			if in.Err != nil || in.Width != c.w || in.Height != c.h || in.Ext() != c.ext || !strings.Contains(in.Summary(), c.summary) {
				t.Fatalf("Describe = %+v, ext %q, summary %q; want %dx%d %s %q", in, in.Ext(), in.Summary(), c.w, c.h, c.ext, c.summary)
			}
		})
	}
	if in := Describe("image", "image/png", "not base64!"); in.Err == nil || !strings.Contains(in.Summary(), "does not decode") {
		t.Fatalf("bad base64: %+v", in)
	}
}
