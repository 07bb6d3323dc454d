package patch

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// startsOf is where each line of b starts, and len(b) last.
func startsOf(b []byte) []int32 {
	out := []int32{0}
	for i, c := range b {
		if c == '\n' && i+1 < len(b) {
			out = append(out, int32(i+1))
		}
	}
	if len(b) == 0 {
		return out
	}
	return append(out, int32(len(b)))
}

// TestFormatWithOldStarts: the old content's line starts, given, make
// the same patch as when they are counted, for whole-file diffs and
// region diffs, function lines in hunk headers included; starts that
// cannot be the content's are ignored; and a table that is wrong inside
// may make a wrong patch, but never one that Verify passes, unless only
// its hunk headers' function lines differ, which change nothing.
func TestFormatWithOldStarts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 60 {
		var b strings.Builder
		n := 50 + rng.IntN(3*RegionMinLines)
		for i := range n {
			switch rng.IntN(9) {
			case 0:
				fmt.Fprintf(&b, "func f%d() {\n", i)
			case 1:
				b.WriteString("\n")
			default:
				fmt.Fprintf(&b, "\tx%d := %d\n", i, rng.IntN(5))
			}
		}
		if rng.IntN(3) == 0 {
			b.WriteString("last line")
		}
		old := []byte(b.String())
		lines := splitLines(old)
		var newLines [][]byte
		var spans []Span
		for i := 0; i < len(lines); i++ {
			if rng.IntN(40) == 0 && (len(spans) == 0 || spans[len(spans)-1].OldEnd < i) && i > 0 {
				d := len(newLines) - i
				newLines = append(newLines, []byte(fmt.Sprintf("\tchanged%d\n", i)))
				spans = append(spans, Span{OldStart: i, OldEnd: i + 1, NewStart: i + d, NewEnd: i + d + 1})
				continue
			}
			newLines = append(newLines, lines[i])
		}
		new := bytes.Join(newLines, nil)
		if len(spans) == 0 || bytes.Equal(old, new) {
			continue
		}
		plain := FileChange{OldPath: "f.go", NewPath: "f.go", OldMode: ModeRegular, NewMode: ModeRegular, Old: old, New: new}
		for _, regions := range [][]Span{nil, spans} {
			c := plain
			c.Regions = regions
			want, err := Format([]FileChange{c}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for name, starts := range map[string][]int32{
				"right":       startsOf(old),
				"too short":   startsOf(old)[:1],
				"wrong end":   append(startsOf(old)[:len(startsOf(old))-1:len(startsOf(old))-1], int32(len(old)+1)),
				"wrong start": append([]int32{1}, startsOf(old)[1:]...),
			} {
				c.OldStarts = starts
				got, err := Format([]FileChange{c}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("round %d, regions %v, starts %s: the patch differs:\n%s\nwant\n%s", round, regions != nil, name, got, want)
				}
			}
			bad := startsOf(old)
			if len(bad) > 3 {
				bad[len(bad)/2]++ // a line cut one byte late
				c.OldStarts = bad
				got, err := Format([]FileChange{c}, Options{})
				if err == nil && !bytes.Equal(bareHeaders(got), bareHeaders(want)) {
					if err := Verify(got, []FileChange{c}); err == nil {
						t.Fatalf("round %d: a wrong line table made a different change that Verify passes:\n%s", round, got)
					}
				}
			}
		}
	}
}

// bareHeaders drops the function lines of a patch's hunk headers.
func bareHeaders(p []byte) []byte {
	var out []byte
	for _, l := range bytes.SplitAfter(p, []byte("\n")) {
		if bytes.HasPrefix(l, []byte("@@ ")) {
			if i := bytes.Index(l[3:], []byte(" @@")); i >= 0 {
				l = append(l[:3+i+3:3+i+3], '\n')
			}
		}
		out = append(out, l...)
	}
	return out
}
