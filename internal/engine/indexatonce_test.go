package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// TestIndexAtOnce: a matcher told that many finds are coming builds a
// view's index at the first find instead of scanning the file first;
// either way the places found are the same.
func TestIndexAtOnce(t *testing.T) {
	var text strings.Builder
	for i := range 200 {
		fmt.Fprintf(&text, "    total += weight(%d)\n", i%50)
	}
	pattern := []string{"    total += weight(7)"}
	var places [2][]place
	for i, atOnce := range []bool{false, true} {
		m := newMatcher(newDoc([]byte(text.String())), "python")
		m.indexAtOnce = atOnce
		places[i] = m.find(pattern, RungExact)
		if built := m.views[RungExact].hashes != nil; built != atOnce {
			t.Errorf("indexAtOnce %v: index built at the first find: %v", atOnce, built)
		}
	}
	if fmt.Sprint(places[0]) != fmt.Sprint(places[1]) || len(places[0]) != 4 {
		t.Errorf("scanned %v, indexed %v; want the same 4 places", places[0], places[1])
	}
}

// TestEditsOf: the resolver counts a reply's operations by the path
// they name.
func TestEditsOf(t *testing.T) {
	r := newResolver(nil, Options{})
	for i := range maxScans + 1 {
		r.ops = append(r.ops, translate.Operation{Path: "a.py", Line: i + 1})
	}
	r.ops = append(r.ops, translate.Operation{Path: "b.py"})
	for p, want := range map[string]int{"a.py": maxScans + 1, "b.py": 1, "c.py": 0} {
		if got := r.editsOf(p); got != want {
			t.Errorf("editsOf(%s) = %d, want %d", p, got, want)
		}
	}
}

// TestEditsOfAbsolutePaths: an agent's absolute paths are counted under
// the repository's names they map to, which the files are loaded by; a
// path that maps nowhere counts as written.
func TestEditsOfAbsolutePaths(t *testing.T) {
	for _, tc := range []struct {
		name, path, root, counted string
	}{
		{"below the session's root", "/home/dev/proj/calc.py", "/home/dev/proj", "calc.py"},
		{"in a folder below it", "/home/dev/proj/src/calc.py", "/home/dev/proj", "src/calc.py"},
		{"a Windows path", `C:\Users\dev\proj\calc.py`, `C:\Users\dev\proj`, "calc.py"},
		{"the tracked file it ends in, no root", "/home/dev/proj/src/calc.py", "", "src/calc.py"},
		{"outside the root", "/tmp/calc.py", "/home/dev/proj", "/tmp/calc.py"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newResolver(files("calc.py", "x = 1\n", "src/calc.py", "y = 2\n"), Options{})
			for i := range 3 {
				r.ops = append(r.ops, translate.Operation{Kind: translate.Replace, Path: tc.path, Root: tc.root, Line: i + 1,
					TextEdit: translate.TextEdit{OldText: "a\nb\nc\n", NewText: "d\n"}})
			}
			if got := r.editsOf(tc.counted); got != 3 {
				t.Errorf("editsOf(%s) = %d, want 3", tc.counted, got)
			}
			if got := len(r.wantOf(tc.counted)); got != 3 {
				t.Errorf("wantOf(%s) holds %d texts, want 3", tc.counted, got)
			}
		})
	}
}
