package patch

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestRegionHunksWrongHint: spans that do not describe the files make
// Format diff them whole, never write a wrong patch.
func TestRegionHunksWrongHint(t *testing.T) {
	defer func(n int) { RegionMinLines = n }(RegionMinLines)
	RegionMinLines = 0
	old := ptNumbered("line ", 1, 200)
	new := ptEdit(ptEdit(old, 150, "x", "y"), 50)
	right := []Span{{49, 50, 49, 49}, {149, 150, 148, 150}}
	for _, tc := range []struct {
		name  string
		spans []Span
		ok    bool
	}{
		{"right", right, true},
		{"one missing", right[1:], false},
		{"a line off, within the margin", []Span{{48, 49, 48, 48}, {149, 150, 148, 150}}, true},
		{"far off", []Span{{10, 11, 10, 10}, {149, 150, 148, 150}}, false},
		{"new count off", []Span{{49, 50, 49, 49}, {149, 150, 148, 151}}, false},
		{"unsorted", []Span{right[1], right[0]}, false},
		{"past the end", []Span{{49, 50, 49, 49}, {149, 250, 148, 250}}, false},
		{"wide", []Span{{40, 160, 40, 160}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := regionHunks([]byte(old), []byte(new), newTextLines([]byte(old)), tc.spans, 3); ok != tc.ok {
				t.Errorf("regionHunks ok = %v, want %v", ok, tc.ok)
			}
			c := ptMod("f.txt", old, new)
			want, _ := Format(c, Options{})
			c[0].Regions = tc.spans
			got, _ := Format(c, Options{})
			if !bytes.Equal(got, want) {
				t.Errorf("patch with the hint differs:\n%s", firstDiff(want, got))
			}
		})
	}
}

// firstDiff shows the first lines where two patches part.
func firstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) && i < len(g); i++ {
		if w[i] != g[i] {
			lo := max(0, i-8)
			return fmt.Sprintf("whole:\n%s\nregion:\n%s", strings.Join(w[lo:min(len(w), i+40)], "\n"), strings.Join(g[lo:min(len(g), i+40)], "\n"))
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(w), len(g))
}

// TestWindowsSideBySide: many windows diffed side by side give the
// patch that diffing them one after the other gives, for edits that
// replace, insert, delete and sit near enough to widen their windows,
// in files of blank-line-separated blocks (where the indent heuristic
// reads far) and of plain lines.
func TestWindowsSideBySide(t *testing.T) {
	defer func(n, w int) { RegionMinLines, parallelWindows = n, w }(RegionMinLines, parallelWindows)
	RegionMinLines = 0
	for _, blocks := range []bool{false, true} {
		var b strings.Builder
		for i := range 20000 {
			if blocks && i%7 == 0 {
				b.WriteString("\n")
				continue
			}
			fmt.Fprintf(&b, "    line %d of %d\n", i, i%13)
		}
		old := b.String()
		lines := strings.SplitAfter(old, "\n")
		lines = lines[:len(lines)-1]
		var newLines []string
		var spans []Span
		for i := 0; i < len(lines); i++ {
			switch {
			case i%200 == 10:
				spans = append(spans, Span{i, i + 1, len(newLines), len(newLines) + 1})
				newLines = append(newLines, "    changed\n")
			case i%200 == 100:
				spans = append(spans, Span{i, i, len(newLines), len(newLines) + 2})
				newLines = append(newLines, "\n", "    inserted\n", lines[i])
				spans[len(spans)-1].NewEnd = len(newLines) - 1
			case i%600 == 150:
				spans = append(spans, Span{i, i + 2, len(newLines), len(newLines)})
				i++
			default:
				newLines = append(newLines, lines[i])
			}
		}
		c := []FileChange{{OldPath: "f", NewPath: "f", Old: []byte(old), New: []byte(strings.Join(newLines, "")), Regions: spans}}
		if w, ok := RegionsFit(c[0]); !ok || w < parallelWindows {
			t.Fatalf("blocks %v: %d windows (fit %v), want at least %d", blocks, w, ok, parallelWindows)
		}
		side, err := Format(c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		parallelWindows = 1 << 30
		one, err := Format(c, Options{})
		parallelWindows = 32
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(side, one) {
			t.Errorf("blocks %v: side by side and one after the other differ", blocks)
		}
		c[0].Regions = nil
		if whole, _ := Format(c, Options{}); !bytes.Equal(side, whole) {
			t.Logf("blocks %v: the whole-file diff differs (ties may go otherwise)", blocks)
		}
		if err := Verify(side, c); err != nil {
			t.Errorf("blocks %v: Verify: %v", blocks, err)
		}
	}
}
