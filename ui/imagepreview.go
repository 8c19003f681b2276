package ui

import (
	"fmt"
	"image"
	"image/color"
	"strings"

	"github.com/mcp-inspect/mcp-inspect/internal/media"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// Pictures in results (issue 16 item 4): an image block, or an image blob of a resource,
// gets a preview under its size line. The preview's bytes are ours: half-block cells
// colored from decoded pixels, kitty placeholder cells, or blank cells that a graphics
// sequence (made by internal/media from pixels, never from server text) draws over.

// pictures is how the UI previews pictures: the protocol chosen at start, the system
// viewer, and the kitty image numbers handed out.
type pictures struct {
	proto media.Protocol
	// viewer is the command that opens a file in the system's viewer (xdg-open, open, explorer.exe).
	viewer string
	// lastID is the last kitty image number given (numbers start at kittyBase).
	lastID int
	// sent are the kitty images transmitted to the terminal, by number.
	sent map[int]bool
	// drawn is the key of the iTerm2 or sixel pictures on screen ("" for none).
	drawn string
	// filling is set while sync renders the list panes' previews into their caches (see
	// fillMarkdown); View never sets it.
	filling bool
	// files are the files w and O wrote pictures and blocks to (mediafiles.go).
	files mediaFiles
}

// kittyBase starts the kitty image numbers high, away from the small ones other programs
// in the same terminal use.
const kittyBase = 0x4d4900

// newPictures resolves the protocol: override wins, else the detected one; Auto means
// Blocks. Half blocks need colors: a theme without them (NO_COLOR, plain) gets Off unless
// the override asked for blocks.
func newPictures(detected, override media.Protocol, st *themes.Styles, viewer string) *pictures {
	p := override
	if p == media.Auto {
		p = detected
		if p == media.Auto {
			p = media.Blocks
		}
		if p == media.Blocks && (st.Plain || st.Palette.Accent == nil) {
			p = media.Off
		}
	}
	return &pictures{proto: p, viewer: viewer, sent: map[int]bool{}, files: mediaFiles{}}
}

// newID hands out a kitty image number.
func (g *pictures) newID() int {
	g.lastID++
	return kittyBase + g.lastID
}

// decodedPic is one picture of a result, decoded once.
type decodedPic struct {
	img image.Image
	err error
	// id is its kitty image number (0 until drawn with the kitty protocol).
	id int
}

// picPos is where a graphics-protocol preview sits in rendered lines: line is its first
// line, col its first column; cols×rows cells.
type picPos struct {
	line, col, cols, rows int
	proto                 media.Protocol
	pic                   *decodedPic
}

// resultPics are the pictures of one rendered result: decoded by block index, and where
// the graphics previews sit (set by the last render).
type resultPics struct {
	g       *pictures
	maxRows int
	decoded map[int]*decodedPic
	at      []picPos
	// lines are drawn thumbnails of resource blobs by (content, width).
	lines map[[2]int][]string
	// hint, when set, follows a result's preview: the keys that open and save it.
	hint string
}

// newResultPics starts a result's pictures; maxRows bounds a preview's height (the pane's).
func newResultPics(g *pictures, maxRows int) *resultPics {
	return &resultPics{g: g, maxRows: maxRows, decoded: map[int]*decodedPic{}}
}

// blockPreview is the preview of content block i (an image) starting at line `at` of the
// result, w cells wide; nil when previews are off or the block is no picture.
func (rp *resultPics) blockPreview(st *themes.Styles, i int, b mcpclient.ContentBlock, at, w int) []string {
	if rp == nil || b.Type != "image" || rp.g.proto == media.Off {
		return nil
	}
	pic := rp.decoded[i]
	if pic == nil {
		in := media.Describe(b.Type, b.MimeType, b.Data)
		pic = &decodedPic{}
		pic.img, pic.err = in.Decode()
		rp.decoded[i] = pic
	}
	l := rp.preview(st, pic, at, w)
	if len(l) > 0 && rp.hint != "" {
		l = append(l, st.Muted.Render("  "+rp.hint))
	}
	return l
}

// preview draws a decoded picture; graphics placements are recorded in rp.at.
func (rp *resultPics) preview(st *themes.Styles, pic *decodedPic, at, w int) []string {
	if pic.err != nil {
		return []string{st.Muted.Render("  no preview: " + clean(pic.err.Error()))}
	}
	b := pic.img.Bounds()
	maxCols, maxRows := max(w-2, 1), max(rp.maxRows, 1)
	switch proto := rp.g.proto; proto {
	case media.Blocks:
		cols, rows := media.BlockSize(b.Dx(), b.Dy(), maxCols, maxRows)
		return halfBlockLines(media.HalfBlocks(pic.img, cols, rows), "  ")
	case media.Kitty, media.ITerm2, media.Sixel:
		cols, rows := media.GraphicSize(b.Dx(), b.Dy(), maxCols, maxRows)
		if cols == 0 {
			return nil
		}
		rp.at = append(rp.at, picPos{line: at, col: 2, cols: cols, rows: rows, proto: proto, pic: pic})
		if proto == media.Kitty {
			if pic.id == 0 {
				pic.id = rp.g.newID()
			}
			lines := media.KittyPlaceholders(pic.id, cols, rows)
			for i := range lines {
				lines[i] = "  " + lines[i]
			}
			return lines
		}
		// Blank cells the sequence draws over once they are on screen (model.graphics).
		return make([]string, rows)
	}
	return nil
}

// halfBlockLines writes cells as ▀ (▄ when only the lower pixel shows) in 24-bit SGR
// colors, a color changed only where it differs from the cell before; each line starts
// with indent and ends with a reset. Transparent pixels use the default colors.
func halfBlockLines(cells [][]media.Cell, indent string) []string {
	out := make([]string, len(cells))
	for r, row := range cells {
		var b strings.Builder
		b.WriteString(indent)
		var fg, bg color.NRGBA
		fgSet, bgSet := false, false
		for _, c := range row {
			ch, wantFg, wantBg := "▀", c.Top, c.Bottom
			switch {
			case c.Top.A == 0 && c.Bottom.A == 0:
				ch = " "
			case c.Top.A == 0:
				ch, wantFg, wantBg = "▄", c.Bottom, color.NRGBA{}
			}
			if ch != " " && (!fgSet || wantFg != fg) {
				fmt.Fprintf(&b, "\x1b[38;2;%d;%d;%dm", wantFg.R, wantFg.G, wantFg.B)
				fg, fgSet = wantFg, true
			}
			switch {
			case wantBg.A == 0 && bgSet:
				b.WriteString("\x1b[49m")
				bgSet = false
			case wantBg.A != 0 && (!bgSet || wantBg != bg):
				fmt.Fprintf(&b, "\x1b[48;2;%d;%d;%dm", wantBg.R, wantBg.G, wantBg.B)
				bg, bgSet = wantBg, true
			}
			b.WriteString(ch)
		}
		b.WriteString("\x1b[m")
		out[r] = b.String()
	}
	return out
}

// blobPreview is the half-block thumbnail of content i of a read resource when it is an
// image blob (the list panes have no graphics placements: kitty, iTerm2 and sixel
// terminals get the thumbnail there too). It is drawn while the cache fills (in Update)
// and read by the views; nil before, or for anything that is not a picture.
func (rp *resultPics) blobPreview(st *themes.Styles, i int, c mcpclient.ResourceContents, w int) []string {
	if rp == nil || rp.g.proto == media.Off || c.Blob == "" || !strings.HasPrefix(strings.ToLower(c.MimeType), "image/") {
		return nil
	}
	k := [2]int{i, w}
	if l, ok := rp.lines[k]; ok || !rp.g.filling {
		return l
	}
	pic := rp.decoded[i]
	if pic == nil {
		pic = &decodedPic{}
		pic.img, pic.err = media.Describe("image", c.MimeType, c.Blob).Decode()
		rp.decoded[i] = pic
	}
	var l []string
	if pic.err != nil {
		l = []string{st.Muted.Render("  no preview: " + clean(pic.err.Error()))}
	} else {
		b := pic.img.Bounds()
		cols, rows := media.BlockSize(b.Dx(), b.Dy(), max(w-2, 1), max(rp.maxRows, 1))
		l = halfBlockLines(media.HalfBlocks(pic.img, cols, rows), "  ")
	}
	if rp.lines == nil {
		rp.lines = map[[2]int][]string{}
	}
	rp.lines[k] = l
	return l
}

// shownPicture is the first image blob of the selected item's read, decoded, with its
// content number (1-based).
func (p *resourcesPane) shownPicture() (media.Info, int, bool) {
	it := p.list.selected()
	if it == nil {
		return media.Info{}, 0, false
	}
	r := p.reads[it.key]
	if r == nil || r.res == nil {
		return media.Info{}, 0, false
	}
	for i, c := range r.res.Contents {
		if c.Blob == "" || !strings.HasPrefix(strings.ToLower(c.MimeType), "image/") {
			continue
		}
		if in := media.Describe("image", c.MimeType, c.Blob); in.Err == nil {
			return in, i + 1, true
		}
	}
	return media.Info{}, 0, false
}
