package engine

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzMatcherFind holds the matcher's indexed search to a brute-force
// one at the rungs that compare every line (exact, trailing space), on
// a file edited once after its views were built, so that the views'
// bookkeeping of added lines is searched too; half the time the
// matcher knows some of the lines looked for, so that its views index
// only theirs until a key outside them is asked for.
func FuzzMatcherFind(f *testing.F) {
	f.Add("a\nb\na\nb\n", "a\nb", uint16(1), uint16(1), "a\nb")
	f.Add("x  \r\ny\n\n\ny", "y\n", uint16(0), uint16(0), "y \n")
	f.Add("", "", uint16(0), uint16(0), "")
	f.Add("\ufeffa\nb\tc\n", "b\tc", uint16(3), uint16(9), "a\r\nb\tc  ")
	f.Fuzz(func(t *testing.T, file, pat string, from, n uint16, repl string) {
		d := newDoc([]byte(file))
		// Unedited, the doc's exact lines are found by a search of its
		// text: the places of a line-by-line look.
		for _, l := range strings.Split(pat, "\n") {
			if l == "" {
				continue
			}
			got, ok := d.linesOf(l)
			var want []int
			for i := range d.len() {
				if d.content(i) == l {
					want = append(want, i)
				}
			}
			if !ok || !slices.Equal(got, want) {
				t.Fatalf("%q: the text search finds %v (%v), the lines %v", l, got, ok, want)
			}
		}
		m := newMatcher(d, "")
		if from%2 == 1 {
			some := strings.Split(pat, "\n")
			m.want = [][]string{some[:len(some)/2], strings.Split(repl, "\n")}
		}
		rungs := []Rung{RungExact, RungTrailing}
		for _, r := range rungs {
			m.view(r).index(d)
		}
		at := int(from) % (d.len() + 1)
		to := at + int(n)%(d.len()-at+1)
		var lines []string
		if repl != "" {
			for _, l := range strings.SplitAfter(repl, "\n") {
				if l != "" {
					lines = append(lines, strings.TrimSuffix(l, "\n")+"\n")
				}
			}
		}
		m.splice(at, to, lines)
		pattern := strings.Split(pat, "\n")
		for _, r := range rungs {
			var got []int
			for _, p := range m.find(pattern, r) {
				got = append(got, p.first())
			}
			key := keyFunc(r, "")
			var want []int
			for i := 0; i+len(pattern) <= d.len(); i++ {
				all := true
				for j, pl := range pattern {
					all = all && key(d.content(i+j)) == key(pl)
				}
				if all {
					want = append(want, i)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%v: found at %v, brute force at %v", r, got, want)
			}
		}
		// A view's first finds scan the file instead of its index: the
		// same places, at every rung that scans.
		fresh := newMatcher(d, "")
		for _, r := range []Rung{RungExact, RungTrailing, RungIndent, RungWhitespace} {
			m.view(r).index(d)
			if got, want := fresh.find(pattern, r), m.find(pattern, r); !reflect.DeepEqual(got, want) {
				t.Fatalf("%v: scanning finds %+v, the index %+v", r, got, want)
			}
		}
	})
}
