package ui

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi/kitty"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcp-inspect/mcp-inspect/internal/media"
	"github.com/mcp-inspect/mcp-inspect/mcpclient"
	"github.com/mcp-inspect/mcp-inspect/themes"
)

// quadPNG is a 4×4 PNG: red, green / blue, transparent quadrants of 2×2 pixels.
func quadPNG(t testing.TB) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	for y := range 4 {
		for x := range 4 {
			c := color.NRGBA{255, 0, 0, 255}
			switch {
			case x >= 2 && y < 2:
				c = color.NRGBA{0, 255, 0, 255}
			case x < 2 && y >= 2:
				c = color.NRGBA{0, 0, 255, 255}
			case x >= 2 && y >= 2:
				c = color.NRGBA{}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// picModel is a session with one tool, pic, whose result is a text block and quadPNG;
// the call has been made and its result is shown.
func picModel(t *testing.T, w, h int, opts ...func(*Options)) *model {
	t.Helper()
	s := &fakeSession{
		init:  &mcpclient.InitializeResult{ProtocolVersion: "2025-11-25", ServerInfo: mcpclient.Implementation{Name: "fake", Version: "1"}},
		tools: []mcpclient.Tool{inlineTool("pic", `{"type":"object"}`)},
		result: &mcpclient.CallToolResult{Content: []mcpclient.ContentBlock{
			{Type: "text", Text: "a picture"},
			{Type: "image", MimeType: "image/png", Data: base64.StdEncoding.EncodeToString(quadPNG(t))},
		}},
	}
	m := connected(t, s, w, h, opts...)
	keys(t, m, "1", "enter", "ctrl+s")
	if m.call.run == nil || !m.call.run.done {
		t.Fatalf("the pic call did not finish:\n%s", view(m))
	}
	return m
}

func withPreview(p media.Protocol) func(*Options) {
	return func(o *Options) { o.ImagePreview = p }
}

// #16 item 4: the half-block thumbnail of an image block, one cell per two pixels, each
// pixel's color an SGR color of ours (the plain theme adds no other escape).
func TestImagePreviewHalfBlocksGolden(t *testing.T) {
	m := picModel(t, 80, 24, withPreview(media.Blocks))
	out := view(m)
	red, green, blue := "\x1b[38;2;255;0;0m\x1b[48;2;255;0;0m", "\x1b[38;2;0;255;0m\x1b[48;2;0;255;0m", "\x1b[38;2;0;0;255m\x1b[48;2;0;0;255m"
	mustContain(t, "call view", out, "pixels: 4×4 (png)",
		"  "+red+"▀▀"+green+"▀▀\x1b[m",
		// The lower right quadrant is transparent: blank cells in the default colors.
		"  "+blue+"▀▀\x1b[49m  \x1b[m")
	golden.RequireEqual(t, []byte(out))
}

// Without colors (NO_COLOR, the plain theme) and no override, no thumbnail is drawn:
// the output keeps its promise of no escape sequence at all.
func TestImagePreviewOffWithoutColors(t *testing.T) {
	m := picModel(t, 80, 24)
	if out := view(m); strings.Contains(out, "\x1b") || strings.Contains(out, "▀") {
		t.Errorf("plain theme drew a preview:\n%q", out)
	}
	mustContain(t, "call view", view(m), "pixels: 4×4 (png)")
}

// A thumbnail is never wider than the pane, nor taller than the pane leaves room for.
func TestImagePreviewDownscaled(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 400, 300))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	m := picModel(t, 60, 20, withPreview(media.Blocks))
	m.call.run.res.Content[1].Data = base64.StdEncoding.EncodeToString(b.Bytes())
	m.call.run.pics = nil
	m.call.render()
	var rows int
	for _, l := range m.call.lines {
		if strings.Contains(l, "▀") {
			rows++
			if w := len([]rune(strings.TrimSpace(stripSGR(l)))); w > 58 {
				t.Errorf("a thumbnail row is %d cells wide in a 60-cell pane", w)
			}
		}
	}
	if maxRows := m.call.bodyHeight() - 4; rows == 0 || rows > maxRows {
		t.Errorf("thumbnail rows = %d, want 1..%d", rows, maxRows)
	}
}

var sgrRE = regexp.MustCompile("\x1b\\[[0-9;]*m")

func stripSGR(s string) string { return sgrRE.ReplaceAllString(s, "") }

// collectRaw runs cmd as exec does and returns the tea.RawMsg payloads and the type names
// of the other messages it produced.
func collectRaw(t *testing.T, m *model, cmd tea.Cmd, depth int) (raw []string, kinds []string) {
	if cmd == nil || depth > 30 {
		return nil, nil
	}
	msg, ok := runCmd(t, cmd)
	if !ok {
		return nil, nil
	}
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			r, k := collectRaw(t, m, c, depth+1)
			raw, kinds = append(raw, r...), append(kinds, k...)
		}
	case tea.RawMsg:
		raw = append(raw, fmt.Sprint(msg.Msg))
	default:
		kinds = append(kinds, fmt.Sprintf("%T", msg))
		_, next := m.Update(msg)
		r, k := collectRaw(t, m, next, depth+1)
		raw, kinds = append(raw, r...), append(kinds, k...)
	}
	return raw, kinds
}

// The kitty protocol: the result holds placeholder cells whose color carries the image
// number, and the picture is transmitted once, as PNG, under that number.
func TestImagePreviewKitty(t *testing.T) {
	s := &fakeSession{
		init:  &mcpclient.InitializeResult{ProtocolVersion: "2025-11-25", ServerInfo: mcpclient.Implementation{Name: "fake", Version: "1"}},
		tools: []mcpclient.Tool{inlineTool("pic", `{"type":"object"}`)},
		result: &mcpclient.CallToolResult{Content: []mcpclient.ContentBlock{
			{Type: "image", MimeType: "image/png", Data: base64.StdEncoding.EncodeToString(quadPNG(t))},
		}},
	}
	m := connected(t, s, 80, 24, withPreview(media.Kitty))
	keys(t, m, "1", "enter")
	_, cmd := m.Update(keyMsg("ctrl+s"))
	raw, _ := collectRaw(t, m, cmd, 0)
	all := strings.Join(m.call.lines, "\n")
	id := kittyBase + 1
	fg := fmt.Sprintf("\x1b[38;2;%d;%d;%dm", id>>16&0xff, id>>8&0xff, id&0xff)
	mustContain(t, "result lines", all, "  "+fg+string([]rune{kitty.Placeholder, kitty.Diacritic(0), kitty.Diacritic(0)}))
	joined := strings.Join(raw, "")
	if !strings.HasPrefix(joined, "\x1b_G") || !strings.Contains(joined, fmt.Sprintf("i=%d", id)) || !strings.Contains(joined, "U=1") || !strings.Contains(joined, "a=T") {
		t.Fatalf("kitty transmit = %q…, want APC G a=T U=1 i=%d", joined[:min(len(joined), 80)], id)
	}
	// Moving about does not send it again.
	_, cmd = m.Update(keyMsg("down"))
	if raw, _ := collectRaw(t, m, cmd, 0); len(raw) != 0 {
		t.Errorf("the picture was sent again: %q", raw)
	}
}

// Sixel (and iTerm2) pictures are drawn over their blank cells at their screen position
// once the frame is out; when they leave the screen, it is cleared and redrawn.
func TestImagePreviewSixelPlacement(t *testing.T) {
	for _, proto := range []media.Protocol{media.Sixel, media.ITerm2} {
		t.Run(string(proto), func(t *testing.T) {
			s := &fakeSession{
				init:  &mcpclient.InitializeResult{ProtocolVersion: "2025-11-25", ServerInfo: mcpclient.Implementation{Name: "fake", Version: "1"}},
				tools: []mcpclient.Tool{inlineTool("pic", `{"type":"object"}`)},
				result: &mcpclient.CallToolResult{Content: []mcpclient.ContentBlock{
					{Type: "image", MimeType: "image/png", Data: base64.StdEncoding.EncodeToString(quadPNG(t))},
				}},
			}
			m := connected(t, s, 80, 24, withPreview(proto))
			m.c.tick = func(_ time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
				return func() tea.Msg { return fn(t0) }
			}
			keys(t, m, "1", "enter")
			_, cmd := m.Update(keyMsg("ctrl+s"))
			raw, _ := collectRaw(t, m, cmd, 0)
			// The picture's first cell: the line after "pixels:", two cells in.
			screen := strings.Split(view(m), "\n")
			row := -1
			for i, l := range screen {
				if strings.Contains(l, "pixels: 4×4 (png)") {
					row = i + 1
				}
			}
			want := fmt.Sprintf("\x1b7\x1b[%d;3H", row+1)
			switch proto {
			case media.Sixel:
				want += "\x1bP0;1q\"1;1;4;4"
			default:
				want += "\x1b]1337;File=size="
			}
			joined := strings.Join(raw, "")
			if row < 0 || !strings.HasPrefix(joined, want) || !strings.HasSuffix(joined, "\x1b8") {
				t.Fatalf("drawn: %q…, want prefix %q", joined[:min(len(joined), 60)], want)
			}
			_, cmd = m.Update(keyMsg("1"))
			raw, kinds := collectRaw(t, m, cmd, 0)
			if len(raw) != 0 || !strings.Contains(strings.Join(kinds, " "), "clearScreenMsg") {
				t.Errorf("leaving the pane: raw %q, messages %v; want a clear screen and nothing drawn", raw, kinds)
			}
		})
	}
}

func TestSystemViewer(t *testing.T) {
	if got := systemViewer("feh"); got != "feh" {
		t.Errorf("systemViewer(feh) = %q", got)
	}
	if got := systemViewer(""); got != "xdg-open" && got != "open" {
		t.Errorf("systemViewer() = %q", got)
	}
}

func TestNewPicturesResolves(t *testing.T) {
	colored, plain := buildStyles(t, "dark"), buildStyles(t, "plain")
	cases := []struct {
		detected, override media.Protocol
		st                 *themes.Styles
		want               media.Protocol
	}{
		{media.Kitty, media.Auto, colored, media.Kitty},
		{media.Kitty, media.Blocks, colored, media.Blocks},
		{media.Auto, media.Auto, colored, media.Blocks},
		{media.Blocks, media.Auto, plain, media.Off},
		{media.Sixel, media.Auto, plain, media.Sixel},
		{media.Blocks, media.Blocks, plain, media.Blocks},
		{media.Kitty, media.Off, colored, media.Off},
	}
	for _, c := range cases {
		if got := newPictures(c.detected, c.override, c.st, "").proto; got != c.want {
			t.Errorf("newPictures(%q, %q, plain=%v) = %q, want %q", c.detected, c.override, c.st.Plain, got, c.want)
		}
	}
}

func buildStyles(t *testing.T, theme string) *themes.Styles {
	t.Helper()
	pal, err := themes.Lookup(theme, false)
	if err != nil {
		t.Fatal(err)
	}
	return themes.Build(pal)
}

// A resource's image blob gets the thumbnail too, and O opens it.
func TestResourceBlobPreview(t *testing.T) {
	s := moreSession()
	s.resources = append(s.resources, mcpclient.Resource{URI: "mem://quad", Name: "quad", MimeType: "image/png"})
	s.contents["mem://quad"] = &mcpclient.ReadResourceResult{Contents: []mcpclient.ResourceContents{{URI: "mem://quad", MimeType: "image/png", Blob: base64.StdEncoding.EncodeToString(quadPNG(t))}}}
	dir := t.TempDir()
	m := connected(t, s, 120, 30, withPreview(media.Blocks), func(o *Options) { o.HistoryDir, o.Viewer = dir, "no-such-viewer-for-mcp-inspect" })
	keys(t, m, "5", "down", "down", "enter")
	mustContain(t, "resource detail", view(m), "quad", "blob: ",
		"  \x1b[38;2;255;0;0m\x1b[48;2;255;0;0m▀▀\x1b[38;2;0;255;0m\x1b[48;2;0;255;0m▀▀\x1b[m")
	keys(t, m, "O")
	mustContain(t, "status", m.flash.text, "the picture is saved at "+filepath.Join(dir, "frames", "resource-content-1.png"))
}
