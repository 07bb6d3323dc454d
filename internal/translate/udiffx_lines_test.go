package translate

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// udxLines answers as the arrays of every line it replaces would: the
// lines splitLines cuts, their offsets in the joined text, the line of
// any offset, and the tags lines start with, asked for in any order.
func TestUdxLinesIsTheLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "", " ", "<FILE_NEW file_path=\"x\">", "</FILE_NEW>", "  <FILE_PATCH>", "\r", "x\ry", "<FILE_CHANGES>"}
	texts := []string{"", "\n", "\n\n", "a", "a\n", "a\r\n", "a\r", "\r\n\r\n"}
	for range 300 {
		var b strings.Builder
		for n := rng.IntN(300); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			if rng.IntN(8) > 0 {
				b.WriteString([]string{"\n", "\n", "\r\n"}[rng.IntN(3)])
			}
		}
		texts = append(texts, b.String())
	}
	for _, text := range texts {
		lines := splitLines(text)
		src := strings.Join(lines, "\n")
		starts := make([]int, len(lines))
		off := 0
		for i, l := range lines {
			starts[i] = off
			off += len(l) + 1
		}
		u := newUdxLines(text)
		if u.src != src || u.n != len(lines) {
			t.Fatalf("%q: src %q (%d lines), want %q (%d)", text, u.src, u.n, src, len(lines))
		}
		order := rng.Perm(len(lines))
		for k := range lines { // in order, then in any
			order = append(order, k)
		}
		for _, i := range order {
			if u.line(i) != lines[i] || u.start(i) != starts[i] || u.lineEnd(i) != starts[i]+len(lines[i]) {
				t.Fatalf("%q: line %d is %q at %d, want %q at %d", text, i, u.line(i), u.start(i), lines[i], starts[i])
			}
			tag := ""
			if tr := strings.TrimLeft(lines[i], " \t"); udxTagAt(tr, 0, true) != "" {
				tag = udxTagAt(tr, 0, true)
				if tr[1] == '/' {
					tag = "/" + tag
				}
			}
			if u.lineTag(i) != tag {
				t.Fatalf("%q: line %d starts with tag %q, want %q", text, i, u.lineTag(i), tag)
			}
			next := i
			for next < len(lines) && u.lineTag(next) == "" {
				next++
			}
			if u.tagLine(i) != next {
				t.Fatalf("%q: first tag line from %d is %d, want %d", text, i, u.tagLine(i), next)
			}
		}
		for off := 0; off <= len(src); off++ {
			want := sort.Search(len(starts), func(i int) bool { return starts[i] > off })
			if got := u.lineOf(off); got != want {
				t.Fatalf("%q: offset %d is on line %d, want %d", text, off, got, want)
			}
		}
	}
}

// A FILE_NEW body kept whole holds the lines body and udxStripFence
// keep, each ended by "\n", however the tag, blank lines, fences and
// the closing tag stand.
func TestUdxBodyTextIsTheBody(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"a", "", "  ", "```", "```go", "~~~", "````", "x```", "\t", "b c"}
	for range 3000 {
		var b strings.Builder
		b.WriteString(`<FILE_NEW file_path="f">`)
		for n := rng.IntN(8); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			if rng.IntN(6) > 0 {
				b.WriteString("\n")
			}
		}
		b.WriteString("</FILE_NEW>\n")
		text := b.String()
		p := newUdiffxReader(text)
		from := strings.IndexByte(p.src, '>') + 1
		to := strings.LastIndex(p.src, "</FILE_NEW>")
		lines, _ := udxStripFence(p.body(from, to))
		want := ""
		if len(lines) > 0 {
			want = strings.Join(lines, "\n") + "\n"
		}
		if got := p.bodyText(from, to); got != want {
			t.Fatalf("%q: body %q, want %q", text, got, want)
		}
	}
}
