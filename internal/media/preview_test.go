package media

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi/kitty"
)

func TestDetect(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want Protocol
	}{
		{map[string]string{}, Off},
		{map[string]string{"TERM": "dumb"}, Off},
		{map[string]string{"TERM": "xterm-256color"}, Blocks},
		{map[string]string{"TERM": "xterm-kitty"}, Kitty},
		{map[string]string{"TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"}, Kitty},
		{map[string]string{"TERM": "xterm-ghostty", "TERM_PROGRAM": "ghostty"}, Kitty},
		{map[string]string{"TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"}, ITerm2},
		{map[string]string{"TERM": "xterm-256color", "LC_TERMINAL": "iTerm2"}, ITerm2},
		{map[string]string{"TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"}, ITerm2},
		{map[string]string{"TERM": "foot"}, Sixel},
		{map[string]string{"TERM": "foot-extra"}, Sixel},
		{map[string]string{"TERM": "mlterm"}, Sixel},
		{map[string]string{"TERM": "xterm-sixel"}, Sixel},
		// tmux hides the outer terminal's graphics: blocks, even inside kitty or iTerm2.
		{map[string]string{"TERM": "tmux-256color", "KITTY_WINDOW_ID": "1"}, Blocks},
		{map[string]string{"TERM": "screen-256color", "TERM_PROGRAM": "iTerm.app"}, Blocks},
		{map[string]string{"TERM": "xterm-kitty", "TMUX": "/tmp/tmux-0/default,1,0"}, Blocks},
		{map[string]string{"TERM": "xterm-256color", "TERM_PROGRAM": "tmux"}, Blocks},
	}
	for _, c := range cases {
		got := Detect(func(k string) string { return c.env[k] })
		if got != c.want {
			t.Errorf("Detect(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}

func TestParseProtocol(t *testing.T) {
	for in, want := range map[string]Protocol{"": Auto, "auto": Auto, "Kitty": Kitty, " sixel ": Sixel, "iterm2": ITerm2, "blocks": Blocks, "off": Off, "none": Off} {
		got, err := ParseProtocol(in)
		if err != nil || got != want {
			t.Errorf("ParseProtocol(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseProtocol("ascii-art"); err == nil || !strings.Contains(err.Error(), "kitty") {
		t.Errorf("an unknown name: err = %v, want one that lists the names", err)
	}
}

func TestFit(t *testing.T) {
	cases := []struct{ w, h, mw, mh, ww, wh int }{
		{10, 10, 20, 20, 10, 10},  // never enlarged
		{100, 50, 20, 20, 20, 10}, // width bound
		{50, 100, 20, 20, 10, 20}, // height bound
		{3, 1000, 10, 10, 1, 10},  // at least one pixel wide
		{0, 5, 10, 10, 0, 0},
		{5, 5, 0, 10, 0, 0},
	}
	for _, c := range cases {
		if w, h := Fit(c.w, c.h, c.mw, c.mh); w != c.ww || h != c.wh {
			t.Errorf("Fit(%d,%d in %d,%d) = %d×%d, want %d×%d", c.w, c.h, c.mw, c.mh, w, h, c.ww, c.wh)
		}
	}
	if c, r := BlockSize(64, 64, 160, 20); c != 40 || r != 20 {
		t.Errorf("BlockSize(64×64 in 160×20) = %d×%d, want 40×20 (two pixels a row)", c, r)
	}
	if c, r := BlockSize(3, 3, 80, 20); c != 3 || r != 2 {
		t.Errorf("BlockSize(3×3) = %d×%d, want 3×2 (the odd last pixel row gets a cell)", c, r)
	}
	if c, r := GraphicSize(100, 40, 80, 20); c != 10 || r != 2 {
		t.Errorf("GraphicSize(100×40) = %d×%d, want 10×2 at 10×20 px a cell", c, r)
	}
}

// quadrants is a 2×4 picture: red over green in column 0, blue over a transparent
// pixel in column 1; then rows 2-3 white over black, black over white.
func quadrants() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 4))
	red, green, blue := color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 255, 0, 255}, color.NRGBA{0, 0, 255, 255}
	white, black := color.NRGBA{255, 255, 255, 255}, color.NRGBA{0, 0, 0, 255}
	img.SetNRGBA(0, 0, red)
	img.SetNRGBA(0, 1, green)
	img.SetNRGBA(1, 0, blue)
	img.SetNRGBA(1, 1, color.NRGBA{})
	img.SetNRGBA(0, 2, white)
	img.SetNRGBA(0, 3, black)
	img.SetNRGBA(1, 2, black)
	img.SetNRGBA(1, 3, white)
	return img
}

func TestHalfBlocks(t *testing.T) {
	cells := HalfBlocks(quadrants(), 2, 2)
	if len(cells) != 2 || len(cells[0]) != 2 {
		t.Fatalf("HalfBlocks 2×2: got %d rows", len(cells))
	}
	want := [][]Cell{
		{{Top: color.NRGBA{255, 0, 0, 255}, Bottom: color.NRGBA{0, 255, 0, 255}}, {Top: color.NRGBA{0, 0, 255, 255}, Bottom: color.NRGBA{}}},
		{{Top: color.NRGBA{255, 255, 255, 255}, Bottom: color.NRGBA{0, 0, 0, 255}}, {Top: color.NRGBA{0, 0, 0, 255}, Bottom: color.NRGBA{255, 255, 255, 255}}},
	}
	for r := range want {
		for c := range want[r] {
			if cells[r][c] != want[r][c] {
				t.Errorf("cell (%d,%d) = %v, want %v", r, c, cells[r][c], want[r][c])
			}
		}
	}
	// Downscaled to one cell, a uniform picture keeps its color.
	img := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	for i := range img.Pix {
		img.Pix[i] = []uint8{10, 200, 30, 255}[i%4]
	}
	one := HalfBlocks(img, 1, 1)
	if got := one[0][0]; got.Top != (color.NRGBA{10, 200, 30, 255}) || got.Bottom != got.Top {
		t.Errorf("8×8 uniform into one cell = %v", got)
	}
	if HalfBlocks(img, 0, 3) != nil {
		t.Error("no columns: want no cells")
	}
}

// st matches a string terminator (ESC \).
const st = "\x1b\\"

func TestKittyTransmit(t *testing.T) {
	// Noisy pixels: the PNG is over one 4 KiB chunk.
	img := image.NewNRGBA(image.Rect(0, 0, 120, 120))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7919 % 251)
	}
	seq, err := KittyTransmit(img, 0x123456, 6, 3)
	if err != nil {
		t.Fatal(err)
	}
	chunks := regexp.MustCompile("\x1b_G([^;\x1b]*)(?:;([A-Za-z0-9+/=]*))?\x1b\\\\").FindAllStringSubmatch(seq, -1)
	if len(chunks) < 2 || strings.Join(func() []string {
		var all []string
		for _, c := range chunks {
			all = append(all, c[0])
		}
		return all
	}(), "") != seq {
		t.Fatalf("want only APC G chunks (more than one for a noisy picture), got %d in %q…", len(chunks), seq[:min(len(seq), 120)])
	}
	first := chunks[0][1]
	for _, opt := range []string{"a=T", "f=100", "i=1193046", "U=1", "c=6", "r=3", "q=2", "m=1"} {
		if !strings.Contains(","+first+",", ","+opt+",") {
			t.Errorf("first chunk options %q lack %s", first, opt)
		}
	}
	if last := chunks[len(chunks)-1][1]; !strings.Contains(last, "m=0") {
		t.Errorf("last chunk options %q: want m=0", last)
	}
	var payload string
	for _, c := range chunks {
		payload += c[2]
	}
	pngBytes, err := base64.StdEncoding.DecodeString(payload)
	if err != nil || !strings.HasPrefix(string(pngBytes), "\x89PNG") {
		t.Errorf("payload is not base64 PNG: %v %q", err, pngBytes[:min(len(pngBytes), 8)])
	}

	rows := KittyPlaceholders(0x123456, 2, 2)
	want0 := "\x1b[38;2;18;52;86m" + string([]rune{kitty.Placeholder, kitty.Diacritic(0), kitty.Diacritic(0), kitty.Placeholder, kitty.Diacritic(0), kitty.Diacritic(1)}) + "\x1b[m"
	if len(rows) != 2 || rows[0] != want0 {
		t.Errorf("placeholder row 0 = %q, want %q", rows[0], want0)
	}
	if !strings.Contains(rows[1], string([]rune{kitty.Placeholder, kitty.Diacritic(1), kitty.Diacritic(1)})) {
		t.Errorf("placeholder row 1 = %q: want row diacritic 1", rows[1])
	}
}

func TestITerm2Image(t *testing.T) {
	seq, err := ITerm2Image(quadrants(), 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("^\x1b\\]1337;File=size=([0-9]+);width=4;height=2;inline=1:([A-Za-z0-9+/=]+)\x07$").FindStringSubmatch(seq)
	if m == nil {
		t.Fatalf("iTerm2 sequence %q", seq)
	}
	b, err := base64.StdEncoding.DecodeString(m[2])
	if err != nil || !strings.HasPrefix(string(b), "\x89PNG") || m[1] != itoa(len(b)) {
		t.Errorf("content: %v, size %s for %d PNG bytes", err, m[1], len(b))
	}
}

func TestSixelImage(t *testing.T) {
	// 40×40 px into 2×1 cells of 10×20: scaled to 20×20.
	img := image.NewNRGBA(image.Rect(0, 0, 40, 40))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	seq, err := SixelImage(img, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(seq, "\x1bP0;1q\"1;1;20;20#") || !strings.HasSuffix(seq, st) {
		t.Errorf("sixel sequence %q…%q: want DCS 0;1 q, raster 1:1 20×20, a palette, ST", seq[:min(len(seq), 30)], seq[max(len(seq)-4, 0):])
	}
	if body := seq[2 : len(seq)-2]; strings.ContainsAny(body, "\x1b\x07") {
		t.Errorf("sixel body holds an escape or BEL")
	}
}

func TestAt(t *testing.T) {
	if got := At("X", 4, 9); got != "\x1b7\x1b[5;10HX\x1b8" {
		t.Errorf("At = %q", got)
	}
}

func itoa(n int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

// A PNG whose chunk checksums are wrong (server-everything's tiny image) still decodes:
// viewers ignore the CRC, and so does the preview.
func TestDecodeBadPNGChecksum(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	img.SetNRGBA(1, 1, color.NRGBA{9, 8, 7, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	data[len(data)-1] ^= 0xff // the IEND chunk's CRC
	data[8+8+13+3] ^= 0xff    // the IHDR chunk's CRC
	in := Describe("image", "image/png", base64.StdEncoding.EncodeToString(data))
	got, err := in.Decode()
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if c := color.NRGBAModel.Convert(got.At(1, 1)).(color.NRGBA); c != (color.NRGBA{9, 8, 7, 255}) {
		t.Errorf("pixel (1,1) = %v", c)
	}
	if _, err := (Info{Data: []byte("\x89PNG\r\n\x1a\nshort")}).Decode(); err == nil {
		t.Error("a broken PNG decoded")
	}
}
