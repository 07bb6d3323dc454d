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
