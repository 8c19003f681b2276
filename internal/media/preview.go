package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"strings"

	"golang.org/x/image/draw"
)

// Protocol is how a terminal shows a picture inline.
type Protocol string

// The preview protocols: Auto asks Detect; Off shows no preview (the pixel size only);
// Blocks draws a thumbnail of coloured half blocks (▀, foreground the upper pixel,
// background the lower), which any truecolor or 256-color terminal shows, tmux too;
// Kitty, ITerm2 and Sixel draw the pixels with the kitty graphics protocol, iTerm2's
// inline images (OSC 1337) and DEC sixel graphics.
const (
	Auto   Protocol = ""
	Off    Protocol = "off"
	Blocks Protocol = "blocks"
	Kitty  Protocol = "kitty"
	ITerm2 Protocol = "iterm2"
	Sixel  Protocol = "sixel"
)

// Protocols are the names ParseProtocol accepts, for help texts.
func Protocols() []string {
	return []string{"auto", string(Off), string(Blocks), string(Kitty), string(ITerm2), string(Sixel)}
}

// ParseProtocol reads a protocol name as a user writes it ("auto" or "" is Auto); an
// unknown name is an error that lists the known ones.
func ParseProtocol(s string) (Protocol, error) {
	switch p := Protocol(strings.ToLower(strings.TrimSpace(s))); p {
	case "auto", Auto:
		return Auto, nil
	case Off, Blocks, Kitty, ITerm2, Sixel:
		return p, nil
	case "none":
		return Off, nil
	}
	return Auto, fmt.Errorf("unknown image preview %q (have %s)", s, strings.Join(Protocols(), ", "))
}

// Detect chooses a protocol from the terminal's environment (getenv is os.Getenv, or a
// table in tests). Inside tmux or screen it is Blocks: graphics escapes reach the outer
// terminal only through passthrough, and a half-block thumbnail always works. kitty and
// Ghostty speak the kitty protocol; iTerm2 and WezTerm (LC_TERMINAL, TERM_PROGRAM) the
// iTerm2 one; foot, mlterm and contour sixel. A dumb or unknown TERM gets Off, anything
// else Blocks.
func Detect(getenv func(string) string) Protocol {
	term, prog := getenv("TERM"), getenv("TERM_PROGRAM")
	switch {
	case term == "" || term == "dumb":
		return Off
	case getenv("TMUX") != "" || prog == "tmux" || strings.HasPrefix(term, "screen") || strings.HasPrefix(term, "tmux"):
		return Blocks
	case getenv("KITTY_WINDOW_ID") != "" || term == "xterm-kitty" || term == "xterm-ghostty" || prog == "ghostty":
		return Kitty
	case prog == "iTerm.app" || getenv("LC_TERMINAL") == "iTerm2" || prog == "WezTerm":
		return ITerm2
	case strings.HasPrefix(term, "foot") || strings.HasPrefix(term, "mlterm") || strings.HasPrefix(term, "contour") || strings.Contains(term, "sixel"):
		return Sixel
	}
	return Blocks
}

// Decode reads the picture of an image block's decoded bytes (PNG, JPEG, GIF, WebP).
func (in Info) Decode() (image.Image, error) {
	if in.Err != nil {
		return nil, in.Err
	}
	img, format, err := image.Decode(bytes.NewReader(in.Data))
	if err != nil && format == "png" {
		// Go checks every chunk's CRC; browsers and viewers do not, and servers ship PNGs
		// with wrong ones (server-everything's tiny image). The pixels are still there.
		if fixed, ok := fixPNGChecksums(in.Data); ok {
			img, _, err = image.Decode(bytes.NewReader(fixed))
		}
	}
	if err != nil {
		return nil, fmt.Errorf("not a picture this build decodes: %w", err)
	}
	return img, nil
}

// fixPNGChecksums returns a copy of a PNG with each chunk's CRC-32 computed anew; ok is
// false when the chunk structure itself is broken (or nothing needed fixing).
func fixPNGChecksums(b []byte) ([]byte, bool) {
	const sig = "\x89PNG\r\n\x1a\n"
	if len(b) < len(sig) || string(b[:len(sig)]) != sig {
		return nil, false
	}
	out := bytes.Clone(b)
	changed := false
	for i := len(sig); i+12 <= len(out); {
		n := int(binary.BigEndian.Uint32(out[i:]))
		end := i + 8 + n
		if n < 0 || end+4 > len(out) {
			return nil, false
		}
		sum := crc32.ChecksumIEEE(out[i+4 : end])
		if binary.BigEndian.Uint32(out[end:]) != sum {
			binary.BigEndian.PutUint32(out[end:], sum)
			changed = true
		}
		i = end + 4
	}
	return out, changed
}

// Fit scales w×h into at most maxW×maxH keeping the aspect ratio, never enlarging; each
// side is at least 1 (0×0 for an empty picture or no room).
func Fit(w, h, maxW, maxH int) (int, int) {
	if w <= 0 || h <= 0 || maxW <= 0 || maxH <= 0 {
		return 0, 0
	}
	if w <= maxW && h <= maxH {
		return w, h
	}
	// Scale by the tighter side, rounding to the nearest pixel.
	if w*maxH >= h*maxW {
		return maxW, max(1, (h*maxW+w/2)/w)
	}
	return max(1, (w*maxH+h/2)/h), maxH
}

// Scale resamples img to w×h pixels (Catmull-Rom; the colors come out non-premultiplied).
func Scale(img image.Image, w, h int) *image.NRGBA {
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, img.Bounds(), draw.Src, nil)
	return dst
}

// Cell is one terminal cell of a half-block thumbnail: the character ▀ with the upper
// pixel as its foreground and the lower one as its background. A color with A == 0 is
// transparent: the terminal's own background shows.
type Cell struct {
	Top, Bottom color.NRGBA
}

// HalfBlocks turns img into rows×cols cells, two pixels a cell: the picture is scaled to
// cols×2·rows pixels first. Pixels less than half opaque are transparent; the others are
// drawn opaque.
func HalfBlocks(img image.Image, cols, rows int) [][]Cell {
	if cols <= 0 || rows <= 0 {
		return nil
	}
	px := Scale(img, cols, 2*rows)
	at := func(x, y int) color.NRGBA {
		c := px.NRGBAAt(x, y)
		if c.A < 128 {
			return color.NRGBA{}
		}
		c.A = 255
		return c
	}
	out := make([][]Cell, rows)
	for r := range out {
		out[r] = make([]Cell, cols)
		for c := range out[r] {
			out[r][c] = Cell{Top: at(c, 2*r), Bottom: at(c, 2*r+1)}
		}
	}
	return out
}

// BlockSize is the thumbnail size in cells for a w×h picture within maxCols×maxRows
// cells, one pixel per column and two per row, never enlarged.
func BlockSize(w, h, maxCols, maxRows int) (cols, rows int) {
	fw, fh := Fit(w, h, maxCols, 2*maxRows)
	return fw, (fh + 1) / 2
}

// ErrNoRoom is returned when a preview is asked for in less than one cell.
var ErrNoRoom = errors.New("no room for a preview")
