package media

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/iterm2"
	"github.com/charmbracelet/x/ansi/kitty"
	"github.com/charmbracelet/x/ansi/sixel"
)

// The escape sequences here are built only from pixels this package decoded and sizes
// it computed: no byte a server sent (a name, a MIME type, the base64 text) reaches the
// terminal through them, so they can bypass the sanitizer that all server text goes
// through.

// CellW and CellH are the pixel size assumed for one terminal cell when a picture is
// sized in cells for a graphics protocol (terminals do not tell it without a query).
const (
	CellW = 10
	CellH = 20
)

// GraphicSize is the size in cells a w×h picture is drawn at by a graphics protocol
// within maxCols×maxRows cells (CellW×CellH pixels a cell, never enlarged).
func GraphicSize(w, h, maxCols, maxRows int) (cols, rows int) {
	fw, fh := Fit(w, h, maxCols*CellW, maxRows*CellH)
	if fw == 0 {
		return 0, 0
	}
	return (fw + CellW - 1) / CellW, (fh + CellH - 1) / CellH
}

// fitted scales img to at most cols×rows cells of CellW×CellH pixels, keeping its aspect
// ratio (never enlarged).
func fitted(img image.Image, cols, rows int) image.Image {
	b := img.Bounds()
	w, h := Fit(b.Dx(), b.Dy(), cols*CellW, rows*CellH)
	if w == b.Dx() && h == b.Dy() {
		return img
	}
	return Scale(img, w, h)
}

// KittyTransmit is the kitty graphics protocol sequence that sends img (as PNG, in 4 KiB
// chunks, quiet: the terminal answers nothing) under image number id with a virtual
// placement of cols×rows cells: the picture shows where KittyPlaceholders' cells are
// drawn (kitty graphics protocol, "Unicode placeholders"), so it scrolls and clears with
// the text. id is 1..2^24-1 (it is carried as a 24-bit foreground color).
func KittyTransmit(img image.Image, id, cols, rows int) (string, error) {
	var b strings.Builder
	err := kitty.EncodeGraphics(&b, fitted(img, cols, rows), &kitty.Options{
		Action: kitty.TransmitAndPut,
		Format: kitty.PNG,
		// Set here: EncodeGraphics encodes no data when it is left 0 (x/ansi v0.11.9).
		Transmission:     kitty.Direct,
		ID:               id,
		Quiet:            2,
		Chunk:            true,
		VirtualPlacement: true,
		Columns:          cols,
		Rows:             rows,
	})
	if err != nil {
		return "", fmt.Errorf("kitty graphics: %w", err)
	}
	return b.String(), nil
}

// KittyPlaceholders are the rows of cells that show image id's virtual placement: each
// cell is U+10EEEE with the row and column diacritics, in the foreground color that
// carries the id, and each row ends with an SGR reset.
func KittyPlaceholders(id, cols, rows int) []string {
	fg := fmt.Sprintf("\x1b[38;2;%d;%d;%dm", id>>16&0xff, id>>8&0xff, id&0xff)
	out := make([]string, rows)
	for r := range out {
		var b strings.Builder
		b.WriteString(fg)
		for c := range cols {
			b.WriteRune(kitty.Placeholder)
			b.WriteRune(kitty.Diacritic(r))
			b.WriteRune(kitty.Diacritic(c))
		}
		b.WriteString(ansi.ResetStyle)
		out[r] = b.String()
	}
	return out
}

// ITerm2Image is the iTerm2 inline image sequence (OSC 1337 File=) that draws img, as
// PNG, inline at the cursor in cols×rows cells, aspect ratio kept.
func ITerm2Image(img image.Image, cols, rows int) (string, error) {
	var pngBytes bytes.Buffer
	if err := png.Encode(&pngBytes, fitted(img, cols, rows)); err != nil {
		return "", fmt.Errorf("iterm2 image: %w", err)
	}
	return ansi.ITerm2(iterm2.File{
		Size:    int64(pngBytes.Len()),
		Width:   iterm2.Cells(cols),
		Height:  iterm2.Cells(rows),
		Inline:  true,
		Content: []byte(base64.StdEncoding.EncodeToString(pngBytes.Bytes())),
	}), nil
}

// SixelImage is the DEC sixel sequence (DCS q … ST) that draws img scaled to fit
// cols×rows cells of CellW×CellH pixels; transparent pixels stay transparent (P2=1).
func SixelImage(img image.Image, cols, rows int) (string, error) {
	var payload bytes.Buffer
	if err := (&sixel.Encoder{}).Encode(&payload, fitted(img, cols, rows)); err != nil {
		return "", fmt.Errorf("sixel: %w", err)
	}
	return ansi.SixelGraphics(0, 1, 0, payload.Bytes()), nil
}

// At wraps seq so it draws at the screen cell (row, col), both 0-based, and leaves the
// cursor where it was (DECSC, CUP, DECRC): a renderer that tracks the cursor is not
// disturbed.
func At(seq string, row, col int) string {
	return ansi.SaveCursor + ansi.CursorPosition(col+1, row+1) + seq + ansi.RestoreCursor
}
