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
